/** GET /healthz on Gatehouse against the fastify hello-world ceiling. Target: ≥ 0.8 of the ceiling. */
import { load, warmUp } from '../lib/load.ts';
import { startCeiling, startGatehouse } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';

export const healthz: Scenario = {
  name: 'healthz',
  async run({ databases }) {
    const rows: Row[] = [];
    const ceiling = await startCeiling();
    await warmUp({ url: ceiling.url });
    const top = await load({ url: ceiling.url });
    rows.push({ scenario: 'healthz', subject: 'fastify hello-world (ceiling)', database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    await ceiling.stop();
    for (const database of databases) {
      const gatehouse = await startGatehouse({ databaseUrl: database.url });
      await warmUp({ url: `${gatehouse.url}/healthz` });
      const result = await load({ url: `${gatehouse.url}/healthz` });
      const ratio = result.requestsPerSecond / top.requestsPerSecond;
      rows.push({
        scenario: 'healthz',
        subject: 'gatehouse GET /healthz',
        database: database.kind,
        ...result,
        peakRssMiB: gatehouse.peakRssMiB(),
        ratio: `${ratio.toFixed(2)} × ceiling`,
        target: '≥ 0.8',
        pass: ratio >= 0.8 && result.non2xx === 0,
      });
      await gatehouse.stop();
    }
    return rows;
  },
};
