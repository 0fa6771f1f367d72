/**
 * Stopping a worker whose receiver hangs: nothing new starts after SIGTERM, the deliveries it
 * claimed and did not start go back to the queue at once (claimable by another worker at
 * that moment, not when their leases run out), and only the attempts in flight finish, within
 * their timeout, so the process exits within an attempt's timeout and the time to record it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { spawnGatehouse } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, raise, registerEndpoint, tenant } from './support.ts';
import { claimDue } from '../../src/webhooks/queue.ts';

const EVENTS = 60;
const CONCURRENCY = 4;
const TIMEOUT_S = 3;

for (const target of databaseTargets()) {
  describe(`webhook worker stop with a hung receiver (${target.kind})`, () => {
    let t: TestApp;
    let hung: Receiver;
    before(async () => {
      t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      hung = await startReceiver();
      hung.answer = () => 'timeout';
    });
    after(async () => {
      await hung?.close();
      await t?.close();
    });

    it('SIGTERM: no attempt starts after it, unstarted deliveries are claimable at once, and the worker exits within an attempt timeout', async (context) => {
      const db = t.gatehouse.database.db;
      const who = await tenant(t);
      const { id: endpointId } = await registerEndpoint(who, hung.url, ['invoice.settled']);
      for (let i = 0; i < EVENTS; i++) await raise(t, who.accountId, 'invoice.settled', `inv_${i}`);
      const worker = await spawnGatehouse({
        databaseUrl: t.config.databaseUrl,
        command: 'worker',
        env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_TIMEOUT: String(TIMEOUT_S), GATEHOUSE_WEBHOOK_CONCURRENCY: String(CONCURRENCY), GATEHOUSE_LOG_LEVEL: 'info' },
      });
      let exitedAfterMs: number | undefined;
      try {
        // The worker holds every delivery: CONCURRENCY in flight at the hung receiver, the rest claimed behind them.
        await hung.waitFor(CONCURRENCY, 20_000);
        await until(
          async () => (await db.selectFrom('webhook_queue').select('delivery_id').where('lease_until', 'is not', null).execute()).length === EVENTS,
          10_000,
          'every delivery claimed',
        );
        assert.equal(hung.received.length, CONCURRENCY);

        const stopped = performance.now();
        worker.child.kill('SIGTERM');
        const exit = await Promise.race([worker.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), (TIMEOUT_S + 10) * 1000))]);
        exitedAfterMs = performance.now() - stopped;
        assert.ok(exit !== undefined, `the worker was still running ${Math.round(exitedAfterMs)} ms after SIGTERM`);
        context.diagnostic(`attempt timeout ${TIMEOUT_S} s: the worker exited ${Math.round(exitedAfterMs)} ms after SIGTERM`);
        assert.equal(exit.code, 0, worker.output());
        assert.ok(exitedAfterMs < (TIMEOUT_S + 3) * 1000, `exited ${Math.round(exitedAfterMs)} ms after SIGTERM`);
        assert.equal(hung.received.length, CONCURRENCY, 'no attempt started after SIGTERM');
        assert.match(worker.output(), new RegExp(`"released":${EVENTS - CONCURRENCY}\\b`));

        // Another worker, at this very moment, claims every delivery that was not attempted.
        const claimed = await claimDue(db, {
          claim: 'wkr_other.1',
          now: Date.now(),
          leaseMs: 60_000,
          max: 1000,
          room: { of: new Map(), otherwise: 1000 },
          skipEndpoints: [],
        });
        assert.equal(claimed.length, EVENTS - CONCURRENCY);
        assert.ok(claimed.every((d) => d.endpointId === endpointId));
        // The attempts in flight finished (timed out) and were recorded; their retry is scheduled, not due.
        const attempts = await db.selectFrom('webhook_attempts').select(['delivery_id', 'error']).where('endpoint_id', '=', endpointId).execute();
        assert.equal(attempts.length, CONCURRENCY);
        assert.ok(attempts.every((a) => a.error?.startsWith('timeout')), JSON.stringify(attempts));
        const attempted = new Set(attempts.map((a) => a.delivery_id));
        assert.deepEqual(claimed.filter((d) => attempted.has(d.id)), [], 'none of the attempted ones is claimable yet');
      } finally {
        if (exitedAfterMs === undefined || worker.child.exitCode === null) worker.child.kill('SIGKILL');
        await worker.exited;
      }
    });
  });
}
