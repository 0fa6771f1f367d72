/**
 * `npm run soak [-- --minutes N]`: a mixed workload against one `gatehouse serve` for a set time
 * (default 5 minutes; SOAK_MINUTES), as integrators and a directory use it at once: client
 * credentials tokens (a fresh token every few hundred requests, as token caches expire), invoices
 * settled and payouts created with Idempotency-Keys (some replayed), pages of invoices, payouts
 * and ledger entries followed by cursor, SCIM creates, updates and filters, and webhooks for
 * every settlement and payout delivered to a local receiver.
 *
 * Every 30 s it prints progress; at the end, throughput, error rate and resident memory (VmRSS
 * from /proc, sampled each second). It passes when no request failed and RSS after warm-up grew
 * by less than 10 % (the mean of the 10 s after warm-up against the mean of the last 10 s).
 * SOAK_DATABASE_URL (or --database-url) runs it on PostgreSQL; the report also goes to
 * bench/results/soak.md.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startGatehouse } from './lib/processes.ts';
import { machineLine } from './lib/report.ts';
import { createSoakClient, type Tally } from './soak-workload.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at >= 0) return process.argv[at + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
}

const minutes = Number(option('minutes') ?? process.env.SOAK_MINUTES ?? 5);
const databaseUrl = option('database-url') ?? process.env.SOAK_DATABASE_URL;
const workers = Number(process.env.SOAK_WORKERS ?? 8);
if (!(minutes > 0)) throw new Error('--minutes must be a positive number');
const durationMs = minutes * 60_000;
const warmUpMs = Math.min(60_000, Math.max(30_000, durationMs * 0.2));
const WINDOW_MS = 10_000;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function mean(values: number[]): number {
  return values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0;
}

/** Receives the webhooks: answers 204 and counts distinct events. */
async function startReceiver(): Promise<{ url: string; deliveries: () => number; events: () => number; close(): Promise<void> }> {
  let deliveries = 0;
  const events = new Set<string>();
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      deliveries++;
      events.add(String(request.headers['event-id']));
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    deliveries: () => deliveries,
    events: () => events.size,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const receiver = await startReceiver();
const gatehouse = await startGatehouse({
  databaseUrl,
  env: {
    GATEHOUSE_IN_PROCESS_WORKERS: 'on',
    GATEHOUSE_PAYOUT_DELAY: '1',
    GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
    // Rate limiting stays on (its memory is part of what is soaked), with room for the load.
    GATEHOUSE_RATE_LIMITS: 'on',
    GATEHOUSE_RATE_LIMIT_API: '1000000/1',
    GATEHOUSE_RATE_LIMIT_TOKEN: '1000000/1',
  },
});
const pid = gatehouse.process.pid!;
const tally: Tally = { requests: 0, errors: 0, refused: 0, latencies: [], byOperation: {}, firstErrors: [] };
const client = await createSoakClient({ url: gatehouse.url, adminUrl: gatehouse.adminUrl, adminToken: gatehouse.adminToken, receiverUrl: receiver.url, tally });
const database = databaseUrl ? 'postgres' : 'sqlite';
console.log(`soak: ${minutes} min on ${database}, ${workers} workers, warm-up ${warmUpMs / 1000} s; ${machineLine()}; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

const started = Date.now();
const samples: Array<{ at: number; rss: number }> = [];
const sampler = setInterval(() => samples.push({ at: Date.now() - started, rss: rssMiB(pid) }), 1000);
let lastRequests = 0;
const progress = setInterval(() => {
  const elapsed = (Date.now() - started) / 1000;
  const now = tally.requests - lastRequests;
  lastRequests = tally.requests;
  console.log(
    `[${elapsed.toFixed(0).padStart(4)} s] ${tally.requests.toLocaleString('en')} requests (${Math.round(now / 30)}/s now), ${tally.errors} errors, ` +
      `RSS ${rssMiB(pid).toFixed(0)} MiB, webhooks ${receiver.events().toLocaleString('en')} events delivered, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
}, 30_000);

const stopAt = started + durationMs;
await Promise.all(Array.from({ length: workers }, (_, i) => client.work(i, stopAt)));
const elapsedS = (Date.now() - started) / 1000;
clearInterval(sampler);
clearInterval(progress);
await gatehouse.stop();
await receiver.close();

const baseline = mean(samples.filter((s) => s.at >= warmUpMs && s.at < warmUpMs + WINDOW_MS).map((s) => s.rss));
const final = mean(samples.filter((s) => s.at >= durationMs - WINDOW_MS).map((s) => s.rss));
const growth = (final - baseline) / baseline;
const errorRate = tally.errors / Math.max(1, tally.requests);
const sorted = tally.latencies.sort((a, b) => a - b);
const pass = growth < 0.1 && tally.errors === 0 && tally.requests > 0;
const operations = Object.entries(tally.byOperation)
  .map(([name, n]) => `| ${name} | ${n.toLocaleString('en')} |`)
  .join('\n');
const report = `# Soak run

${machineLine()}; ${database}; ${minutes} min, ${workers} workers; load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}

| figure | value |
|---|---|
| requests | ${tally.requests.toLocaleString('en')} in ${elapsedS.toFixed(0)} s |
| throughput | ${Math.round(tally.requests / elapsedS)} req/s |
| latency p50 / p99 | ${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} ms |
| errors | ${tally.errors} (rate ${(errorRate * 100).toFixed(3)} %) |
| refused payouts (422 insufficient_funds, a correct answer) | ${tally.refused} |
| webhook events delivered | ${receiver.events().toLocaleString('en')} (${receiver.deliveries().toLocaleString('en')} deliveries) |
| RSS after warm-up (${warmUpMs / 1000} s) | ${baseline.toFixed(1)} MiB |
| RSS at the end | ${final.toFixed(1)} MiB |
| RSS growth | ${(growth * 100).toFixed(1)} % (target < 10 %) |
| peak RSS | ${Math.max(...samples.map((s) => s.rss)).toFixed(1)} MiB |
| result | ${pass ? 'PASS' : 'FAIL'} |

| operation | requests |
|---|---:|
${operations}
${tally.firstErrors.length ? `\nFirst errors:\n\n${tally.firstErrors.map((e) => `- ${e}`).join('\n')}\n` : ''}`;
fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
fs.writeFileSync(path.join('bench', 'results', 'soak.md'), report);
console.log(`\n${report}\nwritten to bench/results/soak.md`);
process.exit(pass ? 0 : 1);
