/**
 * GET /v1/balance: what a payout may take now and what pending payouts hold, by currency, read
 * at one instant; /v1 routes that take no query refuse one rather than ignore it; an action
 * that takes no body accepts an empty one under a form content type (`curl -d ''`).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { api, fund, newTenant } from './api.ts';

for (const target of databaseTargets()) {
  describe(`GET /v1/balance (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    const balance = async (token: string) => {
      const response = await api(t, token, 'GET', '/v1/balance');
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      return response.body;
    };

    it('follows settlements and payouts: pending payouts are taken from available and given back when they fail', async () => {
      const { token, accountId } = await newTenant(t);
      assert.deepEqual(await balance(token), { object: 'balance', available: [], pending_payouts: [] });

      await fund(t, token, 10_000, 'EUR');
      await fund(t, token, 500, 'USD');
      const good = await api(t, token, 'POST', '/v1/payouts', { amount: 3_000, currency: 'EUR', destination: 'acct-good' });
      const bad = await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'test_fail_rejected' });
      assert.equal(good.status, 201);
      assert.equal(bad.status, 201);
      assert.deepEqual(await balance(token), {
        object: 'balance',
        available: [
          { currency: 'EUR', amount: 6_000 },
          { currency: 'USD', amount: 500 },
        ],
        pending_payouts: [{ currency: 'EUR', amount: 4_000, count: 2 }],
      });

      t.clock.advance(60_000);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      assert.deepEqual(await balance(token), {
        object: 'balance',
        available: [
          { currency: 'EUR', amount: 7_000 },
          { currency: 'USD', amount: 500 },
        ],
        pending_payouts: [],
      });

      // What the balance says is what a payout may take: all of it, and not a unit more.
      assert.equal((await api(t, token, 'POST', '/v1/payouts', { amount: 501, currency: 'USD', destination: 'acct-1' })).status, 422);
      assert.equal((await api(t, token, 'POST', '/v1/payouts', { amount: 500, currency: 'USD', destination: 'acct-1' })).status, 201);
      const after = await balance(token);
      assert.deepEqual(after.available, [{ currency: 'EUR', amount: 7_000 }, { currency: 'USD', amount: 0 }], 'a currency with a payout on its way is shown, at 0');
      assert.deepEqual(after.pending_payouts, [{ currency: 'USD', amount: 500, count: 1 }]);
      t.clock.advance(60_000);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      assert.deepEqual(await balance(token), { object: 'balance', available: [{ currency: 'EUR', amount: 7_000 }], pending_payouts: [] }, 'a currency holding nothing is left out');

      // The stored balance rows say the same.
      const stored = await t.gatehouse.database.db.selectFrom('balances').select(['currency', 'available']).where('account_id', '=', accountId).orderBy('currency').execute();
      assert.deepEqual(stored.map((r) => [r.currency, Number(r.available)]), [['EUR', 7_000], ['USD', 0]]);
    });

    it('another account\'s money is never shown; payouts:read is required (403 insufficient_scope)', async () => {
      const rich = await newTenant(t);
      await fund(t, rich.token, 9_999, 'GBP');
      const other = await newTenant(t);
      assert.deepEqual(await balance(other.token), { object: 'balance', available: [], pending_payouts: [] });
      const ledgerOnly = await mintAccessToken(t, { accountId: rich.accountId, scopes: ['ledger:read'] });
      const refused = await api(t, ledgerOnly, 'GET', '/v1/balance');
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'insufficient_scope');
    });

    it('a /v1 route that takes no query refuses one (400, naming it); nothing is written, and the key stays free', async () => {
      const { token } = await newTenant(t);
      await fund(t, token, 1_000);
      for (const [method, path, body] of [
        ['GET', '/v1/balance?currency=EUR', undefined],
        ['GET', '/v1/payouts/po_00000000000000000000?expand=destination', undefined],
        ['POST', '/v1/payouts?amount=999999', { amount: 1, currency: 'EUR', destination: 'acct-1' }],
      ] as const) {
        const response = await api(t, token, method, path, body);
        assert.equal(response.status, 400, path);
        assert.equal(response.body.code, 'validation_failed', path);
        assert.match(response.body.detail, /(currency|expand|amount) is not a member/, path);
        assert.equal(response.body.errors[0].in, 'query', path);
      }
      assert.deepEqual((await api(t, token, 'GET', '/v1/payouts')).body.data, []);
    });

    it('an action without a body under a form content type: empty → performed; with a body → 415, nothing done', async () => {
      const { token } = await newTenant(t);
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 700, currency: 'EUR' });
      const settle = (body: string) =>
        fetch(`${t.publicUrl}/v1/invoices/${created.body.id}/settle`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': `k-${body.length}`, 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const refused = await settle('confirm=true');
      assert.equal(refused.status, 415);
      const problem = (await refused.json()) as { code: string; detail: string };
      assert.equal(problem.code, 'unsupported_media_type');
      assert.match(problem.detail, /send the body as application\/json/);
      assert.equal((await api(t, token, 'GET', `/v1/invoices/${created.body.id}`)).body.state, 'open');
      const settled = await settle('');
      assert.equal(settled.status, 200);
      assert.equal(((await settled.json()) as { state: string }).state, 'settled');
    });
  });
}
