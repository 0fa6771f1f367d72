import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, fund, newTenant, readAll } from './api.ts';

for (const target of databaseTargets()) {
  describe(`ledger entries and collection reads (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_PAYOUT_DELAY: '0' } });
    });
    after(() => t.close());

    it('GET /v1/ledger/entries: double entry, newest first, filterable by ledger account, direction and currency', async () => {
      const { token } = await newTenant(t);
      const invoice = await fund(t, token, 2_000);
      t.clock.advance(1);
      await fund(t, token, 900, 'USD');
      t.clock.advance(1);
      const payout = await api(t, token, 'POST', '/v1/payouts', { amount: 500, currency: 'EUR', destination: 'acct-1' });
      t.clock.advance(1);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();

      const { rows } = await readAll(t, token, '/v1/ledger/entries', 3);
      assert.equal(rows.length, 8);
      const first = rows.find((r) => r.source.id === invoice && r.direction === 'debit');
      assert.deepEqual(Object.keys(first).sort(), ['amount', 'created_at', 'currency', 'direction', 'id', 'ledger_account', 'object', 'source', 'transaction_id']);
      assert.match(first.id, /^le_[0-9A-Za-z]{20}$/);
      assert.equal(first.object, 'ledger_entry');
      assert.deepEqual(first.source, { object: 'invoice', id: invoice });
      const sums = new Map<string, number>();
      for (const r of rows) sums.set(r.transaction_id, (sums.get(r.transaction_id) ?? 0) + r.amount);
      assert.equal(sums.size, 4);
      for (const sum of sums.values()) assert.equal(sum, 0);
      const instants = rows.map((r) => Date.parse(r.created_at));
      assert.deepEqual(instants, [...instants].sort((a, b) => b - a), 'newest first');
      assert.deepEqual(
        rows.filter((r) => r.source.id === payout.body.id).map((r) => `${r.ledger_account} ${r.direction} ${r.amount}`).sort(),
        ['balance debit 500', 'cash credit -500', 'payouts_pending credit -500', 'payouts_pending debit 500'],
      );

      const usd = await readAll(t, token, '/v1/ledger/entries?currency=USD', 100);
      assert.deepEqual(usd.rows.map((r) => `${r.ledger_account} ${r.amount}`).sort(), ['balance -900', 'cash 900']);
      const balanceCredits = await readAll(t, token, '/v1/ledger/entries?ledger_account=balance&direction=credit', 1);
      assert.deepEqual(balanceCredits.rows.map((r) => `${r.currency} ${r.amount}`).sort(), ['EUR -2000', 'USD -900']);
      const bad = await api(t, token, 'GET', '/v1/ledger/entries?currency=usd');
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'validation_failed');
      assert.equal(bad.body.detail, 'currency is not an accepted value (Only entries in this currency: its ISO 4217 code, upper case (e.g. EUR))');
    });

    it('every collection pages with {data, next_cursor}; payouts newest first', async () => {
      const { token } = await newTenant(t);
      await fund(t, token, 10_000);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1);
        ids.push((await api(t, token, 'POST', '/v1/payouts', { amount: 10, currency: 'EUR', destination: `acct-${i}` })).body.id);
      }
      const payouts = await readAll(t, token, '/v1/payouts', 2);
      assert.equal(payouts.pages, 3);
      assert.deepEqual(payouts.rows.map((r) => r.id), ids.reverse());
      const invoices = await readAll(t, token, '/v1/invoices', 2);
      assert.equal(invoices.rows.length, 1);
    });

    it('invoices and payouts filter by state, every collection by creation time; a cursor continues only its own filters', async () => {
      const { token, accountId } = await newTenant(t);
      const start = t.clock.now();
      const settled = [await fund(t, token, 1_000), await fund(t, token, 1_000)];
      const open: string[] = [];
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1_000);
        open.push((await api(t, token, 'POST', '/v1/invoices', { amount: 10 + i, currency: 'EUR' })).body.id);
      }
      const payouts: string[] = [];
      for (let i = 0; i < 4; i++) {
        t.clock.advance(1_000);
        payouts.push((await api(t, token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: i === 0 ? 'test_fail-1' : `acct-${i}` })).body.id);
      }
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      t.clock.advance(1_000);
      const pending = (await api(t, token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'acct-late' })).body.id;

      const openRead = await readAll(t, token, '/v1/invoices?state=open', 2);
      assert.deepEqual(openRead.rows.map((r) => r.id), [...open].reverse());
      assert.equal(openRead.pages, 2);
      const settledRead = await readAll(t, token, '/v1/invoices?state=settled', 1);
      assert.deepEqual(new Set(settledRead.rows.map((r) => r.id)), new Set(settled));
      assert.ok(settledRead.rows.every((r) => r.state === 'settled'));

      const stored = await t.gatehouse.database.db.selectFrom('payouts').select(['id', 'state']).where('account_id', '=', accountId).orderBy('created_at', 'desc').execute();
      assert.deepEqual(stored.map((p) => p.state), ['pending', 'paid', 'paid', 'paid', 'failed']);
      assert.deepEqual((await readAll(t, token, '/v1/payouts?state=paid', 2)).rows.map((r) => r.id), payouts.slice(1).reverse());
      assert.deepEqual((await readAll(t, token, '/v1/payouts?state=failed', 2)).rows.map((r) => r.id), [payouts[0]]);
      assert.deepEqual((await readAll(t, token, '/v1/payouts?state=pending', 10)).rows.map((r) => r.id), [pending]);

      // since inclusive, until exclusive, on the creation instant; two spellings of an instant are one read.
      const second = new Date(start + 2_000).toISOString();
      const fourth = new Date(start + 4_000).toISOString().replace('.000Z', '+00:00');
      const window = await readAll(t, token, `/v1/invoices?since=${encodeURIComponent(second)}&until=${encodeURIComponent(fourth)}`, 1);
      assert.deepEqual(window.rows.map((r) => r.id), [open[2], open[1]]);
      const ledgerWindow = await readAll(t, token, `/v1/ledger/entries?since=${encodeURIComponent(new Date(start + 5_000).toISOString())}&ledger_account=balance`, 10);
      // The failed payout's reversal was posted when it failed, inside the window.
      assert.deepEqual(ledgerWindow.rows.map((r) => r.source.id).sort(), [...payouts, pending].sort());

      const first = await api(t, token, 'GET', '/v1/invoices?state=open&limit=1');
      assert.equal(first.status, 200);
      const elsewhere = await api(t, token, 'GET', `/v1/invoices?state=settled&limit=1&after=${encodeURIComponent(first.body.next_cursor)}`);
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.body.code, 'cursor_mismatch');
      const unfiltered = await api(t, token, 'GET', `/v1/invoices?limit=1&after=${encodeURIComponent(first.body.next_cursor)}`);
      assert.equal(unfiltered.body.code, 'cursor_mismatch');

      const badState = await api(t, token, 'GET', '/v1/payouts?state=done');
      assert.equal(badState.status, 400);
      assert.equal(badState.body.code, 'validation_failed');
      const badInstant = await api(t, token, 'GET', '/v1/payouts?since=yesterday');
      assert.equal(badInstant.status, 400);
      assert.equal(badInstant.body.code, 'validation_failed');
      assert.equal(badInstant.body.detail, 'since must be an RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z');
      assert.deepEqual(badInstant.body.errors, [{ pointer: '#/since', in: 'query', detail: badInstant.body.detail }]);
    });

    it('a token without ledger:read → 403; another account sees none of the entries', async () => {
      const owner = await newTenant(t);
      await fund(t, owner.token, 100);
      const noScope = await newTenant(t, ['invoices:read', 'payouts:read']);
      const denied = await api(t, noScope.token, 'GET', '/v1/ledger/entries');
      assert.equal(denied.status, 403);
      assert.equal(denied.body.code, 'insufficient_scope');
      const other = await newTenant(t, ['ledger:read']);
      const list = await api(t, other.token, 'GET', '/v1/ledger/entries');
      assert.deepEqual(list.body, { data: [], next_cursor: null });
    });

    it('the OpenAPI document describes the collections, their paging and their objects', async () => {
      const doc = (await (await fetch(`${t.publicUrl}/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; responses: Record<string, unknown> }>>;
      };
      for (const path of ['/v1/invoices', '/v1/invoices/{id}', '/v1/invoices/{id}/settle', '/v1/payouts', '/v1/payouts/{id}', '/v1/ledger/entries']) {
        assert.ok(doc.paths[path], path);
      }
      const list = doc.paths['/v1/invoices']!.get!;
      assert.deepEqual(list.parameters!.map((p) => p.name).sort(), ['after', 'limit', 'since', 'state', 'until']);
      const text = JSON.stringify(doc.paths['/v1/payouts']!.post!.responses);
      assert.match(text, /insufficient|422/);
      assert.match(JSON.stringify(doc), /next_cursor/);
    });
  });
}
