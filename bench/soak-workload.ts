/**
 * The soak's clients: one account with an OAuth client (client credentials), a SCIM token and a
 * webhook endpoint; each worker runs a fixed cycle of twenty requests, so every kind of request
 * keeps its share for the whole run.
 */
import { randomUUID } from 'node:crypto';

export interface Tally {
  requests: number;
  /** Answers other than the expected ones, and requests that got no answer. */
  errors: number;
  /** Payouts refused for insufficient funds: a correct answer, counted apart. */
  refused: number;
  latencies: number[];
  byOperation: Record<string, number>;
  firstErrors: string[];
}

const SCOPE = 'invoices:read invoices:write payouts:read payouts:write ledger:read webhooks:manage';
const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

// Answers are walked loosely; what matters is checked by status.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

interface Call {
  method: string;
  path: string;
  token: string;
  body?: unknown;
  key?: string;
  scim?: boolean;
  form?: string;
  basic?: string;
}

export async function createSoakClient(deps: { url: string; adminUrl: string; adminToken: string; receiverUrl: string; tally: Tally }) {
  const { url, tally } = deps;

  async function admin(path: string, body: unknown): Promise<Record<string, string>> {
    const response = await fetch(deps.adminUrl + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${deps.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, string>;
  }

  /** One request, timed and checked against the answers it may get. */
  async function call(operation: string, request: Call, expected: number[]): Promise<{ status: number; body: Body; replayed: boolean }> {
    const headers: Record<string, string> = {};
    if (request.basic) headers.authorization = request.basic;
    else headers.authorization = `Bearer ${request.token}`;
    if (request.key) headers['idempotency-key'] = request.key;
    if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    else if (request.body !== undefined) headers['content-type'] = request.scim ? 'application/scim+json' : 'application/json';
    const started = performance.now();
    tally.requests++;
    tally.byOperation[operation] = (tally.byOperation[operation] ?? 0) + 1;
    try {
      const response = await fetch(url + request.path, {
        method: request.method,
        headers,
        body: request.form ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      tally.latencies.push(performance.now() - started);
      const body = text ? JSON.parse(text) : undefined;
      if (!expected.includes(response.status)) fail(`${operation}: ${request.method} ${request.path} → ${response.status} ${text.slice(0, 200)}`);
      return { status: response.status, body, replayed: response.headers.get('idempotent-replay') === 'true' };
    } catch (error) {
      fail(`${operation}: ${request.method} ${request.path} → ${(error as Error).message}`);
      return { status: 0, body: undefined, replayed: false };
    }
  }

  function fail(message: string): void {
    tally.errors++;
    if (tally.firstErrors.length < 10) tally.firstErrors.push(message);
  }

  const account = await admin('/admin/v1/accounts', { name: 'Soak' });
  const oauthClient = await admin(`/admin/v1/accounts/${account.id}/clients`, { grant_types: ['client_credentials'], scope: SCOPE });
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(oauthClient.client_id!)}:${encodeURIComponent(oauthClient.client_secret!)}`).toString('base64')}`;
  const scimToken = (await admin(`/admin/v1/accounts/${account.id}/scim-tokens`, { description: 'Soak directory' })).token!;

  async function token(): Promise<string> {
    const answer = await call('token', { method: 'POST', path: '/token', token: '', basic, form: `grant_type=client_credentials&scope=${encodeURIComponent(SCOPE)}` }, [200]);
    return answer.body?.access_token ?? '';
  }

  const setupToken = await token();
  const endpoint = await call(
    'register webhook endpoint',
    { method: 'POST', path: '/v1/webhook_endpoints', token: setupToken, key: randomUUID(), body: { url: deps.receiverUrl, event_types: ['invoice.settled', 'payout.created', 'payout.paid', 'payout.failed'] } },
    [201],
  );
  if (endpoint.status !== 201) throw new Error(`could not register the webhook endpoint: ${tally.firstErrors.join('; ')}`);

  async function fund(bearer: string): Promise<void> {
    const created = await call('create invoice', { method: 'POST', path: '/v1/invoices', token: bearer, key: randomUUID(), body: { amount: 10_000 + Math.floor(Math.random() * 40_000), currency: 'EUR' } }, [201]);
    if (created.status === 201) await call('settle invoice', { method: 'POST', path: `/v1/invoices/${created.body.id}/settle`, token: bearer, key: randomUUID() }, [200]);
  }

  async function readPages(bearer: string, collection: string): Promise<void> {
    let after: string | null = null;
    for (let page = 0; page < 3; page++) {
      const query: string = `?limit=50${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const answer = await call(`list ${collection}`, { method: 'GET', path: `/v1/${collection}${query}`, token: bearer }, [200]);
      after = answer.body?.next_cursor ?? null;
      if (!after) return;
    }
  }

  return {
    /** Runs the cycle until `stopAt` (epoch ms). */
    async work(worker: number, stopAt: number): Promise<void> {
      let bearer = await token();
      let lastPayout: { key: string; body: unknown } | undefined;
      const users: Array<{ id: string; userName: string }> = [];
      await fund(bearer);
      for (let step = 0; Date.now() < stopAt; step++) {
        switch (step % 20) {
          case 0: case 1: case 2:
            await readPages(bearer, 'invoices');
            break;
          case 3:
            await readPages(bearer, 'payouts');
            break;
          case 4: case 5:
            await readPages(bearer, 'ledger/entries');
            break;
          case 6: case 7:
            await fund(bearer);
            break;
          case 8: case 9: case 10: {
            const key = randomUUID();
            const body = { amount: 1 + Math.floor(Math.random() * 500), currency: 'EUR', destination: step % 60 === 8 ? 'test_fail_soak' : `acct_soak_${worker}` };
            const answer = await call('create payout', { method: 'POST', path: '/v1/payouts', token: bearer, key, body }, [201, 422]);
            if (answer.status === 422) tally.refused++;
            lastPayout = { key, body };
            break;
          }
          case 11:
            if (lastPayout) {
              const replay = await call('replay payout', { method: 'POST', path: '/v1/payouts', token: bearer, key: lastPayout.key, body: lastPayout.body }, [201, 422]);
              if (!replay.replayed && replay.status !== 0) fail('a replayed payout lacked Idempotent-Replay');
            }
            break;
          case 12: case 13: case 14: {
            const userName = `soak-${worker}-${step}-${randomUUID().slice(0, 8)}@example.com`;
            const created = await call('SCIM create user', { method: 'POST', path: '/scim/v2/Users', token: scimToken, scim: true, body: { schemas: [SCIM_USER], userName, externalId: randomUUID(), name: { givenName: 'Soak', familyName: `Worker ${worker}` }, emails: [{ value: userName, type: 'work', primary: true }] } }, [201]);
            if (created.status === 201) users.push({ id: created.body.id, userName });
            // Keeps what the worker remembers bounded; the directory itself keeps growing.
            if (users.length > 200) users.shift();
            break;
          }
          case 15: case 16: {
            const user = users[step % Math.max(1, users.length)];
            if (user) await call('SCIM update user', { method: 'PATCH', path: `/scim/v2/Users/${user.id}`, token: scimToken, scim: true, body: { schemas: [SCIM_PATCH], Operations: [{ op: 'replace', path: 'name.givenName', value: `Step ${step}` }] } }, [200]);
            break;
          }
          case 17: case 18: {
            const user = users[(step * 7) % Math.max(1, users.length)];
            if (user) await call('SCIM filter', { method: 'GET', path: `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`, token: scimToken }, [200]);
            break;
          }
          case 19:
            // A fresh token now and then, as clients do when their cached token nears expiry.
            if (step % 300 === 19) bearer = await token();
            else await call('token', { method: 'POST', path: '/token', token: '', basic, form: 'grant_type=client_credentials&scope=invoices%3Aread' }, [200]);
            break;
        }
      }
    },
  };
}
