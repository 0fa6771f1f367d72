/**
 * What the default log level costs: POST /token (client_credentials, client_secret_basic, 50
 * connections) on a Gatehouse at `info` (one request line per request) against the same on a
 * Gatehouse at `warn` (no request lines), each in its own process, both writing their standard
 * output to a file as a log collector would take it. Target: info ≥ 0.95 × warn.
 *
 * Both processes stay up for the whole scenario and are measured in ROUNDS rounds of SECONDS
 * each (after a 2 s warm-up), the two loads running at the same time, each from a load generator
 * in a process of its own: on a shared machine the neighbours' work moves req/s by far more than
 * the difference measured, and only two sides measured over the same seconds meet the same
 * neighbours. The two servers then share the cores between them, so their req/s compare what a
 * request costs each. The ratio is reported from the median round and over all rounds together;
 * CPU time per request of each is reported beside req/s, and the info run's log is counted to show
 * that its lines were written. Measured on SQLite only: the grant reads no table on its path (a
 * cached client), so the database does not enter into it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuMicros, type LoadResult } from '../lib/load.ts';
import { loadInProcess } from '../lib/load-process.ts';
import { startGatehouse, type GatehouseServer } from '../lib/processes.ts';
import { median, type Row } from '../lib/report.ts';
import { requestLines } from '../lib/log-lines.ts';
import type { Scenario } from '../run.ts';
import { admin, basic, tokenRequest } from './token-client-credentials.ts';

const NAME = 'logging-cost';
const ROUNDS = Number(process.env.BENCH_LOGGING_ROUNDS ?? 9);
/** Short measurements, many rounds: the median round leaves out a round a neighbour upset. */
const SECONDS = Number(process.env.BENCH_LOGGING_SECONDS ?? 5);
const TARGET = 0.95;

type Measured = LoadResult & { cpu: string; cpuMicrosPerRequest: number };

interface Side {
  level: 'info' | 'warn';
  gatehouse: GatehouseServer;
  logFile: string;
  authorization: string;
}

interface Round {
  warn: Measured;
  info: Measured;
}

async function startSide(level: Side['level'], dir: string): Promise<Side> {
  const logFile = path.join(dir, `${level}.log`);
  const fd = fs.openSync(logFile, 'a');
  try {
    const gatehouse = await startGatehouse({ env: { GATEHOUSE_LOG_LEVEL: level }, stdout: fd });
    const account = await admin(gatehouse.adminUrl, gatehouse.adminToken, '/admin/v1/accounts', { name: 'Bench' });
    const client = await admin(gatehouse.adminUrl, gatehouse.adminToken, `/admin/v1/accounts/${account.id}/clients`, { grant_types: ['client_credentials'], scope: 'invoices:read' });
    return { level, gatehouse, logFile, authorization: basic(client.client_id!, client.client_secret!) };
  } finally {
    // The child holds its own copy of the descriptor.
    fs.closeSync(fd);
  }
}

const requestOf = (side: Side) => tokenRequest(`${side.gatehouse.url}/token`, side.authorization);

/**
 * One round: both sides warmed, then both loaded over the same seconds, each with its CPU time per
 * request. `infoFirst` alternates from round to round which load generator is started first.
 */
async function measureRound(warn: Side, info: Side, infoFirst: boolean): Promise<Round> {
  const sides = infoFirst ? [info, warn] : [warn, info];
  await Promise.all(sides.map((side) => loadInProcess({ ...requestOf(side), durationSeconds: 2 })));
  const before = sides.map((side) => cpuMicros(side.gatehouse.process.pid!));
  const results = await Promise.all(sides.map((side) => loadInProcess({ ...requestOf(side), durationSeconds: SECONDS })));
  const [first, second] = sides.map((side, n): Measured => {
    const cpuMicrosPerRequest = Math.round((cpuMicros(side.gatehouse.process.pid!) - before[n]!) / Math.max(1, results[n]!.total));
    return { ...results[n]!, cpu: `${cpuMicrosPerRequest} µs CPU/req`, cpuMicrosPerRequest };
  });
  return infoFirst ? { info: first!, warn: second! } : { warn: first!, info: second! };
}

const throughputRatio = (r: Round) => r.info.requestsPerSecond / r.warn.requestsPerSecond;
const cpuRatio = (r: Round) => r.info.cpuMicrosPerRequest / r.warn.cpuMicrosPerRequest;

export const loggingCost: Scenario = {
  name: NAME,
  async run({ note }) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-logs-'));
    const warn = await startSide('warn', dir);
    const info = await startSide('info', dir).catch(async (error: unknown) => {
      await warn.gatehouse.stop();
      throw error;
    });
    const rounds: Round[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) rounds.push(await measureRound(warn, info, round % 2 === 1));
    } finally {
      // A clean stop flushes what the processes still buffer, so the lines are counted after it.
      await Promise.all([warn.gatehouse.stop(), info.gatehouse.stop()]);
    }
    const lines = requestLines(info.logFile);
    const megabytes = fs.statSync(info.logFile).size / 2 ** 20;
    fs.rmSync(dir, { recursive: true, force: true });

    note(
      `${NAME}, sqlite, rounds (info/warn req/s; CPU µs/req info/warn): ` +
        rounds.map((r) => `${throughputRatio(r).toFixed(3)} (${r.info.requestsPerSecond}/${r.warn.requestsPerSecond}; ${r.info.cpuMicrosPerRequest}/${r.warn.cpuMicrosPerRequest})`).join('; '),
    );
    const answered = rounds.reduce((sum, r) => sum + r.info.total, 0);
    // Warm-ups and set-up requests are logged too: there are more lines than measured requests.
    note(`${NAME}: the info process wrote ${lines.toLocaleString('en')} request lines (${megabytes.toFixed(0)} MiB) for ${answered.toLocaleString('en')} measured requests`);
    const chosen = median(rounds, throughputRatio);
    const ratio = throughputRatio(chosen);
    const byCpu = median(rounds, cpuRatio);
    const overall = rounds.reduce((sum, r) => sum + r.info.total, 0) / rounds.reduce((sum, r) => sum + r.warn.total, 0);
    const ok = (m: Measured) => m.non2xx === 0 && m.errors === 0;
    return [
      {
        scenario: NAME,
        subject: `gatehouse POST /token at warn (no request lines; ${chosen.warn.cpu}; median of ${ROUNDS} rounds, both loaded at once)`,
        database: 'sqlite',
        ...chosen.warn,
        peakRssMiB: warn.gatehouse.peakRssMiB(),
      },
      {
        scenario: NAME,
        subject: `gatehouse POST /token at info (a request line each; ${chosen.info.cpu}; median of ${ROUNDS} rounds, both loaded at once)`,
        database: 'sqlite',
        ...chosen.info,
        peakRssMiB: info.gatehouse.peakRssMiB(),
        ratio: `${ratio.toFixed(3)} × warn (its round: ${chosen.warn.requestsPerSecond}/s; all rounds: ${overall.toFixed(3)}); CPU/req ${cpuRatio(byCpu).toFixed(3)} × warn`,
        target: `≥ ${TARGET} × warn`,
        pass: ratio >= TARGET && lines >= answered && rounds.every((r) => ok(r.info) && ok(r.warn)),
      },
    ] satisfies Row[];
  },
};
