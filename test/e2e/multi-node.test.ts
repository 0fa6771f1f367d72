/**
 * Two `serve` nodes (no in-process workers) and two `worker` processes on one fresh
 * PostgreSQL database and one Redis, as a deployment runs them. A mixed workload goes through
 * both nodes: client-credentials tokens, invoices created and settled, payouts retried across
 * nodes with one Idempotency-Key, concurrent payouts against a limited balance, paging while
 * writing, SCIM provisioning, webhook deliveries to a receiver on 127.0.0.1. Mid-load one node
 * is killed with SIGKILL; clients carry on against the other with the same keys.
 *
 * Afterwards, from the database and the API: every acknowledged write is there, no payout
 * happened twice, the balance never went below zero and the ledger sums to zero, every event
 * is acknowledged or parked, and the API limit held across both nodes.
 *
 * Runs when GATEHOUSE_TEST_DATABASE_URL and GATEHOUSE_TEST_REDIS_URL are set (CI sets both);
 * reported skipped otherwise.
 * Waits are conditions polled against a deadline, never lengths of time.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { databaseTargets, describeIf } from '../helpers/databases.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import type { Json } from '../helpers/http.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

const pgUrl = process.env.GATEHOUSE_TEST_DATABASE_URL;
const redisUrl = process.env.GATEHOUSE_TEST_REDIS_URL;
const NEEDS_SERVICES = 'set GATEHOUSE_TEST_DATABASE_URL and GATEHOUSE_TEST_REDIS_URL to run on PostgreSQL and Redis';

const ADMIN_TOKEN = 'spawned-admin-token-0123456789abcdef';
/** API requests per token per minute: small enough that a burst through two nodes crosses it. */
const API_LIMIT = 120;
const INVOICES = 20;
const INVOICE_AMOUNT = 1000;
const PAYOUT_AMOUNT = 500;
const CONCURRENT_PAYOUTS = 60;
const SCOPES = 'invoices:read invoices:write payouts:read payouts:write ledger:read webhooks:manage events:read';

interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

async function within<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeIf(pgUrl ? redisUrl : undefined, NEEDS_SERVICES, 'multi-node: two serve nodes and two workers on one PostgreSQL and Redis', (redisUrl) => {
  const postgres = databaseTargets().find((d) => d.kind === 'postgres')!;
  let database: { url: string; drop(): Promise<void> };
  let receiver: Receiver;
  let serveNodes: SpawnedGatehouse[] = [];
  let workers: SpawnedGatehouse[] = [];
  const prefix = `gh_mn_${randomBytes(6).toString('hex')}`;
  const dead = new Set<SpawnedGatehouse>();

  before(async () => {
    database = await postgres.create();
    receiver = await startReceiver();
    const env = {
      GATEHOUSE_ISSUER: 'http://gatehouse.internal',
      GATEHOUSE_RATE_LIMITS: 'on',
      GATEHOUSE_REDIS_URL: redisUrl,
      GATEHOUSE_REDIS_KEY_PREFIX: prefix,
      GATEHOUSE_RATE_LIMIT_API: `${API_LIMIT}/60`,
      GATEHOUSE_RATE_LIMIT_TOKEN: '1000/1',
      GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      GATEHOUSE_PAYOUT_DELAY: '0',
      // A retry after a node died waits out the dead request's claim; keep that short here.
      GATEHOUSE_IDEMPOTENCY_LEASE: '2',
      GATEHOUSE_DATABASE_POOL_SIZE: '5',
    };
    // All four start at once on the empty database: they migrate it under one lock.
    const started = await Promise.all([
      spawnGatehouse({ databaseUrl: database.url, env }),
      spawnGatehouse({ databaseUrl: database.url, env }),
      spawnGatehouse({ databaseUrl: database.url, env, command: 'worker' }),
      spawnGatehouse({ databaseUrl: database.url, env, command: 'worker' }),
    ]);
    serveNodes = started.slice(0, 2);
    workers = started.slice(2);
  });

  after(async () => {
    await Promise.all([...serveNodes, ...workers].map((n) => n.stop()));
    await receiver?.close();
    await database?.drop();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  let retriedAfterFailure = 0;
  const alive = () => serveNodes.filter((n) => !dead.has(n));

  /**
   * A client as integrators write them: it starts on the node given and, when a node does
   * not answer, is unavailable, or the key is still in use (Retry-After), tries again (on
   * the next live node) with the same request and the same Idempotency-Key.
   */
  async function call(start: number, method: string, path: string, token: string, body?: unknown, key?: string): Promise<Answer> {
    const deadline = Date.now() + 30_000;
    for (let attempt = start; ; attempt++) {
      const nodes = alive();
      const node = nodes[attempt % nodes.length]!;
      try {
        const response = await fetch(node.url + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(key ? { 'idempotency-key': key } : {}),
            ...(body === undefined ? {} : { 'content-type': path.startsWith('/scim/') ? 'application/scim+json' : 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        const answer = { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
        const retryable = answer.status === 503 || (answer.status === 409 && answer.body?.code === 'idempotency_key_in_use');
        if (!retryable) return answer;
      } catch {
        // The node went away mid-request: retry, elsewhere, with the same key.
        retriedAfterFailure++;
      }
      if (Date.now() > deadline) assert.fail(`${method} ${path} got no definitive answer within 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function admin(method: string, path: string, body?: unknown): Promise<Answer> {
    const response = await fetch(serveNodes[0]!.adminUrl + path, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  }

  async function tokenFrom(node: SpawnedGatehouse, client: { client_id: string; client_secret: string }): Promise<string> {
    const response = await fetch(`${node.url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    assert.equal(response.status, 200);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  async function sql<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** Runs `tasks` with at most `width` in flight. */
  async function pool<T>(width: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
    const results: T[] = new Array(tasks.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        while (next < tasks.length) {
          const i = next++;
          results[i] = await tasks[i]!();
        }
      }),
    );
    return results;
  }

  it('a mixed workload through both nodes survives a SIGKILL of one: nothing acknowledged lost, nothing done twice, limits held', async () => {
    const [nodeA, nodeB] = serveNodes as [SpawnedGatehouse, SpawnedGatehouse];

    // Set-up through the admin API: an account, an OAuth client, a SCIM token.
    const account = await admin('POST', '/admin/v1/accounts', { name: 'Multi-node' });
    assert.equal(account.status, 201);
    const accountId = account.body.id as string;
    const client = await admin('POST', `/admin/v1/accounts/${accountId}/clients`, { client_name: 'Load', grant_types: ['client_credentials'], scope: SCOPES });
    assert.equal(client.status, 201, JSON.stringify(client.body));
    const scim = await admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'IdP' });
    assert.equal(scim.status, 201);
    const scimToken = scim.body.token as string;

    // Tokens from /token on both nodes; each works on the other. The API budget is per client:
    // the workload's tokens are of clients of their own, so the burst below spends only its own.
    const tokens: string[] = [];
    for (let i = 0; i < 8; i++) {
      const own = await admin('POST', `/admin/v1/accounts/${accountId}/clients`, { client_name: `Load ${i}`, grant_types: ['client_credentials'], scope: SCOPES });
      assert.equal(own.status, 201, JSON.stringify(own.body));
      tokens.push(await tokenFrom(serveNodes[i % 2]!, own.body));
    }
    const endpoint = await call(1, 'POST', '/v1/webhook_endpoints', tokens[0]!, { url: receiver.url, event_types: ['*'] }, randomUUID());
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    receiver.secrets = [endpoint.body.secret];

    // Rate limits hold across nodes: one client, a burst twice its limit through both nodes.
    const limited = await tokenFrom(nodeA, client.body);
    const burst = await pool(16, Array.from({ length: 2 * API_LIMIT }, (_, i) => async () => {
      const response = await fetch(`${serveNodes[i % 2]!.url}/v1/invoices?limit=1`, { headers: { authorization: `Bearer ${limited}` } });
      await response.arrayBuffer();
      return response.status;
    }));
    assert.equal(burst.filter((s) => s === 200).length, API_LIMIT, 'successes through two nodes stay within one limit');
    assert.equal(burst.filter((s) => s === 429).length, API_LIMIT);

    // Funding: invoices created on one node and settled on the other.
    const invoiceIds = await pool(5, Array.from({ length: INVOICES }, (_, i) => async () => {
      const token = tokens[1 + (i % 2)]!;
      const created = await call(i, 'POST', '/v1/invoices', token, { amount: INVOICE_AMOUNT, currency: 'EUR' }, randomUUID());
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const settled = await call(i + 1, 'POST', `/v1/invoices/${created.body.id}/settle`, token, undefined, randomUUID());
      assert.equal(settled.status, 200, JSON.stringify(settled.body));
      return created.body.id as string;
    }));
    let funded = INVOICES * INVOICE_AMOUNT;

    // A payout retried across nodes with one key: one payout, the same answer from each node.
    const acknowledgedPayouts = new Map<string, string>();
    for (let i = 0; i < 3; i++) {
      const key = randomUUID();
      const body = { amount: PAYOUT_AMOUNT, currency: 'EUR', destination: `acct_retry_${i}` };
      const first = await call(0, 'POST', '/v1/payouts', tokens[3]!, body, key);
      const second = await call(1, 'POST', '/v1/payouts', tokens[3]!, body, key);
      assert.equal(first.status, 201);
      assert.equal(second.status, 201);
      assert.equal(second.body.id, first.body.id);
      assert.equal(second.headers.get('idempotent-replay'), 'true');
      acknowledgedPayouts.set(key, first.body.id);
    }
    const available = funded - 3 * PAYOUT_AMOUNT;

    // Under load: concurrent payouts worth more than the balance, SCIM provisioning and a
    // reader paging through payouts while they are written; node B is killed mid-way.
    const seenBeforePaging = new Set(acknowledgedPayouts.values());
    let answered = 0;
    let killed: Promise<unknown> | undefined;
    const refused: string[] = [];
    const payoutTasks = Array.from({ length: CONCURRENT_PAYOUTS }, (_, i) => async () => {
      const key = randomUUID();
      const answer = await call(i, 'POST', '/v1/payouts', tokens[4 + (i % 3)]!, { amount: PAYOUT_AMOUNT, currency: 'EUR', destination: `acct_load_${i}` }, key);
      if (++answered === CONCURRENT_PAYOUTS / 3 && !killed) {
        nodeB.child.kill('SIGKILL');
        dead.add(nodeB);
        killed = nodeB.exited;
      }
      if (answer.status === 201) acknowledgedPayouts.set(key, answer.body.id);
      else {
        assert.equal(answer.status, 422, JSON.stringify(answer.body));
        assert.equal(answer.body.code, 'insufficient_funds');
        refused.push(key);
      }
    });
    const scimUsers: string[] = [];
    const scimTasks = Array.from({ length: 10 }, (_, i) => async () => {
      const userName = `user${i}@multi-node.example`;
      const created = await call(i, 'POST', '/scim/v2/Users', scimToken, {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        name: { givenName: 'User', familyName: String(i) },
      });
      if (created.status === 201) scimUsers.push(created.body.id);
      else {
        // Created by a node that died before answering: the retry finds it taken.
        assert.equal(created.status, 409, JSON.stringify(created.body));
        const found = await call(i, 'GET', `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`, scimToken);
        assert.equal(found.body.totalResults, 1);
        scimUsers.push(found.body.Resources[0].id);
      }
    });
    const reader = async () => {
      const seen: string[] = [];
      let after: string | null = null;
      let page = 0;
      do {
        const query: string = `/v1/payouts?limit=7${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const answer = await call(page++, 'GET', query, tokens[7]!);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        seen.push(...answer.body.data.map((p: Json) => p.id as string));
        after = answer.body.next_cursor;
      } while (after !== null);
      return seen;
    };
    const [, , paged] = await Promise.all([pool(12, payoutTasks), pool(3, scimTasks), reader()]);
    assert.ok(killed, 'node B was killed mid-load');
    assert.equal((await nodeB.exited).signal, 'SIGKILL');
    assert.equal(new Set(paged).size, paged.length, 'paging while writing shows no payout twice');
    for (const id of seenBeforePaging) assert.ok(paged.includes(id), `payout ${id}, there before paging began, was paged`);

    // Concurrent payouts took exactly what the balance allowed, however the nodes interleaved.
    const loadPaid = CONCURRENT_PAYOUTS - refused.length;
    assert.equal(loadPaid, Math.floor(available / PAYOUT_AMOUNT));

    // Work keeps going on the surviving node.
    const after = await call(0, 'POST', '/v1/invoices', tokens[1]!, { amount: INVOICE_AMOUNT, currency: 'EUR' }, randomUUID());
    assert.equal(after.status, 201);
    assert.equal((await call(0, 'POST', `/v1/invoices/${after.body.id}/settle`, tokens[1]!, undefined, randomUUID())).status, 200);
    invoiceIds.push(after.body.id);
    funded += INVOICE_AMOUNT;
    assert.notEqual(await tokenFrom(nodeA, client.body), '');

    // The workers pay every payout out and deliver every event.
    await within('every payout processed by the workers', 30_000, async () => {
      const [row] = await sql<{ n: string }>(`select count(*) as n from payouts where state = 'pending'`);
      return Number(row!.n) === 0 ? true : undefined;
    });
    await within('every delivery acknowledged or parked', 30_000, async () => {
      const [row] = await sql<{ n: string }>(`select count(*) as n from webhook_deliveries where state = 'pending'`);
      return Number(row!.n) === 0 ? true : undefined;
    });

    // No acknowledged write is missing.
    for (const id of invoiceIds) {
      const invoice = await call(0, 'GET', `/v1/invoices/${id}`, tokens[2]!);
      assert.equal(invoice.status, 200);
      assert.equal(invoice.body.state, 'settled');
    }
    for (const id of scimUsers) assert.equal((await call(0, 'GET', `/scim/v2/Users/${id}`, scimToken)).status, 200);
    const [users] = await sql<{ n: string }>(`select count(*) as n from users where account_id = $1`, [accountId]);
    assert.equal(Number(users!.n), 10, 'each SCIM user provisioned once');

    // No payout happened twice: exactly the acknowledged ones exist, each paid once.
    const payouts = await sql<{ id: string; state: string }>(`select id, state from payouts where account_id = $1`, [accountId]);
    assert.deepEqual(payouts.map((p) => p.id).sort(), [...acknowledgedPayouts.values()].sort());
    assert.ok(payouts.every((p) => p.state === 'paid'));
    const paidEvents = await sql<{ object_id: string; n: string }>(
      `select object_id, count(*) as n from events where type = 'payout.paid' group by object_id having count(*) <> 1`,
    );
    assert.deepEqual(paidEvents, [], 'one payout.paid per payout');
    const postings = await sql<{ source_id: string; n: string }>(
      `select source_id, count(*) as n from ledger_entries where source_object = 'payout' group by source_id having count(*) <> 4`,
    );
    assert.deepEqual(postings, [], 'two postings (four entries) per payout: created and paid');

    // The balance never went below zero (the CHECK stands behind it) and the ledger balances.
    const [balance] = await sql<{ available: string }>(`select available from balances where account_id = $1 and currency = 'EUR'`, [accountId]);
    assert.equal(Number(balance!.available), funded - acknowledgedPayouts.size * PAYOUT_AMOUNT);
    assert.ok(Number(balance!.available) >= 0);
    // Debits are stored positive and credits negative.
    const [sums] = await sql<{ total: string; entries: string }>(`select coalesce(sum(amount), 0) as total, count(*) as entries from ledger_entries`);
    assert.ok(Number(sums!.entries) > 0);
    assert.equal(Number(sums!.total), 0, 'the ledger sums to zero');

    // Every event is acknowledged or parked; the receiver saw every acknowledged one.
    const [orphans] = await sql<{ n: string }>(
      `select count(*) as n from events e where not exists
         (select 1 from webhook_deliveries d where d.event_id = e.id and d.state in ('acknowledged', 'parked'))`,
    );
    assert.equal(Number(orphans!.n), 0);
    const acknowledged = await sql<{ event_id: string }>(`select event_id from webhook_deliveries where state = 'acknowledged'`);
    const received = new Set(receiver.received.map((r) => r.headers['event-id']));
    assert.ok(acknowledged.length > 0);
    assert.equal(receiver.received.every((r) => r.octokitValid && r.standardValid), true, 'every delivery correctly signed');
    const missing = acknowledged.filter((a) => !received.has(a.event_id));
    assert.deepEqual(missing, [], 'the receiver holds every acknowledged event');

    // The workers report their attempts; together they made at least one per acknowledgement.
    let succeeded = 0;
    for (const worker of workers) {
      const text = await (await fetch(`${worker.adminUrl}/metrics`)).text();
      succeeded += Number(/^gatehouse_webhook_attempts_total\{outcome="succeeded"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    }
    assert.ok(succeeded >= acknowledged.length, `${succeeded} successful attempts for ${acknowledged.length} acknowledgements`);
    console.log(
      `multi-node: ${acknowledgedPayouts.size} payouts, ${refused.length} refused for funds, ${retriedAfterFailure} requests retried after the kill, ` +
        `${acknowledged.length} events delivered by ${succeeded} successful attempts`,
    );
  });
});
