/** GET /healthz on Gatehouse against the fastify hello-world ceiling. Target: ≥ 0.8 of the ceiling. */
import { measureWithCpu } from '../lib/load.ts';
import { startCeiling, startGatehouse } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';

export const healthz: Scenario = {
  name: 'healthz',
  async run({ databases }) {
    const rows: Row[] = [];
    const ceiling = await startCeiling();
    const top = await measureWithCpu(ceiling.process.pid!, { url: ceiling.url });
    rows.push({ scenario: 'healthz', subject: `fastify ${ceiling.fastify} hello-world, GET (ceiling; ${top.cpu})`, database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    await ceiling.stop();
    for (const database of databases) {
      const gatehouse = await startGatehouse({ databaseUrl: database.url });
      const result = await measureWithCpu(gatehouse.process.pid!, { url: `${gatehouse.url}/healthz` });
      const ratio = result.requestsPerSecond / top.requestsPerSecond;
      rows.push({
        scenario: 'healthz',
        subject: `gatehouse GET /healthz (${result.cpu})`,
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
