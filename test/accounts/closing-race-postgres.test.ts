/**
 * Closing an account while one of its invoices is being settled (PostgreSQL, where the two are
 * concurrent transactions): the settlement, past its token check before the account closed, must
 * not credit a closed account, where the money would be stranded with nobody left to pay it out.
 * The race is made by holding the account's balance row from another connection while the
 * closing and then the settlement queue on it, so that the closing goes first.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { closingAhead } from '../helpers/closing-ahead.ts';
import { api, fund, newTenant } from '../payments/api.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('closing an account while an invoice is settled (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!, { env: { GATEHOUSE_PAYOUT_DELAY: '1' } });
  });
  after(() => t?.close());

  it('the closing goes first: the settlement answers 404 and credits nothing; the closed account holds no money', async () => {
    const { accountId, token } = await newTenant(t);
    // A balance row at zero: funded, then paid out.
    await fund(t, token, 1_000);
    assert.equal((await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'iban:DE1' })).status, 201);
    t.clock.advance(2_000);
    await t.gatehouse.services.payoutProcessor.processDuePayouts();
    const invoice = await api(t, token, 'POST', '/v1/invoices', { amount: 500, currency: 'EUR' });
    assert.equal(invoice.status, 201);

    const { closed, written: settled } = await closingAhead(
      t,
      accountId,
      { rows: 'the balance', lock: 'select available from balances where account_id = $1 for update' },
      () => api(t, token, 'POST', `/v1/invoices/${invoice.body.id}/settle`),
    );
    assert.equal(closed.status, 204, JSON.stringify(closed.body));
    assert.equal(settled.status, 404, JSON.stringify(settled.body));
    assert.equal(settled.body.code, 'invoice_not_found');
    const db = t.gatehouse.database.db;
    const balance = await db.selectFrom('balances').select('available').where('account_id', '=', accountId).executeTakeFirstOrThrow();
    assert.equal(Number(balance.available), 0);
    const stored = await db.selectFrom('invoices').select('state').where('id', '=', invoice.body.id).executeTakeFirstOrThrow();
    assert.equal(stored.state, 'open');
    const entries = await db.selectFrom('ledger_entries').select('id').where('source_id', '=', invoice.body.id).execute();
    assert.deepEqual(entries, []);
  });
});
