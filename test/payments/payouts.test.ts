import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createPayoutProcessor } from '../../src/payments/payout-processor.ts';
import { api, fund, newTenant } from './api.ts';
import { until } from '../helpers/until.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall } from '../helpers/http.ts';
import { ALLOW_LOOPBACK, registerEndpoint, type Tenant } from '../webhooks/support.ts';

for (const target of databaseTargets()) {
  describe(`payouts (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_PAYOUT_DELAY: '30', ...ALLOW_LOOPBACK } });
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    /** The account's webhook manager (another token of the same account). */
    const tenantOf = async (accountId: string): Promise<Tenant> => {
      const scopes = ['webhooks:manage'];
      const token = await mintAccessToken(t, { accountId, scopes });
      return { accountId, token, call: (method, path, body) => bearerCall(t.publicUrl, token, method, path, body) };
    };
    const balanceOf = async (accountId: string, currency = 'EUR') =>
      (await db().selectFrom('balances').select('available').where('account_id', '=', accountId).where('currency', '=', currency).executeTakeFirst())
        ?.available ?? 0;

    /** Every posting of the account sums to zero. */
    async function assertLedgerBalances(accountId: string) {
      const entries = await db().selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId).execute();
      const byTransaction = new Map<string, number>();
      for (const e of entries) byTransaction.set(e.transaction_id, (byTransaction.get(e.transaction_id) ?? 0) + e.amount);
      for (const [transaction, sum] of byTransaction) assert.equal(sum, 0, `transaction ${transaction} sums to ${sum}`);
      return entries;
    }

    it('POST /v1/payouts → 201 pending; takes the amount from the balance; posts balance → payouts_pending; payout.created', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 10_000);
      const created = await api(t, token, 'POST', '/v1/payouts', { amount: 4_000, currency: 'EUR', destination: 'iban:DE89370400440532013000' });
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^po_[0-9A-Za-z]{20}$/);
      assert.deepEqual(created.body, {
        id: created.body.id,
        object: 'payout',
        amount: 4000,
        currency: 'EUR',
        destination: 'iban:DE89370400440532013000',
        state: 'pending',
        failure_code: null,
        created_at: new Date(t.clock.now()).toISOString(),
        processed_at: null,
      });
      assert.equal(created.headers.get('location'), `/v1/payouts/${created.body.id}`);
      assert.equal(await balanceOf(accountId), 6_000);
      const entries = await assertLedgerBalances(accountId);
      const mine = entries.filter((e) => e.source_id === created.body.id).map((e) => [e.ledger_account, e.amount]);
      assert.deepEqual(mine.sort(), [
        ['balance', 4000],
        ['payouts_pending', -4000],
      ]);
      const events = await db().selectFrom('events').select(['type', 'state']).where('object_id', '=', created.body.id).execute();
      assert.deepEqual(events, [{ type: 'payout.created', state: 'pending' }]);
      const fetched = await api(t, token, 'GET', `/v1/payouts/${created.body.id}`);
      assert.deepEqual(fetched.body, created.body);
    });

    it('payout.created reaches the webhook endpoints subscribed to it, written with the payout: one delivery each, queued; none for other types or a disabled endpoint', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 1_000);
      const hooks = await tenantOf(accountId);
      const subscribed = await registerEndpoint(hooks, 'http://127.0.0.1:9/payouts', ['payout.created']);
      const everything = await registerEndpoint(hooks, 'http://127.0.0.1:9/all', ['*']);
      await registerEndpoint(hooks, 'http://127.0.0.1:9/invoices', ['invoice.settled']);
      const disabled = await registerEndpoint(hooks, 'http://127.0.0.1:9/off', ['payout.created']);
      await db().updateTable('webhook_endpoints').set({ enabled: 0 }).where('id', '=', disabled.id).execute();

      const created = await api(t, token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'iban:DE1' });
      assert.equal(created.status, 201);
      const [event] = await db().selectFrom('events').select(['id', 'type']).where('object_id', '=', created.body.id).execute();
      assert.equal(event?.type, 'payout.created');
      const deliveries = await db().selectFrom('webhook_deliveries').select(['id', 'endpoint_id', 'state']).where('event_id', '=', event!.id).execute();
      assert.deepEqual(deliveries.map((d) => d.endpoint_id).sort(), [subscribed.id, everything.id].sort());
      assert.ok(deliveries.every((d) => d.state === 'pending' && /^whd_[0-9A-Za-z]{20}$/.test(d.id)));
      const queued = await db().selectFrom('webhook_queue').select('delivery_id').where('event_id', '=', event!.id).execute();
      assert.deepEqual(queued.map((q) => q.delivery_id).sort(), deliveries.map((d) => d.id).sort());
    });

    it('a payout over the available balance → 422 insufficient_funds; nothing written', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 1_000);
      await fund(t, token, 5_000, 'USD');
      for (const body of [
        { amount: 1_001, currency: 'EUR', destination: 'acct-1' },
        { amount: 10, currency: 'JPY', destination: 'acct-1' },
      ]) {
        const refused = await api(t, token, 'POST', '/v1/payouts', body);
        assert.equal(refused.status, 422);
        assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(refused.body.code, 'insufficient_funds');
      }
      assert.equal(await balanceOf(accountId), 1_000);
      const payouts = await db().selectFrom('payouts').select('id').where('account_id', '=', accountId).execute();
      assert.equal(payouts.length, 0);
      const exact = await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'acct-1' });
      assert.equal(exact.status, 201);
      assert.equal(await balanceOf(accountId), 0);
    });

    it('the processor pays a due payout after the delay (injected clock) and fails the test_fail destination, returning its money', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 3_000);
      const good = await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'acct-good' });
      const bad = await api(t, token, 'POST', '/v1/payouts', { amount: 1_500, currency: 'EUR', destination: 'test_fail_rejected' });
      assert.equal(await balanceOf(accountId), 500);
      const processor = t.gatehouse.services.payoutProcessor;

      t.clock.advance(29_000);
      await processor.processDuePayouts();
      assert.equal((await api(t, token, 'GET', `/v1/payouts/${good.body.id}`)).body.state, 'pending');

      t.clock.advance(1_000);
      await processor.processDuePayouts();
      const paid = await api(t, token, 'GET', `/v1/payouts/${good.body.id}`);
      assert.equal(paid.body.state, 'paid');
      assert.equal(paid.body.processed_at, new Date(t.clock.now()).toISOString());
      const failed = await api(t, token, 'GET', `/v1/payouts/${bad.body.id}`);
      assert.equal(failed.body.state, 'failed');
      assert.equal(failed.body.failure_code, 'destination_rejected');
      assert.equal(await balanceOf(accountId), 2_000, 'a failed payout no longer counts against the balance');

      const events = await db().selectFrom('events').select(['type', 'object_id']).where('account_id', '=', accountId).where('type', 'like', 'payout.%').execute();
      assert.deepEqual(events.map((e) => `${e.type} ${e.object_id}`).sort(), [
        `payout.created ${bad.body.id}`,
        `payout.created ${good.body.id}`,
        `payout.failed ${bad.body.id}`,
        `payout.paid ${good.body.id}`,
      ].sort());
      const entries = await assertLedgerBalances(accountId);
      const net = (account: string) => entries.filter((e) => e.ledger_account === account).reduce((s, e) => s + e.amount, 0);
      assert.equal(net('payouts_pending'), 0);
      assert.equal(net('cash'), 3_000 - 1_000);
      assert.equal(-net('balance'), 2_000, 'the balance ledger account agrees with the available balance');

      t.clock.advance(60_000);
      assert.deepEqual(await processor.processDuePayouts(), { paid: 0, failed: 0 });
    });

    it('several processors running at once process each payout exactly once', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 100_000);
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const created = await api(t, token, 'POST', '/v1/payouts', { amount: 100 + i, currency: 'EUR', destination: i % 3 === 0 ? 'test_fail' : `acct-${i}` });
        ids.push(created.body.id);
      }
      t.clock.advance(31_000);
      const processors = [1, 2, 3, 4].map(() =>
        createPayoutProcessor({ db: db(), clock: t.clock, dialect: t.gatehouse.database.dialect, batchSize: 4 }),
      );
      const results = await Promise.all(processors.map((p) => p.processDuePayouts()));
      const total = results.reduce((s, r) => ({ paid: s.paid + r.paid, failed: s.failed + r.failed }), { paid: 0, failed: 0 });
      assert.deepEqual(total, { paid: 20, failed: 10 });
      const events = await db().selectFrom('events').select('object_id').where('account_id', '=', accountId).where('type', 'in', ['payout.paid', 'payout.failed']).execute();
      assert.equal(events.length, 30);
      assert.equal(new Set(events.map((e) => e.object_id)).size, 30);
      await assertLedgerBalances(accountId);
      const failedSum = ids.reduce((s, _id, i) => s + (i % 3 === 0 ? 100 + i : 0), 0);
      const paidSum = ids.reduce((s, _id, i) => s + (i % 3 === 0 ? 0 : 100 + i), 0);
      assert.equal(await balanceOf(accountId), 100_000 - paidSum);
      assert.ok(failedSum > 0);
    });

    it('200 concurrent payouts against a balance covering some: the sum never exceeds it, the rest are 422, the ledger balances', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 50_000);
      const amounts = Array.from({ length: 200 }, (_, i) => 300 + ((i * 37) % 500));
      const responses = await Promise.all(amounts.map((amount, i) => api(t, token, 'POST', '/v1/payouts', { amount, currency: 'EUR', destination: `acct-${i}` })));
      const accepted = responses.filter((r) => r.status === 201);
      const refused = responses.filter((r) => r.status !== 201);
      assert.ok(accepted.length > 0 && refused.length > 0, `${accepted.length} accepted, ${refused.length} refused`);
      for (const r of refused) {
        assert.equal(r.status, 422);
        assert.equal(r.body.code, 'insufficient_funds');
      }
      const paidOut = accepted.reduce((s, r) => s + (r.body.amount as number), 0);
      assert.ok(paidOut <= 50_000, `paid out ${paidOut}`);
      const smallestRefused = Math.min(...responses.flatMap((r, i) => (r.status === 201 ? [] : [amounts[i]!])));
      assert.ok(50_000 - paidOut < smallestRefused, 'a refusal only when the balance really did not cover it');
      assert.equal(await balanceOf(accountId), 50_000 - paidOut);
      const stored = await db().selectFrom('payouts').select(['amount']).where('account_id', '=', accountId).execute();
      assert.equal(stored.length, accepted.length);
      assert.equal(stored.reduce((s, p) => s + p.amount, 0), paidOut);
      const entries = await assertLedgerBalances(accountId);
      assert.equal(entries.reduce((s, e) => s + e.amount, 0), 0);
    });

    it('token without payouts:write → 403; another account cannot see a payout (404); invalid payouts → 400', async () => {
      const owner = await newTenant(t);
      await fund(t, owner.token, 1_000);
      const created = await api(t, owner.token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'acct-1' });
      const reader = await newTenant(t, ['payouts:read']);
      const denied = await api(t, reader.token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'acct-1' });
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'insufficient_scope');
      const foreign = await api(t, reader.token, 'GET', `/v1/payouts/${created.body.id}`);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.code, 'payout_not_found');
      const noScope = await newTenant(t, ['invoices:read']);
      assert.equal((await api(t, noScope.token, 'GET', '/v1/payouts')).status, 403);
      for (const body of [
        { amount: 100, currency: 'EUR' },
        { amount: 100, currency: 'EUR', destination: '' },
        { amount: 100, currency: 'EUR', destination: 'has space' },
        { amount: 0, currency: 'EUR', destination: 'acct-1' },
        { amount: 100, currency: 'usd', destination: 'acct-1' },
      ]) {
        const response = await api(t, owner.token, 'POST', '/v1/payouts', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(response.body.code, 'validation_failed');
      }
      assert.equal(await balanceOf(owner.accountId), 900);
    });
  });
}

describe('the in-process payout processor runs inside serve', () => {
  const [sqlite] = databaseTargets();
  let t: TestApp;
  before(async () => {
    t = await startTestApp(sqlite!, { env: { GATEHOUSE_IN_PROCESS_WORKERS: 'on', GATEHOUSE_PAYOUT_DELAY: '0' } });
  });
  after(() => t.close());

  it('a due payout is paid by the running loop without anyone calling the processor; close() stops it', async () => {
    const { token } = await newTenant(t);
    await fund(t, token, 1_000);
    const created = await api(t, token, 'POST', '/v1/payouts', { amount: 400, currency: 'EUR', destination: 'acct-1' });
    assert.equal(created.status, 201);
    // The loop ticks every second of real time; wait for its effect, not for a duration.
    let state = 'pending';
    await until(async () => {
      state = (await api(t, token, 'GET', `/v1/payouts/${created.body.id}`)).body.state;
      return state !== 'pending';
    }, 5_000, 'the payout leaving pending');
    assert.equal(state, 'paid');
  });
});
