/**
 * Rate limits when Redis goes away: the node keeps serving, counts in-process (the limits
 * still hold, per node), says so in its log and in `gatehouse_rate_limit_store`, and goes back
 * to counting in Redis once Redis answers again, with no restart. Redis is reached through a
 * TCP proxy the test cuts and restores. Runs when GATEHOUSE_TEST_REDIS_URL is set (reported
 * skipped otherwise).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { databaseTargets, describeIf } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { api, newTenant } from '../payments/api.ts';
import { until } from '../helpers/until.ts';

const redisUrl = process.env.GATEHOUSE_TEST_REDIS_URL;

async function storeInUse(t: TestApp): Promise<string> {
  const text = await (await fetch(`${t.adminUrl}/metrics`)).text();
  return /^gatehouse_rate_limit_store\{store="redis"\} 1$/m.test(text) ? 'redis' : 'local';
}

describeIf(redisUrl, 'set GATEHOUSE_TEST_REDIS_URL to run with Redis', 'operations: Redis goes away and comes back', (redisUrl) => {
  const [sqlite] = databaseTargets();
  let t: TestApp;
  let proxy: TcpProxy;
  let redis: Redis;
  const prefix = `gh_test_${randomBytes(6).toString('hex')}`;
  before(async () => {
    const upstream = new URL(redisUrl);
    proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 6379) });
    const viaProxy = new URL(redisUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    redis = new Redis(redisUrl);
    t = await startTestApp(sqlite!, {
      env: { GATEHOUSE_REDIS_URL: viaProxy.href, GATEHOUSE_REDIS_KEY_PREFIX: prefix, GATEHOUSE_RATE_LIMIT_API: '5/60' },
    });
  });
  after(async () => {
    await proxy.restore().catch(() => {});
    await t.close();
    await proxy.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('counts in Redis; while Redis is unreachable it serves with local limits and says so; then counts in Redis again', async () => {
    const { token } = await newTenant(t);
    assert.equal(await storeInUse(t), 'redis');
    assert.equal(t.gatehouse.services.rateLimits.store(), 'redis', 'as the start-up line says it');
    assert.equal((await api(t, token, 'GET', '/v1/invoices')).status, 200);
    assert.equal((await redis.keys(`${prefix}_api*`)).length, 1, 'the counter lives in Redis');

    await proxy.cut();
    await until(async () => (await storeInUse(t)) === 'local', 10_000, 'the metric reporting the local store');
    assert.equal(t.gatehouse.services.rateLimits.store(), 'in-process');
    assert.ok(t.logs.some((l) => l.includes('Redis unreachable, counting in-process')), 'the fall-back is logged');
    // Still serving, and still limiting: the in-process counter starts afresh and holds at 5.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api(t, token, 'GET', '/v1/invoices')).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);

    await proxy.restore();
    await until(async () => (await storeInUse(t)) === 'redis', 10_000, 'the metric reporting Redis again');
    assert.ok(t.logs.some((l) => l.includes('Redis reachable again')), 'the return is logged');
    const other = await newTenant(t);
    assert.equal((await api(t, other.token, 'GET', '/v1/invoices')).status, 200);
    assert.equal((await redis.keys(`${prefix}_api*`)).length, 2, "the new token's counter is in Redis");
    // The first token's Redis counter was untouched during the outage: 1 used, 4 left.
    const left = await api(t, token, 'GET', '/v1/invoices');
    assert.equal(left.status, 200);
    assert.equal(left.headers.get('ratelimit-remaining'), '3');
  });
});
