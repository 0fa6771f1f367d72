/**
 * Nothing acknowledged is lost when PostgreSQL restarts under a payout workload: a `serve` node
 * on a cluster of the test's own (never the machine's shared one), clients creating payouts of
 * one account side by side (so they share commits, group-commit.ts) and retrying every
 * unanswered request with its Idempotency-Key, while the server is stopped fast, then
 * immediately (as a crash), and started again. Afterwards the database holds every payout that
 * was answered 201 exactly once and no other, each with its balanced ledger posting and its
 * event, and the account's available balance is what was funded minus what was paid out.
 *
 * Runs wherever the PostgreSQL server binaries are installed (skipped, saying so, elsewhere).
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { postgresBinaries, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { queryOnce } from '../helpers/databases.ts';

const binaries = postgresBinaries();
const skip = 'missing' in binaries ? binaries.missing : false;
const ADMIN_TOKEN = 'spawned-admin-token-0123456789abcdef';
const FUNDS = 10_000_000;
const CLIENTS = 8;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

describe('PostgreSQL restarted under payouts of one account', { skip }, () => {
  let cluster: ThrowawayPostgres;
  let database: { url: string; drop(): Promise<void> };
  let node: SpawnedGatehouse;

  before(async () => {
    cluster = await startThrowawayPostgres();
    database = await cluster.target().create();
    node = await spawnGatehouse({
      databaseUrl: database.url,
      env: {
        GATEHOUSE_ISSUER: 'http://gatehouse.internal',
        // Payouts stay pending, so the balance is funds minus every payout.
        GATEHOUSE_PAYOUT_DELAY: '86400',
        // A write whose session was lost mid-way holds its key this long at most.
        GATEHOUSE_IDEMPOTENCY_LEASE: '2',
        GATEHOUSE_DATABASE_POOL_SIZE: '5',
        GATEHOUSE_DATABASE_ACQUIRE_TIMEOUT: '2000',
      },
    });
  });

  after(async () => {
    await node?.stop();
    await database?.drop().catch(() => {});
    await cluster?.close();
  });

  async function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
    const response = await fetch(node.url + path, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  }

  /** An integrator's write: the same key on every retry, until a definitive answer. */
  async function write(path: string, token: string, body?: unknown): Promise<Answer> {
    const key = randomUUID();
    const deadline = Date.now() + 40_000;
    for (;;) {
      try {
        const answer = await call('POST', path, { authorization: `Bearer ${token}`, 'idempotency-key': key }, body);
        const retry = answer.status === 503 || (answer.status === 409 && answer.body.code === 'idempotency_key_in_use');
        if (!retry) return answer;
      } catch {
        // no answer: retried with the same key
      }
      if (node.child.exitCode !== null || node.child.signalCode !== null) assert.fail(`the node exited:\n${node.output()}`);
      if (Date.now() > deadline) assert.fail(`POST ${path} got no definitive answer in 40 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function tokenFor(scope: string): Promise<{ accountId: string; token: string }> {
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    // The admin API is on its own listener.
    const adminCall = async (path: string, body: unknown) => {
      const response = await fetch(node.adminUrl + path, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, string> };
    };
    const created = await adminCall('/admin/v1/accounts', { name: 'Restart' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const client = await adminCall(`/admin/v1/accounts/${created.body.id}/clients`, { client_name: 'Load', grant_types: ['client_credentials'], scope });
    assert.equal(client.status, 201, JSON.stringify(client.body));
    const response = await fetch(`${node.url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.body.client_id}:${client.body.client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    return { accountId: created.body.id!, token: ((await response.json()) as { access_token: string }).access_token };
  }

  it('fast and immediate restarts mid-run: every payout answered 201 is stored exactly once, nothing else is, and the balance adds up', async (context: TestContext) => {
    const { accountId, token } = await tokenFor('invoices:write payouts:write payouts:read');
    const invoice = await write('/v1/invoices', token, { amount: FUNDS, currency: 'EUR' });
    assert.equal(invoice.status, 201, JSON.stringify(invoice.body));
    assert.equal((await write(`/v1/invoices/${invoice.body.id}/settle`, token)).status, 200);

    // Payout id → amount, for every payout answered 201; and how often each id was answered.
    const acknowledged = new Map<string, number>();
    const answers = new Map<string, number>();
    let running = true;
    let failure: unknown;
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; running; i++) {
        const amount = 1 + ((c + i) % 9);
        const created = await write('/v1/payouts', token, { amount, currency: 'EUR', destination: `iban:DE${c}` });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const id = created.body.id as string;
        acknowledged.set(id, amount);
        answers.set(id, (answers.get(id) ?? 0) + 1);
      }
    });
    const workload = Promise.all(clients).catch((error: unknown) => {
      failure = error;
      running = false;
    });
    const progress = async (more: number, what: string) => {
      const target = acknowledged.size + more;
      await until(() => failure !== undefined || acknowledged.size >= target, 30_000, what);
      if (failure) throw failure;
    };

    try {
      await progress(50, 'payouts before any fault');
      for (const mode of ['fast', 'immediate'] as const) {
        await cluster.stop(mode);
        await new Promise((r) => setTimeout(r, 500)); // the outage itself
        await cluster.start();
        await progress(50, `payouts after the ${mode} restart`);
      }
    } finally {
      running = false;
      await workload;
    }
    if (failure) throw failure;
    context.diagnostic(`${acknowledged.size} payouts acknowledged across a fast and an immediate restart`);

    const stored = await queryOnce<{ id: string; amount: number }>(database.url, 'select id, amount::int as amount from payouts where account_id = $1', [accountId]);
    assert.deepEqual(new Set(stored.map((r) => r.id)), new Set(acknowledged.keys()), 'the payouts stored are those acknowledged');
    assert.equal(stored.length, acknowledged.size, 'each stored once');
    assert.ok([...answers.values()].every((n) => n === 1), 'no payout answered to two requests');
    for (const row of stored) assert.equal(row.amount, acknowledged.get(row.id));

    const paidOut = [...acknowledged.values()].reduce((a, b) => a + b, 0);
    const [balance] = await queryOnce<{ available: number }>(database.url, "select available::int as available from balances where account_id = $1 and currency = 'EUR'", [accountId]);
    assert.equal(balance!.available, FUNDS - paidOut, 'funds minus every acknowledged payout');
    const postings = await queryOnce<{ entries: number; sum: number }>(
      database.url,
      "select count(*)::int as entries, coalesce(sum(amount), 0)::int as sum from ledger_entries where account_id = $1 and source_object = 'payout'",
      [accountId],
    );
    assert.deepEqual(postings[0], { entries: 2 * acknowledged.size, sum: 0 }, 'a balanced posting per payout');
    const events = await queryOnce<{ n: number }>(database.url, "select count(*)::int as n from events where account_id = $1 and type = 'payout.created'", [accountId]);
    assert.equal(events[0]!.n, acknowledged.size, 'one payout.created event per payout');
  });
});

