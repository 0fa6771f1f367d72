/**
 * What the default log level costs: POST /token (client_credentials, client_secret_basic, 50
 * connections) on a Gatehouse at `info` (one request line per request) against the same on a
 * Gatehouse at `warn` (no request lines), each in its own process, both writing their standard
 * output to a file as a log collector would take it. Target: info ≥ 0.95 × warn.
 *
 * Both processes stay up for the whole scenario and are measured in ROUNDS paired rounds of
 * SECONDS each (after a 2 s warm-up), the order alternating from round to round, and the ratio is
 * reported from the median round: on a shared machine both drift by more than the difference
 * measured, and short rounds keep the two sides of a pair close in time. CPU time per request of each
 * is reported beside req/s, and the info run's log is counted to show that its lines were
 * written. Measured on SQLite only: the grant reads no table on its path (a cached client), so
 * the database does not enter into it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureWithCpu } from '../lib/load.ts';
import { startGatehouse, type GatehouseServer } from '../lib/processes.ts';
import { median, type Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';
import { admin, basic, tokenRequest } from './token-client-credentials.ts';

const NAME = 'logging-cost';
const ROUNDS = Number(process.env.BENCH_LOGGING_ROUNDS ?? 9);
/** Short measurements, many rounds: the closer in time the two sides, the less the machine drifts between them. */
const SECONDS = Number(process.env.BENCH_LOGGING_SECONDS ?? 5);
const TARGET = 0.95;

type Measured = Awaited<ReturnType<typeof measureWithCpu>>;

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

function measure(side: Side): Promise<Measured> {
  return measureWithCpu(side.gatehouse.process.pid!, { ...tokenRequest(`${side.gatehouse.url}/token`, side.authorization), durationSeconds: SECONDS });
}

/** Request lines in a log file, read in chunks (the file holds millions of lines). */
function requestLines(file: string): number {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1 << 20);
  const marker = Buffer.from('"msg":"request"');
  let count = 0;
  let carry = Buffer.alloc(0);
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      const chunk = Buffer.concat([carry, buffer.subarray(0, read)]);
      for (let at = chunk.indexOf(marker); at >= 0; at = chunk.indexOf(marker, at + marker.length)) count++;
      carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - marker.length + 1)));
    }
  } finally {
    fs.closeSync(fd);
  }
  return count;
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
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating which goes first: neither always measures a machine the other warmed.
        const first = round % 2 === 0 ? warn : info;
        const second = first === warn ? info : warn;
        const a = await measure(first);
        const b = await measure(second);
        rounds.push(first === warn ? { warn: a, info: b } : { warn: b, info: a });
      }
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
    const ok = (m: Measured) => m.non2xx === 0 && m.errors === 0;
    return [
      {
        scenario: NAME,
        subject: `gatehouse POST /token at warn (no request lines; ${chosen.warn.cpu}; median of ${ROUNDS} rounds)`,
        database: 'sqlite',
        ...chosen.warn,
        peakRssMiB: warn.gatehouse.peakRssMiB(),
      },
      {
        scenario: NAME,
        subject: `gatehouse POST /token at info (a request line each; ${chosen.info.cpu}; median of ${ROUNDS} rounds)`,
        database: 'sqlite',
        ...chosen.info,
        peakRssMiB: info.gatehouse.peakRssMiB(),
        ratio: `${ratio.toFixed(3)} × warn (its round: ${chosen.warn.requestsPerSecond}/s); CPU/req ${cpuRatio(byCpu).toFixed(3)} × warn`,
        target: `≥ ${TARGET} × warn`,
        pass: ratio >= TARGET && lines >= answered && rounds.every((r) => ok(r.info) && ok(r.warn)),
      },
    ] satisfies Row[];
  },
};
