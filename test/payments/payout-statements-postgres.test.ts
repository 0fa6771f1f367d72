/**
 * What one payout asks of PostgreSQL, counted at the driver (every `query` a pg client sends in
 * this process): the bearer token's lookup and the payout's one statement (the Idempotency-Key
 * inserted done with the answer, debit, rows, the event's deliveries and wake-up), which
 * commits on its own when the payout commits alone: two round trips in all.
 * docs/DECISIONS.md "A payout is one statement on PostgreSQL".
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, fund, newTenant } from './api.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall } from '../helpers/http.ts';
import { until } from '../helpers/until.ts';
import { statementsSentDuring, type SentStatement } from '../helpers/sent-statements.ts';
import { NOTIFY_CHANNEL } from '../../src/webhooks/wake.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');



const isClaim = (s: SentStatement) => s.text.includes('insert into idempotency_keys') && s.text.includes('synchronous_commit');
const isPayout = (s: SentStatement) => s.text.includes('json_populate_record(null::payouts');
/** Background work of the app (the retention sweep) may touch keys meanwhile; a request's own statements never delete by expiry. */
const isSweep = (s: SentStatement) => /^delete/i.test(s.text.trim()) && s.text.includes('expires_at');
const readsOrWritesKeys = (s: SentStatement) => s.text.includes('idempotency_keys') && !isSweep(s);

describe('the statements of one payout (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!, { env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
  });
  after(() => t?.close());

  it('a payout alone is the token lookup and one statement that also inserts its key, with no claim, BEGIN or COMMIT', async (context) => {
    const { token } = await newTenant(t);
    await fund(t, token, 1_000);
    let status = 0;
    const sent = await statementsSentDuring(async () => {
      status = (await api(t, token, 'POST', '/v1/payouts', { amount: 10, currency: 'EUR', destination: 'iban:DE1' })).status;
    });
    assert.equal(status, 201);
    assert.equal(sent.filter(isClaim).length, 0, 'no claim');
    const payout = sent.filter(isPayout);
    assert.equal(payout.length, 1, 'one payout statement');
    assert.match(payout[0]!.text, /insert into idempotency_keys/, 'the payout statement inserts the key');
    assert.deepEqual(sent.filter(readsOrWritesKeys), payout, 'no other statement reads or writes the key');
    // On the payout's connection: background work of the app may run transactions of its own meanwhile.
    const onPayoutsConnection = sent.filter((s) => s.client === payout[0]!.client);
    assert.deepEqual(onPayoutsConnection.filter((s) => /^(begin|commit|savepoint)/i.test(s.text.trim())).map((s) => s.text), [], 'no transaction commands');
    context.diagnostic(`${sent.length} statements sent during the request (the bearer token's lookup, the payout, and any background work of the app meanwhile)`);
  });

  it('the payout statement queues a delivery per subscribed endpoint and wakes the dispatchers listening, on commit', async () => {
    const { accountId, token } = await newTenant(t);
    await fund(t, token, 1_000);
    const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'] });
    const endpoint = await bearerCall(t.publicUrl, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', event_types: ['payout.created'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const listener = new pg.Client({ connectionString: t.config.databaseUrl.replace(/[?&]schema=[^&]*/, '') });
    await listener.connect();
    try {
      const schema = new URL(t.config.databaseUrl).searchParams.get('schema') ?? 'public';
      const woken: string[] = [];
      listener.on('notification', (n) => woken.push(n.channel));
      await listener.query(`listen "${NOTIFY_CHANNEL}_${schema}"`);
      const created = await api(t, token, 'POST', '/v1/payouts', { amount: 10, currency: 'EUR', destination: 'iban:DE1' });
      assert.equal(created.status, 201);
      await until(() => woken.length > 0, 5000, 'the wake-up');
      const db = t.gatehouse.database.db;
      const [event] = await db.selectFrom('events').select('id').where('object_id', '=', created.body.id).execute();
      const deliveries = await db.selectFrom('webhook_deliveries').select(['id', 'endpoint_id']).where('event_id', '=', event!.id).execute();
      assert.deepEqual(deliveries.map((d) => d.endpoint_id), [endpoint.body.id]);
      assert.match(deliveries[0]!.id, /^whd_[0-9A-Za-z]{20}$/);
    } finally {
      await listener.end();
    }
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
