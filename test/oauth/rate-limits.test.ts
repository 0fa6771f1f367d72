import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { Browser, authorizePath, basic, createUser, postForm, registerClient, signIn } from './helpers.ts';

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

  it('/v1 and /scim: per client, however many tokens it holds; over the limit → 429 problem+json with Retry-After', async () => {
    const accountId = await createAccount(t);
    const tokenOf = async (reg: { client_id: string; client_secret: string }) =>
      (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id, reg.client_secret) })).body.access_token as string;
    const books = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read ledger:read' });
    const other = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
    const get = (token: string) => fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${token}` } });
    // Three tokens of one client (its /token budget here is 3).
    const [a, b, c] = [await tokenOf(books), await tokenOf(books), await tokenOf(books)];
    assert.ok(a && b && c && new Set([a, b, c]).size === 3);
    const first = await get(a);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('ratelimit-remaining'), '1');
    assert.equal((await get(b)).status, 200, 'a second token of the client: the same budget');
    const limited = await get(c);
    assert.equal(limited.status, 429, 'a third token does not buy more');
    assert.match(limited.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal((await json(limited)).code, 'rate_limited');
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.equal((await get(await tokenOf(other))).status, 200, 'another client has its own budget');
    const ledger = await fetch(`${t.publicUrl}/v1/ledger/entries`, { headers: { authorization: `Bearer ${a}` } });
    assert.equal(ledger.status, 429, 'one budget for every route');
  });

  it('/v1 and /scim: made-up tokens, each with a budget of its own, are counted against their address; past it, even a valid token from there waits', async () => {
    const limited = await startTestApp(target!, { env: { GATEHOUSE_RATE_LIMIT_API_FAILURES: '5/60' } });
    try {
      const accountId = await createAccount(limited);
      const reg = await registerClient(limited, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const issued = await postForm(`${limited.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id, reg.client_secret) });
      const valid = issued.body.access_token as string;
      const get = (path: string, token: string) => fetch(`${limited.publicUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await get('/v1/invoices', valid)).status, 200);
      const statuses: number[] = [];
      const madeUp = () => `gh_at_${randomBytes(16).toString('hex')}`;
      for (let i = 0; i < 4; i++) statuses.push((await get(i % 2 ? '/scim/v2/Users' : '/v1/invoices', madeUp())).status);
      // A valid token without the route's scope is refused too, and counted with them.
      statuses.push((await get('/v1/payouts', valid)).status);
      for (let i = 0; i < 2; i++) statuses.push((await get('/v1/invoices', madeUp())).status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 403, 429, 429], 'five refusals, then refused before the token is looked at');
      const refused = await get('/v1/invoices', valid);
      assert.equal(refused.status, 429);
      const body = await json(refused);
      assert.equal(body.code, 'rate_limited');
      assert.match(body.detail, /refused for their credentials/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      const token = await postForm(`${limited.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id, reg.client_secret) });
      assert.equal(token.status, 200, 'the token endpoint counts its own failures');
    } finally {
      await limited.close();
    }
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
    // Counted by address, which both nodes see alike: refusals of made-up tokens.
    // A prefix of this run's own: the counts of an earlier run stay in Redis for their window.
    const env = { GATEHOUSE_REDIS_URL: REDIS_URL, GATEHOUSE_REDIS_KEY_PREFIX: `gatehouse-test-${randomBytes(4).toString('hex')}:`, GATEHOUSE_RATE_LIMIT_API_FAILURES: '3/60' };
    const one = await startTestApp(target!, { env });
    const two = await startTestApp(target!, { env });
    const down = await startTestApp(target!, { env: { GATEHOUSE_REDIS_URL: 'redis://127.0.0.1:1', GATEHOUSE_RATE_LIMIT_API_FAILURES: '1/60' } });
    try {
      const madeUp = () => ({ authorization: `Bearer gh_at_${randomBytes(16).toString('hex')}` });
      const statuses = [];
      for (const node of [one, two, one, one]) statuses.push((await fetch(`${node.publicUrl}/v1/invoices`, { headers: madeUp() })).status);
      assert.deepEqual(statuses, [401, 401, 401, 429], 'the third refusal, on either node, spends the shared budget');

      assert.equal((await fetch(`${down.publicUrl}/v1/invoices`, { headers: madeUp() })).status, 401);
      assert.equal((await fetch(`${down.publicUrl}/v1/invoices`, { headers: madeUp() })).status, 429, 'still limited in-process');
      assert.ok(down.logs.some((line) => line.includes('Redis unreachable')));
    } finally {
      await Promise.all([one.close(), two.close(), down.close()]);
    }
  });
});

describe('rate limits in Redis', () => {
  it('sign-in attempts are counted by a digest of the userName: what was typed there (sometimes a password) is in no key', async () => {
    const app = await startTestApp(target!, { env: { GATEHOUSE_REDIS_URL: REDIS_URL } });
    const redis = new Redis(REDIS_URL);
    try {
      const accountId = await createAccount(app);
      const client = await registerClient(app, accountId, { redirect_uris: ['https://app.example/cb'], scope: 'invoices:read' });
      const typed = `Typed-${randomBytes(6).toString('hex')}-Pa55word!`;
      const browser = new Browser(app.publicUrl);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: 'https://app.example/cb', scope: 'invoices:read', state: 's' }));
      assert.equal((await signIn(browser, page, typed, 'anything')).status, 401);
      const keys = await redis.keys('*');
      assert.ok(keys.some((key) => key.includes(accountId)), 'the attempt was counted in Redis');
      assert.ok(!keys.some((key) => key.toLowerCase().includes(typed.toLowerCase())), 'nor is it there in clear');
    } finally {
      redis.disconnect();
      await app.close();
    }
  });
});

/** HTTP Basic exactly as given: the user part is not form-encoded by this helper. */
const basicAs = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
/** Another spelling of the same id (RFC 6749 §2.3.1 form-encoding): its `at`-th character percent-encoded. */
const spelledWith = (id: string, at: number) => `${id.slice(0, at)}%${id.charCodeAt(at).toString(16).toUpperCase()}${id.slice(at + 1)}`;

for (const target of databaseTargets()) {
  describe(`rate limits of client authentication and sign-in (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    before(async () => {
      t = await startTestApp(target, {
        env: {
          GATEHOUSE_RATE_LIMIT_TOKEN: '3/60',
          GATEHOUSE_RATE_LIMIT_TOKEN_FAILURES: '5/60',
          GATEHOUSE_RATE_LIMIT_SIGNIN_ADDRESS: '3/300',
          GATEHOUSE_TRUSTED_PROXIES: '127.0.0.0/8,::1/128',
        },
      });
      accountId = await createAccount(t);
    });
    after(() => t.close());

    const tokenFrom = (address: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
      postForm(`${t.publicUrl}/token`, form, { 'x-forwarded-for': address, ...headers });

    it('a stranger flooding wrong secrets for a client, from many addresses and spellings of its id, turns its own failures into 429; the client’s correct requests still get tokens, from a budget the flood never touched', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const id = i % 2 === 0 ? reg.client_id : spelledWith(reg.client_id, i);
        const response = await tokenFrom(`198.51.100.${i + 1}`, { grant_type: 'client_credentials' }, { authorization: basicAs(id, 'gh_cs_wrong') });
        statuses.push(response.status);
        assert.equal(response.body.access_token, undefined);
        if (response.status === 429) {
          assert.equal(response.body.error, 'rate_limited');
          assert.ok(Number(response.headers.get('retry-after')) >= 1);
        }
      }
      assert.deepEqual(statuses, [401, 401, 401, 401, 401, 429, 429, 429], 'every spelling counts against the one claimed client');

      const own = (id: string) => tokenFrom('203.0.113.9', { grant_type: 'client_credentials' }, { authorization: basicAs(id, reg.client_secret) });
      const first = await own(reg.client_id);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get('ratelimit-limit'), '3');
      assert.equal(first.headers.get('ratelimit-remaining'), '2', 'the failures spent none of the client’s budget');
      const respelled = await own(spelledWith(reg.client_id, 3));
      assert.equal(respelled.status, 200);
      assert.equal(respelled.headers.get('ratelimit-remaining'), '1', 'one budget, however the id is spelled');
      assert.equal((await own(reg.client_id)).status, 200);
      const spent = await own(spelledWith(reg.client_id, 5));
      assert.equal(spent.status, 429);
      assert.equal(spent.body.error, 'rate_limited');
    });

    it('an address that keeps failing is refused before its credentials are checked, even the right ones; the client from another address is not', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const guesser = '198.51.100.200';
      for (let i = 0; i < 5; i++) {
        const guess = await tokenFrom(guesser, { grant_type: 'client_credentials', client_id: `client_unknown_${i}`, client_secret: 'gh_cs_guess' });
        assert.equal(guess.status, 401);
        assert.equal(guess.body.error, 'invalid_client');
      }
      const right = await tokenFrom(guesser, { grant_type: 'client_credentials' }, { authorization: basicAs(reg.client_id, reg.client_secret) });
      assert.equal(right.status, 429, 'past its failures the address gets no answer about any secret');
      assert.equal(right.body.error, 'rate_limited');
      assert.equal(right.body.access_token, undefined);
      const elsewhere = await tokenFrom('203.0.113.10', { grant_type: 'client_credentials' }, { authorization: basicAs(reg.client_id, reg.client_secret) });
      assert.equal(elsewhere.status, 200);
    });

    it('a public client proves nothing, so its budget is per address: strangers naming it spend only their own', async () => {
      const app = await registerClient(t, accountId, { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none', scope: 'invoices:read' });
      const redeem = (address: string) => tokenFrom(address, { grant_type: 'authorization_code', client_id: app.client_id, code: 'gh_ac_made_up', redirect_uri: 'https://app.example/cb', code_verifier: 'v'.repeat(43) });
      for (let i = 0; i < 3; i++) assert.equal((await redeem('198.51.100.50')).body.error, 'invalid_grant');
      assert.equal((await redeem('198.51.100.50')).status, 429);
      const someoneElse = await redeem('203.0.113.50');
      assert.equal(someoneElse.status, 400);
      assert.equal(someoneElse.body.error, 'invalid_grant');
      assert.equal(someoneElse.headers.get('ratelimit-remaining'), '2');
    });

    it('sign-in: failures from one address on account A do not hold sign-in on account B back; successful sign-ins are not counted against the address', async () => {
      const a = await createAccount(t, 'A');
      const b = await createAccount(t, 'B');
      const clients = await Promise.all([a, b].map((id) => registerClient(t, id, { redirect_uris: ['https://app.example/cb'], scope: 'invoices:read' })));
      await createUser(t, a, 'ann', 'ann’s password');
      await createUser(t, b, 'bob', 'bob’s password');
      const signInAt = async (clientId: string, userName: string, password: string) => {
        const browser = new Browser(t.publicUrl);
        const page = await browser.get(authorizePath({ response_type: 'code', client_id: clientId, redirect_uri: 'https://app.example/cb', scope: 'invoices:read', state: 's' }));
        return signIn(browser, page, userName, password);
      };

      for (const name of ['x1', 'x2', 'x3']) assert.equal((await signInAt(clients[0]!.client_id, name, 'guess')).status, 401);
      const held = await signInAt(clients[0]!.client_id, 'ann', 'ann’s password');
      assert.equal(held.status, 429, 'the address is past its failures on account A');
      assert.equal(held.headers.get('ratelimit-limit'), '3');
      assert.match(held.html, /Too many sign-in attempts/);

      for (let i = 0; i < 4; i++) {
        const signedIn = await signInAt(clients[1]!.client_id, 'bob', 'bob’s password');
        assert.equal(signedIn.status, 200, `sign-in ${i + 1} on account B`);
        assert.match(signedIn.html, /action="\/authorize\/consent"/);
      }
      assert.equal((await signInAt(clients[1]!.client_id, 'bob', 'wrong')).status, 401, 'account B counts its own failures from zero');
    });
  });
}
