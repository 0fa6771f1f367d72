/**
 * Guessing the admin token is limited per address (GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES): past the
 * refusals an address is allowed, it is answered 429 before its token is compared, the right one
 * included, for the rest of the window; another address is not held back. The address is the
 * connection's: the admin listener believes no X-Forwarded-For, even from a trusted proxy, so a
 * process beside that proxy cannot pose as many addresses. Requests come from loopback addresses of
 * their own (127.0.0.0/8 is all loopback).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { databaseTargets, describeIf } from '../helpers/databases.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';

/** Loopback peers trusted as proxies: for the public listener; the admin listener must not care. */
const BEHIND_A_PROXY = { GATEHOUSE_TRUSTED_PROXIES: '127.0.0.0/8' };

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** An admin API request made from the loopback address `from`, claiming another in X-Forwarded-For. */
function adminFrom(t: TestApp, from: string, request: { method: string; path: string; token: string; body?: unknown }): Promise<Answer> {
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const sent = http.request(
      `${t.adminUrl}${request.path}`,
      {
        method: request.method,
        localAddress: from,
        headers: {
          authorization: `Bearer ${request.token}`,
          'x-forwarded-for': `198.18.${randomBytes(1)[0]}.${randomBytes(1)[0]}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) }));
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/** POST /admin/v1/accounts from `address` with `token`: a write, so that a refusal that let it through would show. */
function createFrom(t: TestApp, address: string, token: string, name: string): Promise<Answer> {
  return adminFrom(t, address, { method: 'POST', path: '/admin/v1/accounts', token, body: { name } });
}

async function accountsNamed(t: TestApp, name: string): Promise<number> {
  return (await t.gatehouse.database.db.selectFrom('accounts').select('id').where('name', '=', name).execute()).length;
}

function refusalLines(t: TestApp, ip: string) {
  return t.logs
    .join('')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.event === 'admin.authentication_failed' && line.ip === ip);
}

for (const target of databaseTargets()) {
  describe(`admin API: failed authentication is limited per address (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { ...BEHIND_A_PROXY, GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES: '3/60' } });
    });
    after(() => t.close());

    it('after 3 refusals the 4th request from that address is 429 problem+json with Retry-After, even with the right token, and writes nothing', async () => {
      const guesser = '127.0.0.7';
      for (let i = 0; i < 3; i++) {
        const refused = await createFrom(t, guesser, `guess-${i}-${randomBytes(8).toString('hex')}`, 'Guessed');
        assert.equal(refused.status, 401, `guess ${i + 1}`);
        assert.equal(refused.body.code, 'admin_unauthorized');
      }
      const limited = await createFrom(t, guesser, TEST_ADMIN_TOKEN, 'Right token, limited address');
      assert.equal(limited.status, 429);
      assert.match(limited.headers['content-type'] ?? '', /^application\/problem\+json/);
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      assert.equal(limited.headers['ratelimit-policy'], '3;w=60');
      const body = limited.body;
      assert.equal(body.code, 'rate_limited');
      assert.equal(body.status, 429);
      assert.match(String(body.detail), /refused for their admin token; retry after \d+ s/);
      assert.equal(await accountsNamed(t, 'Right token, limited address'), 0, 'the request was refused before it was handled');
      assert.equal(await accountsNamed(t, 'Guessed'), 0);

      // Refused before the token is compared: more guesses leave no line, and no answer tells a right guess from a wrong one.
      const more = await createFrom(t, guesser, 'yet-another-guess', 'Guessed');
      assert.equal(more.status, 429);
      assert.deepEqual(
        refusalLines(t, guesser).map((line) => [line.level, line.token_given]),
        [['warn', true], ['warn', true], ['warn', true]],
      );
      // Every admin route is behind the same limit, reads included.
      const read = await adminFrom(t, guesser, { method: 'GET', path: '/admin/v1/accounts', token: TEST_ADMIN_TOKEN });
      assert.equal(read.status, 429);
    });

    it('another address is not held back: its right token works, its wrong one is 401', async () => {
      const operator = '127.0.0.9';
      const created = await createFrom(t, operator, TEST_ADMIN_TOKEN, 'From the operator');
      assert.equal(created.status, 201);
      assert.equal(created.body.name, 'From the operator');
      assert.equal(await accountsNamed(t, 'From the operator'), 1);
      const wrong = await createFrom(t, operator, 'a-typo', 'Typo');
      assert.equal(wrong.status, 401);
      assert.equal(await accountsNamed(t, 'Typo'), 0);
    });

    it('the operator’s own requests never spend the budget', async () => {
      const operator = '127.0.0.10';
      for (let i = 0; i < 5; i++) {
        const listed = await adminFrom(t, operator, { method: 'GET', path: '/admin/v1/accounts', token: TEST_ADMIN_TOKEN });
        assert.equal(listed.status, 200);
      }
      for (let i = 0; i < 2; i++) assert.equal((await createFrom(t, operator, 'wrong', 'Wrong')).status, 401);
      assert.equal((await createFrom(t, operator, TEST_ADMIN_TOKEN, 'Still allowed')).status, 201);
      assert.equal(await accountsNamed(t, 'Still allowed'), 1);
    });
  });
}

const [first] = databaseTargets();

describe('admin API failure limit: GATEHOUSE_RATE_LIMITS=off', () => {
  it('turns it off with the others: every wrong token is 401, and the right one still works', async () => {
    const off = await startTestApp(first!, { env: { ...BEHIND_A_PROXY, GATEHOUSE_RATE_LIMITS: 'off', GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES: '1/60' } });
    try {
      for (let i = 0; i < 4; i++) {
        const refused = await createFrom(off, '127.0.0.8', 'wrong', 'Never');
        assert.equal(refused.status, 401);
      }
      assert.equal((await createFrom(off, '127.0.0.8', TEST_ADMIN_TOKEN, 'Unlimited')).status, 201);
      assert.equal(await accountsNamed(off, 'Unlimited'), 1);
    } finally {
      await off.close();
    }
  });
});

describeIf(process.env.GATEHOUSE_TEST_REDIS_URL, 'set GATEHOUSE_TEST_REDIS_URL to run with Redis', 'admin API failure limit in Redis', (redisUrl) => {
  it('holds across nodes: refusals counted on one node close the address on the other', async () => {
    // A prefix of this run's own: the counts of an earlier run stay in Redis for their window.
    // A generous Redis timeout: a command slowed past the default by a busy machine would switch a
    // node to counting in-process (the fallback redis-freeze.test.ts proves), which is not what this shows.
    const env = {
      ...BEHIND_A_PROXY,
      GATEHOUSE_REDIS_URL: redisUrl,
      GATEHOUSE_REDIS_KEY_PREFIX: `gatehouse-test-${randomBytes(4).toString('hex')}:`,
      GATEHOUSE_REDIS_TIMEOUT: '5000',
      GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES: '3/60',
    };
    const one = await startTestApp(first!, { env });
    const two = await startTestApp(first!, { env });
    try {
      assert.equal(one.gatehouse.services.rateLimits.store(), 'redis');
      const statuses: number[] = [];
      for (const node of [one, two, one]) {
        const refused = await createFrom(node, '127.0.0.11', 'wrong', 'Never');
        statuses.push(refused.status);
      }
      // The third refusal spent the shared budget on `one`; `two` learns of it from Redis at its next refusal.
      const onTwo = await createFrom(two, '127.0.0.11', 'wrong', 'Never');
      statuses.push(onTwo.status);
      const rightOnTwo = await createFrom(two, '127.0.0.11', TEST_ADMIN_TOKEN, 'Shared limit');
      statuses.push(rightOnTwo.status);
      assert.deepEqual(statuses, [401, 401, 401, 401, 429]);
      assert.equal(await accountsNamed(two, 'Shared limit'), 0);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
