import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, newTenant } from './api.ts';

for (const target of databaseTargets()) {
  describe(`invoices (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('POST /v1/invoices → 201 open invoice with Location; GET returns the same object', async () => {
      t.clock.set(Date.UTC(2031, 1, 2, 3, 4, 5, 678));
      const { token, accountId } = await newTenant(t);
      const created = await api(t, token, 'POST', '/v1/invoices', {
        amount: 12_50,
        currency: 'EUR',
        description: 'February retainer',
        metadata: { order: 'A-17' },
      });
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^inv_[0-9A-Za-z]{20}$/);
      assert.deepEqual(created.body, {
        id: created.body.id,
        object: 'invoice',
        amount: 1250,
        currency: 'EUR',
        description: 'February retainer',
        metadata: { order: 'A-17' },
        state: 'open',
        created_at: '2031-02-02T03:04:05.678Z',
        settled_at: null,
      });
      assert.equal(created.headers.get('location'), `/v1/invoices/${created.body.id}`);
      const fetched = await api(t, token, 'GET', `/v1/invoices/${created.body.id}`);
      assert.equal(fetched.status, 200);
      assert.deepEqual(fetched.body, created.body);
      const stored = await t.gatehouse.database.db.selectFrom('invoices').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.equal(stored.account_id, accountId);
      assert.equal(stored.amount, 1250);
      assert.equal(stored.state, 'open');
      // An invoice sent back as it was read (description null) is accepted.
      const { id: _id, object: _object, state: _state, created_at: _created, settled_at: _settled, ...echoed } = { ...created.body, description: null };
      const again = await api(t, token, 'POST', '/v1/invoices', echoed);
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.equal(again.body.description, null);
    });

    it('settle → 200 settled; ledger entries balance to zero; invoice.settled recorded; settling again → 409 invoice_already_settled', async () => {
      const { token, accountId } = await newTenant(t);
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 5000, currency: 'USD' });
      t.clock.advance(60_000);
      const settled = await api(t, token, 'POST', `/v1/invoices/${created.body.id}/settle`);
      assert.equal(settled.status, 200);
      assert.equal(settled.body.state, 'settled');
      assert.equal(settled.body.settled_at, new Date(t.clock.now()).toISOString());

      const db = t.gatehouse.database.db;
      const entries = await db.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId).execute();
      assert.equal(entries.length, 2);
      assert.equal(entries.reduce((sum, e) => sum + e.amount, 0), 0);
      assert.deepEqual(entries.map((e) => [e.ledger_account, e.direction, e.amount]).sort(), [
        ['balance', 'credit', -5000],
        ['cash', 'debit', 5000],
      ]);
      const balance = await db.selectFrom('balances').selectAll().where('account_id', '=', accountId).execute();
      assert.deepEqual(balance.map((b) => [b.currency, b.available]), [['USD', 5000]]);
      const events = await db.selectFrom('events').selectAll().where('account_id', '=', accountId).execute();
      assert.deepEqual(events.map((e) => [e.type, e.object, e.object_id, e.state]), [['invoice.settled', 'invoice', created.body.id, 'settled']]);
      assert.deepEqual(JSON.parse(events[0]!.payload), {
        event: 'invoice.settled',
        object: 'invoice',
        id: created.body.id,
        state: 'settled',
        created_at: new Date(t.clock.now()).toISOString(),
        data: settled.body,
      });

      const again = await api(t, token, 'POST', `/v1/invoices/${created.body.id}/settle`);
      assert.equal(again.status, 409);
      assert.match(again.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(again.body.code, 'invoice_already_settled');
      assert.equal((await db.selectFrom('ledger_entries').select('id').where('account_id', '=', accountId).execute()).length, 2);
      assert.equal((await db.selectFrom('balances').select('available').where('account_id', '=', accountId).executeTakeFirstOrThrow()).available, 5000);
    });

    it('settle retried with `{}` under the same Idempotency-Key is the same request as without a body: replayed, not refused as another', async () => {
      const { accountId, token } = await newTenant(t);
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 700, currency: 'EUR' });
      const key = 'settle-retry-with-empty-object';
      const settle = (body?: string) =>
        fetch(`${t.publicUrl}/v1/invoices/${created.body.id}/settle`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body,
        });
      const first = await settle();
      assert.equal(first.status, 200);
      const firstText = await first.text();
      for (const body of ['{}', ' { } ']) {
        const again = await settle(body);
        assert.equal(again.status, 200, body);
        assert.equal(again.headers.get('idempotent-replay'), 'true');
        assert.equal(await again.text(), firstText);
      }
      const postings = await t.gatehouse.database.db.selectFrom('ledger_entries').select('id').where('account_id', '=', accountId).execute();
      assert.equal(postings.length, 2, 'settled once: one debit, one credit');
    });

    it('two settles racing → exactly one 200 and one 409; one posting', async () => {
      const { token, accountId } = await newTenant(t);
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 700, currency: 'GBP' });
      const results = await Promise.all([1, 2, 3, 4].map(() => api(t, token, 'POST', `/v1/invoices/${created.body.id}/settle`)));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 409, 409, 409]);
      const entries = await t.gatehouse.database.db.selectFrom('ledger_entries').select('amount').where('account_id', '=', accountId).execute();
      assert.equal(entries.length, 2);
    });

    it('invalid bodies → 400 validation_failed, nothing stored', async () => {
      const { token, accountId } = await newTenant(t);
      const bad = [
        {},
        { amount: 0, currency: 'EUR' },
        { amount: -5, currency: 'EUR' },
        { amount: 10.5, currency: 'EUR' },
        { amount: '100', currency: 'EUR' },
        { amount: 100, currency: 'eur' },
        { amount: 100, currency: 'EURO' },
        { amount: 100, currency: 'XXX' },
        // A funds code is a unit of account, not money.
        { amount: 100, currency: 'CLF' },
        { amount: 100, currency: 'USN' },
        { amount: 100, currency: 'ABC' },
        { amount: 100, currency: 'EUR', metadata: { n: 1 } },
        { amount: 100, currency: 'EUR', surprise: true },
        { amount: 1e16, currency: 'EUR' },
      ];
      for (const body of bad) {
        const response = await api(t, token, 'POST', '/v1/invoices', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(response.body.code, 'validation_failed');
      }
      const stored = await t.gatehouse.database.db.selectFrom('invoices').select('id').where('account_id', '=', accountId).execute();
      assert.equal(stored.length, 0);
    });

    it('token without invoices:write → 403 insufficient_scope; without a token → 401', async () => {
      const { token } = await newTenant(t, ['invoices:read']);
      const response = await api(t, token, 'POST', '/v1/invoices', { amount: 100, currency: 'EUR' });
      assert.equal(response.status, 403);
      assert.equal(response.body.code, 'insufficient_scope');
      const reader = await newTenant(t, ['payouts:read']);
      const list = await api(t, reader.token, 'GET', '/v1/invoices');
      assert.equal(list.status, 403);
      assert.equal(list.body.code, 'insufficient_scope');
      const anonymous = await fetch(`${t.publicUrl}/v1/invoices`);
      assert.equal(anonymous.status, 401);
    });

    it("another account's invoice → 404 invoice_not_found, exactly as a missing one; it cannot be settled", async () => {
      const owner = await newTenant(t);
      const other = await newTenant(t);
      const created = await api(t, owner.token, 'POST', '/v1/invoices', { amount: 100, currency: 'EUR' });
      const foreign = await api(t, other.token, 'GET', `/v1/invoices/${created.body.id}`);
      const missing = await api(t, other.token, 'GET', '/v1/invoices/inv_00000000000000000000');
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.code, 'invoice_not_found');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'invoice_not_found');
      const settle = await api(t, other.token, 'POST', `/v1/invoices/${created.body.id}/settle`);
      assert.equal(settle.status, 404);
      const stored = await t.gatehouse.database.db.selectFrom('invoices').select('state').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.equal(stored.state, 'open');
      const list = await api(t, other.token, 'GET', '/v1/invoices');
      assert.deepEqual(list.body, { data: [], next_cursor: null });
    });
  });
}
