/**
 * Rate limits when Redis stops answering without going away (a frozen process: SIGSTOP, its
 * connections open and silent), on a Redis the suite starts for itself. API and /token
 * requests are answered within a second throughout: a command unanswered after
 * GATEHOUSE_REDIS_TIMEOUT fails, the in-process limiter counts from then on, and limits go back
 * to Redis once it answers again. Runs wherever redis-server is installed (skipped, saying so,
 * elsewhere).
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { redisServerMissing, startThrowawayRedis, type ThrowawayRedis } from '../helpers/throwaway-redis.ts';
import { until } from '../helpers/until.ts';
import { newTenant } from '../payments/api.ts';

const skip = redisServerMissing() ?? false;

async function storeInUse(t: TestApp): Promise<string> {
  const text = await (await fetch(`${t.adminUrl}/metrics`)).text();
  return /^gatehouse_rate_limit_store\{store="redis"\} 1$/m.test(text) ? 'redis' : 'local';
}

/** A request answered within a second (aborted otherwise): its status and how long it took. */
async function timed(url: string, init: RequestInit): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(1000) });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

for (const target of databaseTargets()) {
  describe(`rate limits: Redis frozen (${target.kind})`, { skip }, () => {
    let redis: ThrowawayRedis;
    let t: TestApp;
    before(async () => {
      redis = await startThrowawayRedis();
      t = await startTestApp(target, {
        // Far above what two seconds of traffic can reach (a fast runtime sends over a thousand):
        // this is about answering while Redis is away, not about the limit itself.
        env: { GATEHOUSE_REDIS_URL: redis.url, GATEHOUSE_RATE_LIMIT_API: '100000/60', GATEHOUSE_RATE_LIMIT_TOKEN: '100000/60' },
      });
    });
    after(async () => {
      await t?.close();
      await redis?.close();
    });

    it('API and /token requests are answered within a second while Redis is frozen, counted in-process; then in Redis again', async (context: TestContext) => {
      const { accountId, token } = await newTenant(t);
      const created = await t.admin('POST', `/admin/v1/accounts/${accountId}/clients`, {
        client_name: 'Frozen Redis',
        grant_types: ['client_credentials'],
        scope: 'invoices:read',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const basic = `Basic ${Buffer.from(`${created.body.client_id}:${created.body.client_secret}`).toString('base64')}`;
      const apiCall = () => timed(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${token}` } });
      const tokenCall = () =>
        timed(`${t.publicUrl}/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
          body: 'grant_type=client_credentials',
        });
      assert.equal(await storeInUse(t), 'redis');
      const before = await apiCall();
      assert.equal(before.status, 200);

      redis.freeze();
      const frozenAt = performance.now();
      const answers: Array<{ status: number; ms: number }> = [];
      // Two seconds of traffic, a few requests at once, each bounded by its own one-second abort.
      while (performance.now() - frozenAt < 2000) {
        answers.push(...(await Promise.all([apiCall(), apiCall(), tokenCall()])));
      }
      assert.deepEqual([...new Set(answers.map((a) => a.status))], [200], 'every request served');
      const slowest = Math.max(...answers.map((a) => a.ms));
      const median = answers.map((a) => a.ms).sort((a, b) => a - b)[Math.floor(answers.length / 2)]!;
      context.diagnostic(`Redis frozen: ${answers.length} requests, median ${Math.round(median)} ms, slowest ${Math.round(slowest)} ms`);
      assert.ok(slowest < 1000, `slowest request while frozen: ${Math.round(slowest)} ms`);
      assert.equal(await storeInUse(t), 'local');
      assert.ok(t.logs.some((l) => l.includes('Redis unreachable, counting in-process')), 'the fall-back is logged');
      // Still limiting: the in-process counter counts what Redis no longer does.
      const remaining = Number((await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${token}` } })).headers.get('ratelimit-remaining'));
      assert.ok(remaining < 100000, `in-process remaining: ${remaining}`);

      redis.thaw();
      const thawedAt = performance.now();
      await until(async () => (await storeInUse(t)) === 'redis', 5000, 'limits counted in Redis again');
      context.diagnostic(`Redis thawed: counting in Redis again after ${Math.round(performance.now() - thawedAt)} ms`);
      assert.ok(t.logs.some((l) => l.includes('Redis reachable again')), 'the return is logged');
      assert.equal((await apiCall()).status, 200);
    });
  });
}
