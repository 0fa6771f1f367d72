/**
 * The payouts that share a batch on PostgreSQL (of one account, or of several accounts that
 * arrive together) are one statement (payout-batch-statement.ts), and each is answered as if it
 * had run alone in arrival order:
 * accepted while the balance left by those before it covers it, else 422 insufficient_funds;
 * a key with a stored answer replayed, a key reused with another request 409. The batch is
 * made by holding the account's balance row from another connection while one payout waits
 * on it, so that the requests sent meanwhile queue behind it and form the next batch. Payouts
 * of several accounts are made to arrive together by holding each at its key until all are there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { json } from '../helpers/http.ts';
import { until } from '../helpers/until.ts';
import { connectBeside } from '../helpers/held-ahead.ts';
import { statementsSentDuring } from '../helpers/sent-statements.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall } from '../helpers/http.ts';
import { fund, newTenant, type ApiResponse } from './api.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

const isBatch = (text: string) => text.includes('json_to_recordset') && text.includes('insert into idempotency_keys');

describe('payouts of one account in one batch (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  /** The labels of the batch's requests in the order they reached their key. */
  const arrived: string[] = [];
  /** Requests sent with `x-together` wait at their key until this many have arrived, then go on together. */
  let together: { expected: number; waiting: Array<() => void> } | undefined;
  before(async () => {
    t = await startTestApp(postgres!, {
      env: { GATEHOUSE_LOG_LEVEL: 'warn', GATEHOUSE_PAYOUT_DELAY: '3600', GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' },
      extensions: {
        writeHooks: {
          beforeKeyRead(request) {
            const label = request.headers['x-batch-label'];
            if (typeof label === 'string') arrived.push(label);
            if (request.headers['x-together'] === undefined || together === undefined) return;
            const group = together;
            return new Promise<void>((resolve) => {
              group.waiting.push(resolve);
              if (group.waiting.length === group.expected) for (const go of group.waiting) go();
            });
          },
        },
      },
    });
  });
  after(() => t?.close());

  async function payout(token: string, key: string, amount: number, label?: string, extra: Record<string, string> = {}): Promise<ApiResponse> {
    const response = await fetch(`${t.publicUrl}/v1/payouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, 'content-type': 'application/json', ...(label ? { 'x-batch-label': label } : {}), ...extra },
      body: JSON.stringify({ amount, currency: 'EUR', destination: 'iban:DE1' }),
    });
    return { status: response.status, headers: response.headers, body: await json(response) };
  }

  /** Holds the account's balance row locked from another connection until `release` is called. */
  async function holdBalance(accountId: string): Promise<{ release(): Promise<void>; client: pg.Client }> {
    const client = await connectBeside(t);
    await client.query('begin');
    await client.query('select available from balances where account_id = $1 for update', [accountId]);
    return {
      client,
      async release() {
        await client.query('commit');
        await client.end();
      },
    };
  }

  it('accepts exactly the payouts the balance covers in arrival order, refuses the rest as a lone payout is refused, replays a stored key and refuses a reused one; one statement for the batch; balance and ledger agree', async () => {
    const { accountId, token } = await newTenant(t);
    await fund(t, token, 36);
    const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'] });
    const endpoint = await bearerCall(t.publicUrl, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', event_types: ['payout.created'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const storedKey = randomUUID();
    const stored = await payout(token, storedKey, 10);
    assert.equal(stored.status, 201);

    const held = await holdBalance(accountId);
    const db = t.gatehouse.database.db;
    const batch = [
      { label: 'a', key: randomUUID(), amount: 10 },
      { label: 'b', key: randomUUID(), amount: 10 },
      { label: 'c', key: randomUUID(), amount: 10 },
      { label: 'd', key: randomUUID(), amount: 5 },
      { label: 'replay', key: storedKey, amount: 10 },
      { label: 'reuse', key: storedKey, amount: 7 },
    ];
    let answers: ApiResponse[] = [];
    const sent = await statementsSentDuring(async () => {
      // Alone in its batch, it waits on the held row: the lane of the account is busy meanwhile.
      const blocker = payout(token, randomUUID(), 1, 'blocker');
      await until(async () => {
        // Inside its transaction the holder sees activity as of its first look unless told to look again.
        await held.client.query('select pg_stat_clear_snapshot()');
        const waiting = await held.client.query(`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%idempotency_keys%'`);
        return waiting.rowCount! > 0;
      }, 60_000, 'the first payout waiting on the balance row');
      const pending = batch.map((p) => payout(token, p.key, p.amount, p.label));
      await until(() => arrived.length === batch.length + 1, 60_000, 'every request of the batch at its key');
      // Each has queued in the account's group commit by the end of this round of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
      await held.release();
      assert.equal((await blocker).status, 201);
      answers = await Promise.all(pending);
    });
    assert.equal(sent.filter((s) => isBatch(s.text)).length, 1, 'the batch is one statement');

    // What a lone payout each, in arrival order, would have met: 25 left after the stored payout and the blocker.
    let remaining = 25;
    const accepted = new Set<string>();
    for (const label of arrived.slice(1)) {
      const p = batch.find((b) => b.label === label)!;
      if (label === 'replay' || label === 'reuse') continue;
      if (p.amount <= remaining) {
        remaining -= p.amount;
        accepted.add(label);
      }
    }
    assert.equal(accepted.size, 2 + (accepted.has('d') ? 1 : 0));
    batch.forEach((p, i) => {
      const answer = answers[i]!;
      if (p.label === 'replay') {
        assert.equal(answer.status, 201);
        assert.equal(answer.headers.get('idempotent-replay'), 'true');
        assert.deepEqual(answer.body, stored.body);
      } else if (p.label === 'reuse') {
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'idempotency_key_reused');
      } else if (accepted.has(p.label)) {
        assert.equal(answer.status, 201, `${p.label}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.amount, p.amount);
        assert.equal(answer.headers.get('idempotent-replay'), null);
      } else {
        assert.equal(answer.status, 422, `${p.label}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.code, 'insufficient_funds');
        assert.equal(answer.body.detail, `The available EUR balance does not cover ${p.amount}`);
      }
    });

    const balance = await db.selectFrom('balances').select('available').where('account_id', '=', accountId).where('currency', '=', 'EUR').executeTakeFirstOrThrow();
    assert.equal(Number(balance.available), remaining);
    const payouts = await db.selectFrom('payouts').select(['id', 'amount']).where('account_id', '=', accountId).execute();
    const acceptedAmounts = batch.filter((p) => accepted.has(p.label)).map((p) => p.amount);
    assert.deepEqual(payouts.map((p) => Number(p.amount)).sort((x, y) => x - y), [1, 10, ...acceptedAmounts].sort((x, y) => x - y));
    // The ledger's balance account agrees with the stored balance: settled 36, debited by every payout.
    const entries = await db.selectFrom('ledger_entries').select(['amount']).where('account_id', '=', accountId).where('ledger_account', '=', 'balance').execute();
    assert.equal(0 - entries.reduce((sum, e) => sum + Number(e.amount), 0), remaining);
    const events = await db.selectFrom('events').select('id').where('account_id', '=', accountId).where('type', '=', 'payout.created').execute();
    assert.equal(events.length, payouts.length);
    // Every payout's event has its own delivery to the subscribed endpoint.
    const deliveries = await db.selectFrom('webhook_deliveries').select(['id', 'event_id', 'endpoint_id']).where('account_id', '=', accountId).execute();
    assert.deepEqual(deliveries.map((d) => d.event_id).sort(), events.map((e) => e.id).sort());
    assert.ok(deliveries.every((d) => d.endpoint_id === endpoint.body.id && /^whd_[0-9A-Za-z]{20}$/.test(d.id)));
    assert.equal(new Set(deliveries.map((d) => d.id)).size, deliveries.length);
    const keys = await db.selectFrom('idempotency_keys').select(['idempotency_key', 'state', 'response_status']).where('account_id', '=', accountId).execute();
    for (const p of batch.filter((b) => b.label !== 'replay' && b.label !== 'reuse')) {
      const key = keys.find((k) => k.idempotency_key === p.key)!;
      assert.deepEqual([key.state, key.response_status], ['done', accepted.has(p.label) ? 201 : 422], p.label);
    }
  });
  /** Sends `payouts` so that they reach their keys together; their answers, and the statements sent meanwhile. */
  async function sendTogether(payouts: Array<{ token: string; amount: number }>) {
    together = { expected: payouts.length, waiting: [] };
    let answers: ApiResponse[] = [];
    const sent = await statementsSentDuring(async () => {
      answers = await Promise.all(payouts.map((p) => payout(p.token, randomUUID(), p.amount, undefined, { 'x-together': '1' })));
    });
    together = undefined;
    return { answers, sent };
  }

  async function available(accountId: string): Promise<number> {
    const db = t.gatehouse.database.db;
    const row = await db.selectFrom('balances').select('available').where('account_id', '=', accountId).where('currency', '=', 'EUR').executeTakeFirstOrThrow();
    return Number(row.available);
  }

  it('payouts of several accounts that arrive together are one statement and one commit; each account is debited its own, and its event delivered to its own endpoint', async () => {
    const db = t.gatehouse.database.db;
    const tenants = [await newTenant(t), await newTenant(t), await newTenant(t)];
    for (const tenant of tenants) await fund(t, tenant.token, 30);
    const [a, b, c] = tenants as [(typeof tenants)[0], (typeof tenants)[0], (typeof tenants)[0]];
    const hooks = await mintAccessToken(t, { accountId: b.accountId, scopes: ['webhooks:manage'] });
    const endpoint = await bearerCall(t.publicUrl, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', event_types: ['payout.created'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));

    const { answers, sent } = await sendTogether([
      { token: a.token, amount: 10 },
      { token: b.token, amount: 7 },
      { token: a.token, amount: 20 },
      { token: c.token, amount: 30 },
      { token: b.token, amount: 3 },
    ]);
    assert.deepEqual(answers.map((answer) => answer.status), [201, 201, 201, 201, 201], JSON.stringify(answers.map((answer) => answer.body)));
    assert.deepEqual(answers.map((answer) => answer.body.amount), [10, 7, 20, 30, 3]);
    const batches = sent.filter((s) => isBatch(s.text));
    assert.equal(batches.length, 1, 'the five payouts are one statement');
    // On its connection, the statement is the whole of one transaction: one commit for the five.
    const onItsConnection = sent.filter((s) => s.client === batches[0]!.client).map((s) => s.text);
    const at = onItsConnection.findIndex(isBatch);
    assert.match(onItsConnection[at - 1] ?? '', /^begin/i);
    assert.match(onItsConnection[at + 1] ?? '', /^commit/i);
    assert.deepEqual([await available(a.accountId), await available(b.accountId), await available(c.accountId)], [0, 20, 0]);

    for (const [tenant, amounts] of [[a, [10, 20]], [b, [3, 7]], [c, [30]]] as const) {
      const payouts = await db.selectFrom('payouts').select('amount').where('account_id', '=', tenant.accountId).execute();
      assert.deepEqual(payouts.map((p) => Number(p.amount)).sort((x, y) => x - y), amounts);
      const entries = await db.selectFrom('ledger_entries').select('amount').where('account_id', '=', tenant.accountId).where('ledger_account', '=', 'balance').execute();
      assert.equal(0 - entries.reduce((sum, e) => sum + Number(e.amount), 0), await available(tenant.accountId));
    }
    const deliveries = await db.selectFrom('webhook_deliveries').innerJoin('events', 'events.id', 'webhook_deliveries.event_id').select(['webhook_deliveries.account_id', 'events.account_id as event_account', 'webhook_deliveries.endpoint_id']).where('events.type', '=', 'payout.created').where('events.account_id', 'in', tenants.map((tenant) => tenant.accountId)).execute();
    assert.deepEqual(deliveries, [
      { account_id: b.accountId, event_account: b.accountId, endpoint_id: endpoint.body.id },
      { account_id: b.accountId, event_account: b.accountId, endpoint_id: endpoint.body.id },
    ]);
    const queued = await db.selectFrom('webhook_queue').select('account_id').where('account_id', 'in', tenants.map((tenant) => tenant.accountId)).execute();
    assert.deepEqual(queued.map((q) => q.account_id), [b.accountId, b.accountId]);
  });

  it("a payout refused among several accounts' payouts is refused alone, as a lone payout is; the others are accepted by the same statement", async () => {
    const tenants = [await newTenant(t), await newTenant(t)];
    for (const tenant of tenants) await fund(t, tenant.token, 10);
    const [a, b] = tenants as [(typeof tenants)[0], (typeof tenants)[0]];
    const { answers, sent } = await sendTogether([
      { token: a.token, amount: 4 },
      { token: b.token, amount: 11 },
      { token: a.token, amount: 6 },
    ]);
    assert.deepEqual(answers.map((answer) => answer.status), [201, 422, 201], JSON.stringify(answers.map((answer) => answer.body)));
    assert.equal(answers[1]!.body.code, 'insufficient_funds');
    // The statement writes nothing for the refused payout, which is then refused and its refusal stored the claimed way.
    assert.equal(sent.filter((s) => isBatch(s.text)).length, 1, 'one statement for the three');
    assert.deepEqual([await available(a.accountId), await available(b.accountId)], [0, 10]);
    const keys = await t.gatehouse.database.db.selectFrom('idempotency_keys').select(['account_id', 'response_status']).where('account_id', 'in', [a.accountId, b.accountId]).where('response_status', 'in', [201, 422]).where('fingerprint', 'is not', null).execute();
    assert.deepEqual(keys.filter((k) => k.account_id === b.accountId && k.response_status === 422).length, 1);
  });
});
