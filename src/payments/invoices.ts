/**
 * Invoices: created `open`, settled once. Settling is one atomic step (`… where state =
 * 'open'`), so two settles racing each other settle once and the other gets 409
 * `invoice_already_settled`; the settlement posts its ledger entries, credits the available
 * balance and records `invoice.settled`, all in the caller's transaction.
 */
import type { Db } from '../platform/db/database.ts';
import type { DatabaseKind } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import { jsonString, jsonStringOrNull, pageJson, type Paging } from '../paging/page.ts';
import { NEWEST_FIRST, compileKeysetRead, keysetPosition, selectKeysetPage, type ColumnValues } from '../paging/keyset.ts';
import { creditBalance, post } from './ledger.ts';
import type { InvoiceRow, InvoiceState } from './tables.ts';

export interface Invoice {
  id: string;
  object: 'invoice';
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  state: InvoiceState;
  created_at: string;
  settled_at: string | null;
}

export interface NewInvoice {
  amount: number;
  currency: string;
  description?: string | undefined;
  metadata?: Record<string, string> | undefined;
}

export function presentInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    object: 'invoice',
    amount: row.amount,
    currency: row.currency,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    state: row.state,
    created_at: toRfc3339(row.created_at),
    settled_at: row.settled_at === null ? null : toRfc3339(row.settled_at),
  };
}

/** What a page of invoices reads of each row: what presentInvoice shows, in select order. */
export const INVOICE_PAGE_COLUMNS = ['id', 'amount', 'currency', 'description', 'metadata', 'state', 'created_at', 'settled_at'] as const;
export type InvoicePageRow = ColumnValues<InvoiceRow, typeof INVOICE_PAGE_COLUMNS>;

/**
 * The JSON text of presentInvoice(row) as the response schema serializes it, written directly
 * for pages. `metadata` goes in as stored: create writes it with JSON.stringify of the object,
 * so the stored text is exactly the JSON that parsing and serializing it again would give.
 */
export function invoiceJson([id, amount, currency, description, metadata, state, createdAt, settledAt]: InvoicePageRow): string {
  return (
    `{"id":${jsonString(id)},"object":"invoice","amount":${amount},"currency":${jsonString(currency)}` +
    `,"description":${jsonStringOrNull(description)},"metadata":${metadata},"state":${jsonString(state)}` +
    `,"created_at":"${toRfc3339(createdAt)}","settled_at":${settledAt === null ? 'null' : `"${toRfc3339(settledAt)}"`}}`
  );
}

/** Cursors name the collection and its order; a new order needs a new name. */
export const INVOICES_ORDER = 'invoices:created_at.desc,id.desc';

export function createInvoices(deps: { db: Db; kind: DatabaseKind; clock: Clock; paging: Paging }) {
  const { db, kind, clock, paging } = deps;

  async function find(executor: Db, accountId: string, id: string): Promise<InvoiceRow | undefined> {
    return executor.selectFrom('invoices').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  const pageRead = compileKeysetRead(kind, db.selectFrom('invoices').select(INVOICE_PAGE_COLUMNS).where('account_id', '=', ''), INVOICE_PAGE_COLUMNS, NEWEST_FIRST);

  return {
    async create(trx: Db, accountId: string, input: NewInvoice): Promise<Invoice> {
      const now = clock.now();
      const row: InvoiceRow = {
        id: newTimeOrderedId('inv', now),
        account_id: accountId,
        amount: input.amount,
        currency: input.currency,
        description: input.description ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        state: 'open',
        created_at: now,
        settled_at: null,
      };
      await trx.insertInto('invoices').values(row).execute();
      return presentInvoice(row);
    },

    async get(accountId: string, id: string): Promise<Invoice> {
      const row = await find(db, accountId, id);
      if (!row) throw problem('invoice_not_found', { detail: `No invoice ${id}` });
      return presentInvoice(row);
    },

    async settle(trx: Db, accountId: string, id: string): Promise<Invoice> {
      const now = clock.now();
      const updated = await trx
        .updateTable('invoices')
        .set({ state: 'settled', settled_at: now })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('state', '=', 'open')
        .returningAll()
        .executeTakeFirst();
      if (!updated) {
        const existing = await find(trx, accountId, id);
        if (!existing) throw problem('invoice_not_found', { detail: `No invoice ${id}` });
        throw problem('invoice_already_settled', { detail: `Invoice ${id} was settled at ${toRfc3339(existing.settled_at ?? now)}` });
      }
      const money = { accountId, currency: updated.currency, amount: updated.amount, at: now };
      await post(trx, { ...money, debit: 'cash', credit: 'balance', source: { object: 'invoice', id } });
      await creditBalance(trx, money);
      await recordEvent(trx, { accountId, type: 'invoice.settled', object: 'invoice', objectId: id, state: 'settled', at: now });
      return presentInvoice(updated);
    },

    /** A page of the account's invoices, as the JSON text of the response. */
    async listJson(request: { accountId: string; limit: number | undefined; after: string | undefined }): Promise<string> {
      const page = await paging.read(request, {
        orderName: INVOICES_ORDER,
        fetch: (after, take) => selectKeysetPage(db, pageRead, [request.accountId], after, take),
        position: (row) => keysetPosition(pageRead, row),
      });
      return pageJson(page, invoiceJson);
    },
  };
}

export type Invoices = ReturnType<typeof createInvoices>;
