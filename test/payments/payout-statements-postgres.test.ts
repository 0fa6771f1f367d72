/**
 * What one payout asks of PostgreSQL, counted at the driver (every `query` a pg client sends in
 * this process): the Idempotency-Key's claim, then BEGIN, the payout's one statement (debit,
 * rows, the claim's completion and the endpoints read) and COMMIT, four round trips in all; and
 * with a webhook endpoint subscribed, the event's deliveries, queue entries and wake-up besides.
 * docs/DECISIONS.md "A payout is one statement on PostgreSQL".
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, fund, newTenant } from './api.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

interface Sent {
  client: object;
  text: string;
}

/** The statements pg clients of this process send while `work` runs. */
async function statementsDuring(work: () => Promise<void>): Promise<Sent[]> {
  const sent: Sent[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    sent.push({ client: this, text: typeof config === 'string' ? config : (config.text ?? '') });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

const isClaim = (s: Sent) => s.text.includes('insert into idempotency_keys') && s.text.includes('synchronous_commit');
const isPayout = (s: Sent) => s.text.includes('json_populate_record(null::payouts');

describe('the statements of one payout (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!);
  });
  after(() => t?.close());

  it('a payout is its claim, then BEGIN, one statement and COMMIT on one connection', async (context) => {
    const { token } = await newTenant(t);
    await fund(t, token, 1_000);
    let status = 0;
    const sent = await statementsDuring(async () => {
      status = (await api(t, token, 'POST', '/v1/payouts', { amount: 10, currency: 'EUR', destination: 'iban:DE1' })).status;
    });
    assert.equal(status, 201);
    assert.equal(sent.filter(isClaim).length, 1, 'one claim');
    const payout = sent.filter(isPayout);
    assert.equal(payout.length, 1, 'one payout statement');
    // The connection also served the bearer token's lookup before the transaction began.
    const onItsConnection = sent.filter((s) => s.client === payout[0]!.client).map((s) => (isPayout(s) ? 'payout' : s.text.trim().toLowerCase()));
    assert.deepEqual(onItsConnection.slice(onItsConnection.lastIndexOf('begin')), ['begin', 'payout', 'commit']);
    context.diagnostic(`${sent.length} statements sent during the request (the bearer token's lookup, the claim, the transaction, and any background work of the app meanwhile)`);
  });

  it('a refused payout (422) writes nothing in its statement and stores the refusal apart', async () => {
    const { accountId, token } = await newTenant(t);
    await fund(t, token, 5);
    const refused = await api(t, token, 'POST', '/v1/payouts', { amount: 10, currency: 'EUR', destination: 'iban:DE1' });
    assert.equal(refused.status, 422);
    assert.equal(refused.body.code, 'insufficient_funds');
    const db = t.gatehouse.database.db;
    assert.equal((await db.selectFrom('payouts').select('id').where('account_id', '=', accountId).execute()).length, 0);
    assert.equal((await db.selectFrom('events').select('id').where('account_id', '=', accountId).where('type', '=', 'payout.created').execute()).length, 0);
    assert.equal((await db.selectFrom('audit_events').select('id').where('account_id', '=', accountId).where('action', '=', 'payout.created').execute()).length, 0);
    const key = await db.selectFrom('idempotency_keys').select(['state', 'response_status']).where('account_id', '=', accountId).execute();
    assert.deepEqual(key.filter((k) => k.response_status === 422), [{ state: 'done', response_status: 422 }]);
  });
});
