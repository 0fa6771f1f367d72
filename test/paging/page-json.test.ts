/**
 * Pages are written as JSON text by each collection's writer instead of being serialized
 * against the response schema: the writers must give exactly the bytes the presenters and the
 * schema serializer give for the same rows, whatever the rows hold.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { INVOICE_PAGE_COLUMNS, invoiceJson, presentInvoice } from '../../src/payments/invoices.ts';
import { PAYOUT_PAGE_COLUMNS, payoutJson, presentPayout } from '../../src/payments/payouts.ts';
import { LEDGER_ENTRY_PAGE_COLUMNS, ledgerEntryJson, presentLedgerEntry } from '../../src/payments/ledger-entries.ts';
import type { InvoiceRow, LedgerEntryRow, PayoutRow } from '../../src/payments/tables.ts';
import { jsonString } from '../../src/paging/page.ts';
import { compareStored, type ColumnValues } from '../../src/paging/keyset.ts';

/** A stored row as a page read returns it: the values of `columns`, in order. */
function pageRow<T, const C extends readonly (keyof T)[]>(row: T, columns: C): ColumnValues<T, C> {
  return columns.map((column) => row[column]) as ColumnValues<T, C>;
}

const instant = fc.integer({ min: 0, max: 253_402_300_799_999 });
const text = fc.string({ unit: 'binary', maxLength: 40 });

describe('keyset order in JavaScript', () => {
  it('compareStored orders text as the databases do (bytewise UTF-8) and numbers by value', () => {
    const sign = (n: number) => Math.sign(n);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        assert.equal(sign(compareStored(a, b)), sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 5000 },
    );
    // A code point above U+FFFF sorts after U+E000-U+FFFF bytewise, though its UTF-16 surrogates sort before.
    assert.ok(compareStored('\u{1F600}', '\uFFFD') > 0 && '\u{1F600}' < '\uFFFD');
    fc.assert(fc.property(fc.maxSafeInteger(), fc.maxSafeInteger(), (a, b) => assert.equal(sign(compareStored(a, b)), sign(a - b))));
  });
});

describe('page row writers', () => {
  it('jsonString(s) is JSON.stringify(s) for any UTF-16 text, lone surrogates included', () => {
    const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 30 }).map((units) => String.fromCharCode(...units));
    fc.assert(
      fc.property(fc.oneof(codeUnits, fc.string({ unit: 'binary' }), fc.string()), (value) => {
        assert.equal(jsonString(value), JSON.stringify(value));
      }),
      { numRuns: 5000 },
    );
    for (const value of ['', '"', '\\', '\u0000', '\u001f', ' ', '\u007f', '\u2028', '\ud800', '\udfff', '\ud834\udd1e', 'inv_AbC123']) {
      assert.equal(jsonString(value), JSON.stringify(value));
    }
  });

  it('invoiceJson(row) is the JSON of presentInvoice(row), metadata included as stored', () => {
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.option(text),
        fc.dictionary(fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }), text, { maxKeys: 5 }),
        fc.constantFrom('open', 'settled'),
        instant,
        fc.option(instant),
        (id, amount, description, metadata, state, createdAt, settledAt) => {
          const row: InvoiceRow = {
            id,
            account_id: 'acct_x',
            amount,
            currency: 'EUR',
            description,
            metadata: JSON.stringify(metadata),
            state: state as InvoiceRow['state'],
            created_at: createdAt,
            settled_at: settledAt,
          };
          assert.equal(invoiceJson(pageRow(row, INVOICE_PAGE_COLUMNS)), JSON.stringify(presentInvoice(row)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('payoutJson(row) is the JSON of presentPayout(row)', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1 }), text, fc.constantFrom('pending', 'paid', 'failed'), fc.option(text), instant, fc.option(instant), (id, amount, destination, state, failureCode, createdAt, processedAt) => {
        const row: PayoutRow = {
          id,
          account_id: 'acct_x',
          amount,
          currency: 'USD',
          destination,
          state: state as PayoutRow['state'],
          failure_code: failureCode,
          created_at: createdAt,
          due_at: createdAt,
          processed_at: processedAt,
        };
        assert.equal(payoutJson(pageRow(row, PAYOUT_PAGE_COLUMNS)), JSON.stringify(presentPayout(row)));
      }),
      { numRuns: 2000 },
    );
  });

  it('ledgerEntryJson(row) is the JSON of presentLedgerEntry(row)', () => {
    fc.assert(
      fc.property(text, text, fc.integer(), fc.constantFrom('invoice', 'payout'), text, instant, (id, transactionId, amount, sourceObject, sourceId, createdAt) => {
        const row: LedgerEntryRow = {
          id,
          account_id: 'acct_x',
          transaction_id: transactionId,
          ledger_account: 'cash',
          direction: amount >= 0 ? 'debit' : 'credit',
          amount,
          currency: 'EUR',
          source_object: sourceObject as LedgerEntryRow['source_object'],
          source_id: sourceId,
          created_at: createdAt,
        };
        assert.equal(ledgerEntryJson(pageRow(row, LEDGER_ENTRY_PAGE_COLUMNS)), JSON.stringify(presentLedgerEntry(row)));
      }),
      { numRuns: 2000 },
    );
  });
});

for (const target of databaseTargets()) {
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
