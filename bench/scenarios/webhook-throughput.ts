/**
 * Webhook delivery throughput: EVENTS (20,000) events committed to Gatehouse and delivered to
 * a local receiver answering 204, beside a plain undici loop POSTing the same requests (the
 * same bodies and headers) to the same receiver from one process with the same number of
 * connections. Targets: at least half the raw loop's deliveries/s; commit-to-first-attempt p50
 * < 50 ms and p99 < 250 ms, measured on events raised at a steady PACED_RATE (a backlog of
 * 20,000 measures queueing, not wake-up).
 *
 * Both sides are warmed first with WARMUP untimed deliveries. Deliveries/s is the drain rate:
 * the 20,000 events are committed in one transaction while the warmed dispatcher runs, and the
 * clock runs from that commit until the last event has reached the receiver and every
 * acknowledgement is recorded in Gatehouse's database (outcomes are written in batches, and a
 * delivery is done only once its acknowledgement is stored).
 *
 * Runs are paired: each drain (a fresh process and database) is compared with the mean of a
 * reference run just before it and one just after, and the figure is the pair with the median
 * ratio of PAIRS. On a shared machine the speed of both sides drifts by half over minutes; a
 * reference measured minutes before (or the best of several, beside one drain) measures the
 * drift as much as the dispatcher.
 *
 * Beside the rates, CPU time from /proc: per request for the loop and the receiver, per
 * delivery over the drain for Gatehouse, the receiver and PostgreSQL's server processes. On a
 * machine of few cores they all share them, so the sum bounds what a drain can reach, and CPU
 * per delivery moves much less than deliveries/s.
 */
import { request, Agent } from 'undici';
import { BENCH_SECRETS_KEY, profileFlags, startNode, type Server } from '../lib/processes.ts';
import { median, type Row } from '../lib/report.ts';
import { cpuMicros } from '../lib/load.ts';
import type { BenchDatabase, Scenario } from '../run.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { signatureHeaders, signingKey } from '../../src/webhooks/signer.ts';

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 20_000);
const CONNECTIONS = 16;
/** Deliveries each side makes untimed first: the reference's first run is cold and half as fast. */
const WARMUP = Math.min(2_000, EVENTS);
/** Drains per database, each beside its own reference runs; the median is reported. */
const PAIRS = Number(process.env.BENCH_WEBHOOK_PAIRS ?? 5);

export const webhookThroughput: Scenario = {
  name: 'webhook-throughput',
  async run({ databases, note }) {
    const rows: Row[] = [];
    const receiver = await startNode(['--import', 'tsx', 'bench/peers/webhook-receiver.ts'], { ready: /listening (\S+)/ });
    // Warmed like the dispatcher: the loop's first run is cold.
    await rawLoop(receiver, WARMUP);
    type Pair = { before: LoopRun; after: LoopRun; burst: Awaited<ReturnType<typeof runPhase>>; ratio: number };
    const meanOf = (p: Pair) => Math.round((p.before.perSecond + p.after.perSecond) / 2);
    const pairsOf = new Map<BenchDatabase, Pair[]>();
    for (const database of databases) {
      const pairs: Pair[] = [];
      for (let pair = 0; pair < PAIRS; pair++) {
        const before = await rawLoop(receiver, EVENTS);
        const burst = await runPhase(database, receiver, { PHASE: 'burst', EVENTS: String(EVENTS), WARMUP: String(WARMUP) });
        const after = await rawLoop(receiver, EVENTS);
        pairs.push({ before, after, burst, ratio: (2 * burst.perSecond) / (before.perSecond + after.perSecond) });
      }
      note(
        `webhook-throughput, ${database.kind} (drain/s beside the loop runs before→after it; CPU µs per delivery): ${pairs
          .map((p) => `${p.burst.perSecond} beside ${p.before.perSecond}→${p.after.perSecond} = ${p.ratio.toFixed(2)} (${drainCpuText(p.burst.cpu)})`)
          .join('; ')}`,
      );
      pairsOf.set(database, pairs);
    }
    const references = [...pairsOf.values()].flat().flatMap((p) => [p.before, p.after]);
    const reference = median(references, (r) => r.perSecond);
    rows.push({
      scenario: 'webhook-throughput',
      subject: `undici loop, same requests, ${CONNECTIONS} connections (reference; median of ${references.length} runs; CPU µs per request: loop ${reference.cpu.loop}, receiver ${reference.cpu.receiver})`,
      database: '-',
      requestsPerSecond: reference.perSecond,
      p50Ms: 0,
      p99Ms: 0,
      non2xx: 0,
    });
    for (const [database, pairs] of pairsOf) {
      const reported = median(pairs, (p) => p.ratio);
      const { burst, ratio } = reported;
      // Every run must have delivered every event, not only the one reported.
      const complete = pairs.every((p) => p.burst.delivered === EVENTS);
      const paced = await runPhase(database, receiver, { PHASE: 'paced', PACED: '1000', PACED_RATE: '200' });
      rows.push({
        scenario: 'webhook-throughput',
        subject: `gatehouse dispatcher, ${EVENTS} events, median of ${PAIRS} runs, each beside loop runs just before and after it (latency: 1000 at 200/s; CPU µs per delivery: ${drainCpuText(burst.cpu)})`,
        database: database.kind,
        requestsPerSecond: burst.perSecond,
        p50Ms: paced.p50,
        p99Ms: paced.p99,
        non2xx: 0,
        peakRssMiB: burst.peakRssMiB,
        ratio: `${ratio.toFixed(2)} × raw loop (its pair: ${meanOf(reported)}/s)`,
        target: '≥ 0.5; p50 < 50, p99 < 250',
        pass: ratio >= 0.5 && paced.p50 < 50 && paced.p99 < 250 && complete,
      });
    }
    await receiver.stop();
    return rows;
  },
};

/**
 * The reference: the same requests, body and headers alike, POSTed as fast as the connections
 * allow. The headers are signed once, with a throwaway secret, so the loop computes nothing per
 * request, while the receiver and the network carry exactly what a delivery carries.
 */
async function rawLoop(receiver: Server, requests: number): Promise<LoopRun> {
  const url = `${receiver.url}/hooks`;
  const agent = new Agent({ connections: CONNECTIONS });
  const body = JSON.stringify({ event: 'invoice.settled', object: 'invoice', id: 'inv_0', state: 'settled', created_at: new Date().toISOString() });
  const now = Date.now();
  const signed = signatureHeaders({
    eventId: 'evt_00000000000000000000',
    deliveryId: 'dlv_00000000000000000000',
    eventType: 'invoice.settled',
    body: Buffer.from(body),
    raisedAt: now,
    attemptAt: now,
    keys: [signingKey(`whsec_${randomBytes(24).toString('base64')}`)],
  });
  let next = 0;
  const started = performance.now();
  const cpuBefore = { loop: process.cpuUsage(), receiver: cpuMicros(receiver.process.pid!) };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < requests) {
        const i = next++;
        const response = await request(url, {
          method: 'POST',
          dispatcher: agent,
          body,
          headers: { ...signed, 'event-id': `raw_${i}` },
        });
        await response.body.dump();
      }
    }),
  );
  const perSecond = Math.round(requests / ((performance.now() - started) / 1000));
  const loopCpu = process.cpuUsage(cpuBefore.loop);
  const cpu = { loop: Math.round((loopCpu.user + loopCpu.system) / requests), receiver: Math.round((cpuMicros(receiver.process.pid!) - cpuBefore.receiver) / requests) };
  await agent.close();
  return { perSecond, cpu };
}

/** A run of the reference loop: requests/s, and CPU µs per request of the loop and of the receiver. */
interface LoopRun {
  perSecond: number;
  cpu: { loop: number; receiver: number };
}

/** CPU µs per delivery over a drain: Gatehouse, the receiver, PostgreSQL's server processes (0 on SQLite). */
interface DrainCpu {
  gatehouse: number;
  receiver: number;
  postgres: number;
}

async function runPhase(database: BenchDatabase, receiver: Server, env: Record<string, string>) {
  const receiverUrl = receiver.url;
  await fetch(`${receiverUrl}/reset`, { method: 'POST' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const databaseUrl = database.url
    ? withSchema(database.url, `bench_${randomBytes(4).toString('hex')}`)
    : `sqlite:${path.join(dataDir, 'gatehouse.db')}`;
  const source: Server = await startNode([...profileFlags(), '--import', 'tsx', 'bench/peers/webhook-source.ts'], {
    env: {
      ...env,
      GATEHOUSE_DATABASE_URL: databaseUrl,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_SECRETS_KEY: BENCH_SECRETS_KEY,
      GATEHOUSE_ADMIN_TOKEN: 'bench-admin-token-0123456789abcdef',
      GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      GATEHOUSE_WEBHOOK_CONCURRENCY: String(CONNECTIONS),
      RECEIVER_URL: `${receiverUrl}/hooks`,
      RECEIVER_PID: String(receiver.process.pid),
      COMMITS_FILE: path.join(dataDir, 'commits.json'),
      ACKED_FILE: path.join(dataDir, 'acked'),
    },
    ready: /^(raised \d+)$/m,
    // "raised" comes after every event is committed (and, in a burst, delivered), which takes minutes on a busy machine.
    readyTimeoutMs: 600_000,
  });
  const commits = JSON.parse(fs.readFileSync(path.join(dataDir, 'commits.json'), 'utf8')) as Record<string, number>;
  const drainStart = commits.__start;
  delete commits.__start;
  const expected = Object.keys(commits).length;
  // The receiver counts the untimed warm-up deliveries too.
  const arriving = expected + Number(env.WARMUP ?? 0);
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const delivered = ((await (await fetch(`${receiverUrl}/stats`)).json()) as { count: number }).count;
    if (delivered >= arriving) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const arrivals = (await (await fetch(`${receiverUrl}/arrivals`)).json()) as Record<string, number>;
  const firstCommit = drainStart ?? Math.min(...Object.values(commits));
  // A burst's source reports ready only once every acknowledgement is recorded, so the file is there.
  const acked = drainStart !== undefined ? (JSON.parse(fs.readFileSync(path.join(dataDir, 'acked'), 'utf8')) as { at: number; cpu: DrainCpu }) : undefined;
  const drainEnd = Math.max(...Object.values(arrivals), acked?.at ?? 0);
  const latencies = Object.entries(commits)
    .map(([id, at]) => (arrivals[id] ?? Infinity) - at)
    .sort((a, b) => a - b);
  const pick = (q: number) => Math.max(0, latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!);
  const peakRssMiB = source.peakRssMiB();
  await source.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (database.url) await dropSchema(database.url, new URL(databaseUrl).searchParams.get('schema')!);
  return {
    delivered: Object.keys(commits).filter((id) => id in arrivals).length,
    perSecond: Math.round(expected / ((drainEnd - Math.min(firstCommit, drainEnd)) / 1000 || 1)),
    p50: pick(0.5),
    p99: pick(0.99),
    peakRssMiB,
    cpu: acked?.cpu,
  };
}

function drainCpuText(cpu: DrainCpu | undefined): string {
  if (cpu === undefined) return 'not measured';
  return `gatehouse ${cpu.gatehouse}${cpu.postgres > 0 ? ` + PostgreSQL ${cpu.postgres}` : ''}, receiver ${cpu.receiver}`;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.href;
}
