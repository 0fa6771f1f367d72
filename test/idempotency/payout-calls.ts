/**
 * Calls of the payment writes as an integrator's client makes them, and the counts of what a
 * payout writes (payout row, `payout.created`, ledger postings, balance), for the
 * Idempotency-Key tests on the real endpoints.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Json } from '../helpers/http.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { fund } from '../payments/api.ts';

export const CONCURRENCY = 100;
export const ROUNDS = 20;
export const SCOPES = ['invoices:read', 'invoices:write', 'payouts:read', 'payouts:write', 'ledger:read'];
export const PAYOUT = { amount: 1250, currency: 'EUR', destination: 'iban:DE89370400440532013000' };

export interface Call {
  token: string;
  key: string;
  body?: unknown;
  /** Exact body text, for spellings JSON.stringify would normalise. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The body exactly as received. */
  text: string;
  body: Json;
  replayed: boolean;
}

export async function post(url: string, call: Call): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${call.token}`,
      'idempotency-key': call.key,
      ...(call.body === undefined && call.rawBody === undefined ? {} : { 'content-type': 'application/json' }),
      ...call.headers,
    },
    body: call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined, replayed: response.headers.get('idempotent-replay') === 'true' };
}

export const postPayout = (baseUrl: string, call: Omit<Call, 'body'> & { body?: unknown }) => post(`${baseUrl}/v1/payouts`, { body: PAYOUT, ...call });

/** Asserts that `again` is `first` replayed: same status, headers that matter and bytes. */
export function assertReplayOf(again: Answer, first: Answer, label = ''): void {
  assert.equal(again.status, first.status, label);
  assert.equal(again.replayed, true, label);
  assert.equal(again.text, first.text, `${label}: a replay is the original, byte for byte`);
  assert.equal(again.headers.get('content-type'), first.headers.get('content-type'), label);
  assert.equal(again.headers.get('location'), first.headers.get('location'), label);
}


/** Fixtures and counts of one running app (`app()` follows restarts). */
export function paymentState(t: () => TestApp) {
  const db = () => t().gatehouse.database.db;

  async function tenant(balance = 1_000_000, clientId = 'client-a') {
    const accountId = await createAccount(t());
    const token = await mintAccessToken(t(), { accountId, clientId, scopes: SCOPES });
    if (balance > 0) await fund(t(), token, balance);
    return { accountId, token };
  }

  /** Everything a payout writes, counted for the account. */
  async function written(accountId: string) {
    const count = async (table: 'payouts' | 'events' | 'ledger_entries', where: (q: Json) => Json) =>
      Number((await where(db().selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('account_id', '=', accountId)).executeTakeFirstOrThrow()).n);
    const balance = await db().selectFrom('balances').select('available').where('account_id', '=', accountId).where('currency', '=', 'EUR').executeTakeFirst();
    return {
      payouts: await count('payouts', (q) => q),
      events: await count('events', (q) => q.where('type', '=', 'payout.created')),
      ledgerEntries: await count('ledger_entries', (q) => q.where('source_object', '=', 'payout')),
      balance: Number(balance?.available ?? 0),
    };
  }
  const records = (accountId: string, key: string) =>
    db().selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).where('idempotency_key', '=', key).execute();

  /** CONCURRENCY identical payouts per round over `urls`; each round pays out exactly once. */
  async function hammer(urls: string[], label: string): Promise<void> {
    const { accountId, token } = await tenant();
    let inUse = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => postPayout(urls[i % urls.length]!, { token, key })));
      const originals = answers.filter((a) => a.status === 201 && !a.replayed);
      assert.equal(originals.length, 1, `${label} round ${round}: one original answer`);
      const original = originals[0]!;
      for (const answer of answers) {
        if (answer.status === 409) {
          assert.equal(answer.body.code, 'idempotency_key_in_use', `${label} round ${round}`);
          assert.equal(answer.headers.get('retry-after'), '1');
          inUse++;
          continue;
        }
        if (answer !== original) assertReplayOf(answer, original, `${label} round ${round}`);
      }
      const id = original.body.id as string;
      assert.deepEqual(await written(accountId), {
        payouts: round + 1,
        events: round + 1,
        ledgerEntries: 2 * (round + 1),
        balance: 1_000_000 - (round + 1) * PAYOUT.amount,
      }, `${label} round ${round}`);
      const entries = await db().selectFrom('ledger_entries').select(['ledger_account', 'amount']).where('source_id', '=', id).orderBy('amount').execute();
      assert.deepEqual(entries, [{ ledger_account: 'payouts_pending', amount: -PAYOUT.amount }, { ledger_account: 'balance', amount: PAYOUT.amount }]);
      // Whoever got 409 retries and gets the original.
      assertReplayOf(await postPayout(urls[0]!, { token, key }), original, `${label} round ${round} retry`);
    }
    console.log(`${label}: ${ROUNDS} rounds × ${CONCURRENCY} payouts, ${inUse} answered 409 idempotency_key_in_use`);
  }


  return { db, tenant, written, records, hammer };
}
