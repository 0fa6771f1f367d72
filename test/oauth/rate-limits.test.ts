import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { basic, postForm, registerClient } from './helpers.ts';

const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const [target] = databaseTargets();

describe('rate limits', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target!, { env: { GATEHOUSE_RATE_LIMIT_TOKEN: '3/60', GATEHOUSE_RATE_LIMIT_API: '2/60' } });
  });
  after(() => t.close());

  it('/token: over the limit → 429 in the OAuth shape with Retry-After and RateLimit headers', async () => {
    const accountId = await createAccount(t);
    const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
    const request = () => postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id, reg.client_secret) });
    const first = await request();
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-limit'), '3');
    assert.equal(first.headers.get('ratelimit-remaining'), '2');
    assert.equal(first.headers.get('ratelimit-policy'), '3;w=60');
    await request();
    await request();
    const limited = await request();
    assert.equal(limited.status, 429);
    assert.equal(limited.body.error, 'rate_limited');
    assert.equal(limited.headers.get('cache-control'), 'no-store');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1 && Number(limited.headers.get('retry-after')) <= 60);
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
  });

  it('/v1 and /scim: per credential; over the limit → 429 problem+json with Retry-After', async () => {
    const get = (token: string) => fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${token}` } });
    const a = `gh_at_${randomBytes(16).toString('hex')}`;
    const b = `gh_at_${randomBytes(16).toString('hex')}`;
    assert.notEqual((await get(a)).status, 429);
    assert.notEqual((await get(a)).status, 429);
    const limited = await get(a);
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal((await json(limited)).code, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.notEqual((await get(b)).status, 429, 'another credential has its own budget');
    const scim = await fetch(`${t.publicUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${a}` } });
    assert.equal(scim.status, 429);
  });

  it('GATEHOUSE_RATE_LIMITS=off turns every limit off', async () => {
    const off = await startTestApp(target!, { env: { GATEHOUSE_RATE_LIMITS: 'off', GATEHOUSE_RATE_LIMIT_API: '1/60' } });
    try {
      for (let i = 0; i < 5; i++) {
        const response = await fetch(`${off.publicUrl}/v1/invoices`);
        assert.notEqual(response.status, 429);
        assert.equal(response.headers.get('ratelimit-limit'), null);
      }
    } finally {
      await off.close();
    }
  });

  it('with Redis the limit holds across nodes; with Redis unreachable it falls back to in-process and says so', async () => {
    const env = { GATEHOUSE_REDIS_URL: REDIS_URL, GATEHOUSE_RATE_LIMIT_API: '2/60' };
    const one = await startTestApp(target!, { env });
    const two = await startTestApp(target!, { env });
    const down = await startTestApp(target!, { env: { GATEHOUSE_REDIS_URL: 'redis://127.0.0.1:1', GATEHOUSE_RATE_LIMIT_API: '1/60' } });
    try {
      const token = `gh_at_${randomBytes(16).toString('hex')}`;
      const headers = { authorization: `Bearer ${token}` };
      assert.notEqual((await fetch(`${one.publicUrl}/v1/invoices`, { headers })).status, 429);
      assert.notEqual((await fetch(`${two.publicUrl}/v1/invoices`, { headers })).status, 429);
      assert.equal((await fetch(`${one.publicUrl}/v1/invoices`, { headers })).status, 429, 'the third request is over the shared limit');

      assert.notEqual((await fetch(`${down.publicUrl}/v1/invoices`, { headers })).status, 429);
      assert.equal((await fetch(`${down.publicUrl}/v1/invoices`, { headers })).status, 429, 'still limited in-process');
      assert.ok(down.logs.some((line) => line.includes('Redis unreachable')));
    } finally {
      await Promise.all([one.close(), two.close(), down.close()]);
    }
  });
});
