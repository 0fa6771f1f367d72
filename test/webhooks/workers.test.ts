/**
 * Workers as operators run them: in-process inside the app (woken on commit), and separate
 * `gatehouse worker` processes that may be killed outright or run side by side.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { secretsKeyEnvFor, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { until } from '../helpers/until.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, raise, registerEndpoint, tenant } from './support.ts';
import { createDispatcher, type Dispatcher, type DispatcherOptions } from '../../src/webhooks/dispatcher.ts';
import { createSealer, loadSecretsKey } from '../../src/platform/secrets-key.ts';
import { createTargetPolicy } from '../../src/webhooks/target-policy.ts';

const BIN = path.resolve('bin/gatehouse.js');

function startWorker(databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'worker'], {
    env: {
      ...process.env,
      GATEHOUSE_DATABASE_URL: databaseUrl,
      ...secretsKeyEnvFor(databaseUrl),
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      GATEHOUSE_WEBHOOK_TIMEOUT: '1',
      GATEHOUSE_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (output.includes('gatehouse worker delivering')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => (output += c));
    child.once('exit', (code) => reject(new Error(`worker exited ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`worker not ready:\n${output}`)), 30_000).unref();
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function states(t: TestApp, accountId: string): Promise<Record<string, number>> {
  const rows = await t.gatehouse.database.db
    .selectFrom('webhook_deliveries')
    .select(['state'])
    .where('account_id', '=', accountId)
    .execute();
  const out: Record<string, number> = {};
  for (const r of rows) out[r.state] = (out[r.state] ?? 0) + 1;
  return out;
}

/** A dispatcher of its own on the test app's database and clock, allowed to reach loopback receivers. */
async function dispatcherOf(t: TestApp, options: Pick<DispatcherOptions, 'timeoutMs'> & Partial<DispatcherOptions>): Promise<Dispatcher> {
  const key = await loadSecretsKey({ database: t.gatehouse.database, configured: t.config.secretsKey });
  return createDispatcher({
    db: t.gatehouse.database.db,
    clock: t.clock,
    log: t.gatehouse.log,
    sealer: createSealer(key, 'webhook secrets'),
    policy: createTargetPolicy({ allowNetworks: ['127.0.0.0/8'], requireHttps: false }),
    databaseUrl: t.config.databaseUrl,
    scheduleSeconds: [1],
    disableAfterMs: 3600_000,
    ...options,
  });
}

describe('gatehouse worker command', () => {
  it('worker --help describes the command and lists the settings; the top-level help lists it', async () => {
    const { spawnSync } = await import('node:child_process');
    const help = spawnSync(process.execPath, [BIN, 'worker', '--help'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /Usage: gatehouse worker/);
    assert.match(help.stdout, /leases expire/);
    assert.match(help.stdout, /GATEHOUSE_WEBHOOK_RETRY_SCHEDULE/);
    const top = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8', timeout: 30_000 });
    assert.match(top.stdout, /worker\s+Deliver webhooks/);
  });
});

for (const target of databaseTargets()) {
  describe(`webhook workers (${target.kind})`, () => {
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    it('in-process worker: woken on commit, not by polling (its poll is a minute here), within milliseconds', async () => {
      const t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      const worker = await dispatcherOf(t, { timeoutMs: 5000, pollMs: 60_000 });
      try {
        const who = await tenant(t);
        const { secret } = await registerEndpoint(who, receiver.url, ['payout.created']);
        receiver.secrets = [secret];
        await worker.start();
        const latencies: number[] = [];
        for (let i = 0; i < 5; i++) {
          const start = receiver.received.length;
          const committed = Date.now();
          await raise(t, who.accountId, 'payout.created', `po_${i}`);
          await receiver.waitFor(start + 1, 5000);
          latencies.push(receiver.received[start]!.at - committed);
        }
        latencies.sort((a, b) => a - b);
        // Only the commit signal can have woken it; the median guards against a slow path.
        assert.ok(latencies[2]! < 250, `commit → first attempt: ${latencies.join(', ')} ms`);
        await until(async () => (await states(t, who.accountId)).acknowledged === 5, 5000, 'acknowledgements');
      } finally {
        await worker.stop();
        await t.close();
      }
    });

    it('a claimed delivery whose lease could run out before its attempt is recorded is let go unattempted, then claimed again once the lease expires', async () => {
      const t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      // One attempt at a time to the endpoint, so the second and third wait behind the first.
      const worker = await dispatcherOf(t, { timeoutMs: 1000, perEndpoint: 1 });
      const slow = await startReceiver();
      try {
        const who = await tenant(t);
        const { secret } = await registerEndpoint(who, slow.url, ['payout.created']);
        slow.secrets = [secret];
        let release!: () => void;
        const firstAnswered = new Promise<void>((resolve) => (release = resolve));
        slow.answer = (request) => (slow.received.indexOf(request) === 0 ? { status: 204, after: firstAnswered } : 204);
        for (let i = 0; i < 3; i++) await raise(t, who.accountId, 'payout.created', `po_${i}`);
        const claimedAt = t.clock.now();
        const run = worker.runDue();
        await slow.waitFor(1, 5000);
        // While the first attempt is in flight, the lease (17 timeouts and a second) nearly runs out.
        t.clock.advance(17 * 1000);
        release();
        assert.equal(await run, 3, 'three claimed');
        assert.equal(slow.received.length, 1, 'the two let go were not attempted');
        const queued = await t.gatehouse.database.db.selectFrom('webhook_queue').select(['lease_until']).where('account_id', '=', who.accountId).execute();
        assert.deepEqual(queued.map((q) => q.lease_until), [claimedAt + 18_000, claimedAt + 18_000], 'still leased, not released early');
        assert.deepEqual(await states(t, who.accountId), { acknowledged: 1, pending: 2 });
        assert.equal(await worker.runDue(), 0, 'not claimable before the lease expires');

        t.clock.advance(1001);
        assert.equal(await worker.runDue(), 2);
        assert.equal(slow.received.length, 3);
        assert.deepEqual(new Set(slow.received.map((r) => r.body.id)), new Set(['po_0', 'po_1', 'po_2']));
        assert.deepEqual(await states(t, who.accountId), { acknowledged: 3 });
      } finally {
        await worker.stop();
        await slow.close();
        await t.close();
      }
    });

    it('stop within a timeout: claimed deliveries not yet attempted are released at once; an attempt whose receiver never answers is abandoned unrecorded at the timeout and keeps its lease', async () => {
      const t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      // One attempt at a time to the endpoint, each allowed a minute: two of three wait, claimed.
      const worker = await dispatcherOf(t, { timeoutMs: 60_000, perEndpoint: 1 });
      const hung = await startReceiver();
      try {
        hung.answer = () => 'timeout';
        const who = await tenant(t);
        await registerEndpoint(who, hung.url, ['payout.created']);
        for (let i = 0; i < 3; i++) await raise(t, who.accountId, 'payout.created', `po_${i}`);
        await worker.start();
        await hung.waitFor(1, 10_000);
        const stopping = performance.now();
        assert.deepEqual(await worker.stop({ timeoutMs: 300 }), { released: 2, abandoned: 1 });
        const took = performance.now() - stopping;
        assert.ok(took >= 290 && took < 5000, `gave up at the timeout, not the receiver's minute (${took} ms)`);

        const attempted = hung.received[0]!.headers['event-id'];
        const queue = await t.gatehouse.database.db
          .selectFrom('webhook_queue')
          .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_queue.delivery_id')
          .select(['webhook_deliveries.event_id', 'webhook_deliveries.attempt_count', 'webhook_queue.lease_until'])
          .where('webhook_queue.account_id', '=', who.accountId)
          .execute();
        assert.equal(queue.length, 3);
        for (const row of queue) {
          assert.equal(row.attempt_count, 0, 'nothing recorded');
          assert.equal(row.lease_until === null, row.event_id !== attempted, 'released unless attempted');
        }
        assert.deepEqual(await states(t, who.accountId), { pending: 3 });
        assert.equal(hung.received.length, 1, 'nothing more was sent while stopping');
      } finally {
        await worker.stop();
        await hung.close();
        await t.close();
      }
    });

    it('serve with in-process workers delivers without anyone driving the dispatcher', async () => {
      const t = await startTestApp(target, { env: { ...ALLOW_LOOPBACK, GATEHOUSE_IN_PROCESS_WORKERS: 'on' } });
      try {
        const who = await tenant(t);
        await registerEndpoint(who, receiver.url, ['payout.failed']);
        const start = receiver.received.length;
        const event = await raise(t, who.accountId, 'payout.failed', 'po_failed');
        await receiver.waitFor(start + 1, 5000);
        assert.equal(receiver.received[start]!.headers['event-id'], event.id);
        await until(async () => (await states(t, who.accountId)).acknowledged === 1, 5000, 'acknowledgement');
      } finally {
        await t.close();
      }
    });

    it('kill -9 a worker with deliveries in flight, start another: every event acknowledged, none lost', async () => {
      const t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      const workers: ChildProcess[] = [];
      try {
        const who = await tenant(t);
        const slow = await startReceiver();
        try {
          slow.answer = () => ({ status: 204, delayMs: 400 });
          await registerEndpoint(who, slow.url, ['invoice.settled']);
          const events = new Set<string>();
          for (let i = 0; i < 60; i++) events.add((await raise(t, who.accountId, 'invoice.settled', `inv_${i}`)).id);
          workers.push(await startWorker(t.config.databaseUrl, t.config.dataDir));
          await slow.waitFor(5, 15_000);
          workers[0]!.kill('SIGKILL');
          await new Promise((r) => workers[0]!.once('exit', r));
          const pendingAtKill = (await states(t, who.accountId)).pending ?? 0;
          assert.ok(pendingAtKill > 0, 'the kill left deliveries unfinished');
          workers.push(await startWorker(t.config.databaseUrl, t.config.dataDir));
          await until(async () => (await states(t, who.accountId)).acknowledged === 60, 30_000, 'every delivery acknowledged');
          const deliveredEvents = new Set(slow.received.map((r) => String(r.headers['event-id'])));
          assert.deepEqual([...deliveredEvents].sort(), [...events].sort());
          const deliveryIds = slow.received.map((r) => r.headers['delivery-id']);
          assert.equal(new Set(deliveryIds).size, deliveryIds.length, 'every attempt has its own Delivery-Id');
        } finally {
          await slow.close();
        }
      } finally {
        for (const w of workers) await stopWorker(w);
        await t.close();
      }
    });

    if (target.kind === 'postgres') {
      it('two workers on one PostgreSQL never deliver the same attempt twice at once', async () => {
        const t = await startTestApp(target, { env: ALLOW_LOOPBACK });
        const workers: ChildProcess[] = [];
        const shared = await startReceiver();
        try {
          shared.answer = () => ({ status: 204, delayMs: 15 });
          const who = await tenant(t);
          await registerEndpoint(who, shared.url, ['payout.paid']);
          workers.push(await startWorker(t.config.databaseUrl, t.config.dataDir), await startWorker(t.config.databaseUrl, t.config.dataDir));
          const events: string[] = [];
          for (let i = 0; i < 300; i++) events.push((await raise(t, who.accountId, 'payout.paid', `po_${i}`)).id);
          await until(async () => (await states(t, who.accountId)).acknowledged === 300, 30_000, 'every delivery acknowledged');
          assert.equal(shared.overlaps, 0, 'no event was being delivered by two workers at once');
          assert.equal(shared.received.length, 300, 'each event delivered exactly once');
          assert.deepEqual(new Set(shared.received.map((r) => r.headers['event-id'])), new Set(events));
          const attempts = await t.gatehouse.database.db.selectFrom('webhook_attempts').select('id').where('account_id', '=', who.accountId).execute();
          assert.equal(attempts.length, 300);
        } finally {
          for (const w of workers) await stopWorker(w);
          await shared.close();
          await t.close();
        }
      });
    }
  });
}
