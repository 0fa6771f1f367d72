/**
 * Pages are the stored representations of their rows joined (payments/tables.ts): every
 * writer stores JSON.stringify of the presenter, migration 0202 rendered the rows that existed
 * before in SQL, and a page must be byte for byte the objects GET answers for its rows.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { databaseTargets, migratorFor } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { presentInvoice } from '../../src/payments/invoices.ts';
import { presentPayout } from '../../src/payments/payouts.ts';
import { presentLedgerEntry } from '../../src/payments/ledger-entries.ts';
import type { InvoiceRow, LedgerEntryRow, PayoutRow, Unrendered } from '../../src/payments/tables.ts';
import { NEWEST_FIRST } from '../../src/paging/keyset.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';

const instant = fc.integer({ min: 0, max: 253_402_300_799_999 });
const text = fc.string({ unit: 'binary', maxLength: 40 });

describe('positions read from representations', () => {
  it('NEWEST_FIRST.positionOf gives back the stored created_at and id of any row', () => {
    fc.assert(
      fc.property(text, instant, fc.option(instant), (id, createdAt, settledAt) => {
        const row: Unrendered<InvoiceRow> = {
          id,
          account_id: 'acct_x',
          amount: 1,
          currency: 'EUR',
          description: null,
          metadata: '{}',
          state: settledAt === null ? 'open' : 'settled',
          created_at: createdAt,
          settled_at: settledAt,
        };
        assert.deepEqual(NEWEST_FIRST.positionOf(JSON.stringify(presentInvoice(row))), { key: createdAt, id });
      }),
      { numRuns: 3000 },
    );
  });
});

/** Text every writer may be given: quotes, backslashes, control characters, non-BMP (no NUL, which PostgreSQL text cannot hold). */
const awkwardText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('say "hi" \\ back', 'a\nb\tc\u0001\b\f\r\u001f', 'Zoë ✓ 𝄞 \u2028 \u007f', ''),
);

for (const target of databaseTargets()) {
  describe(`migration 0202 (${target.kind})`, () => {
    it('renders the rows stored before it exactly as the presenters do', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        const before0202 = await migrator.migrateTo('0201_ledger_without_transaction_index');
        assert.equal(before0202.error, undefined);
        await database.db.insertInto('accounts').values({ id: 'acct_m', name: 'M', created_at: 1 }).execute();
        const samples = fc.sample(fc.tuple(awkwardText, fc.option(awkwardText), fc.dictionary(awkwardText, awkwardText, { maxKeys: 3 }), instant, fc.option(instant), fc.integer({ min: 1 })), 40);
        const invoices: Unrendered<InvoiceRow>[] = [];
        const payouts: Unrendered<PayoutRow>[] = [];
        const entries: Unrendered<LedgerEntryRow>[] = [];
        samples.forEach(([word, maybe, metadata, at, later, amount], i) => {
          invoices.push({ id: `inv_${i}`, account_id: 'acct_m', amount, currency: 'EUR', description: maybe, metadata: JSON.stringify(metadata), state: later === null ? 'open' : 'settled', created_at: at, settled_at: later });
          payouts.push({ id: `po_${i}`, account_id: 'acct_m', amount, currency: 'USD', destination: word, state: later === null ? 'pending' : 'failed', failure_code: maybe, created_at: at, due_at: at, processed_at: later });
          entries.push({ id: `le_${i}`, account_id: 'acct_m', transaction_id: `ltx_${word}`, ledger_account: 'cash', direction: i % 2 ? 'debit' : 'credit', amount: i % 2 ? amount : -amount, currency: 'EUR', source_object: 'payout', source_id: word, created_at: at });
        });
        // Written without their representations, as the schema before 0202 had none.
        const before = database.db.withoutPlugins() as unknown as Kysely<Record<string, Record<string, unknown>>>;
        await before.insertInto('invoices').values(invoices as never).execute();
        await before.insertInto('payouts').values(payouts as never).execute();
        await before.insertInto('ledger_entries').values(entries as never).execute();
        await migrateToLatest(database);
        const stored = {
          invoices: await database.db.selectFrom('invoices').selectAll().orderBy('id').execute(),
          payouts: await database.db.selectFrom('payouts').selectAll().orderBy('id').execute(),
          entries: await database.db.selectFrom('ledger_entries').selectAll().orderBy('id').execute(),
        };
        assert.equal(stored.invoices.length, samples.length);
        for (const row of stored.invoices) assert.equal(row.representation, JSON.stringify(presentInvoice(row)), row.id);
        for (const row of stored.payouts) assert.equal(row.representation, JSON.stringify(presentPayout(row)), row.id);
        for (const row of stored.entries) assert.equal(row.representation, JSON.stringify(presentLedgerEntry(row)), row.id);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });

 describe(`pages as written text (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    /** The page's body as text, its parsed data, and its content type. */
    async function page(token: string, path: string): Promise<{ text: string; data: unknown[]; contentType: string | null }> {
      const response = await fetch(t.publicUrl + path, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200);
      const text = await response.text();
      return { text, data: (JSON.parse(text) as { data: unknown[] }).data, contentType: response.headers.get('content-type') };
    }

    it('every collection page is byte for byte the objects GET answers for its rows, in order, with next_cursor', async () => {
      const { token, accountId } = await newTenant(t);
      const awkward = {
        '10': 'ten',
        '2': 'two',
        quote: 'say "hi" \\ back',
        lines: 'a\nb\tc\u0001',
        unicode: 'Zoë ✓ 𝄞 \u2028',
        empty: '',
      };
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 700, currency: 'EUR', description: 'He said "no"\n', metadata: awkward });
      assert.equal(created.status, 201);
      t.clock.advance(1);
      await fund(t, token, 5_000);
      t.clock.advance(1);
      const payout = await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'test_fail_x' });
      assert.equal(payout.status, 201);
      t.clock.advance(60_000);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      await api(t, token, 'POST', '/v1/payouts', { amount: 1_200, currency: 'EUR', destination: 'acct-good' });

      for (const [path, one] of [
        ['/v1/invoices', (id: string) => `/v1/invoices/${id}`],
        ['/v1/payouts', (id: string) => `/v1/payouts/${id}`],
      ] as const) {
        const first = await page(token, `${path}?limit=1`);
        const whole = await page(token, `${path}?limit=100`);
        assert.equal(whole.contentType, 'application/json; charset=utf-8');
        assert.ok(whole.data.length >= 2, path);
        const singles = [];
        for (const row of whole.data as Array<{ id: string }>) {
          const response = await fetch(t.publicUrl + one(row.id), { headers: { authorization: `Bearer ${token}` } });
          singles.push(await response.text());
        }
        assert.equal(whole.text, `{"data":[${singles.join(',')}],"next_cursor":null}`);
        const next = (JSON.parse(first.text) as { next_cursor: string }).next_cursor;
        assert.equal(first.text, `{"data":[${singles[0]}],"next_cursor":${JSON.stringify(next)}}`);
      }
      const stored = await t.gatehouse.database.db.selectFrom('invoices').select('metadata').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(stored.metadata), awkward);

      const ledger = await page(token, '/v1/ledger/entries?limit=100');
      assert.equal(ledger.contentType, 'application/json; charset=utf-8');
      const entries = await t.gatehouse.database.db
        .selectFrom('ledger_entries')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      assert.ok(entries.length >= 4);
      assert.equal(ledger.text, JSON.stringify({ data: entries.map(presentLedgerEntry), next_cursor: null }));
    });
  });
}
