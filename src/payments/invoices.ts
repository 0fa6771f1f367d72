/**
 * Invoices: created `open`, settled once. Settling is one atomic step (`… where state =
 * 'open'`), so two settles racing each other settle once and the other gets 409
 * `invoice_already_settled`; the settlement posts its ledger entries, credits the available
 * balance and records `invoice.settled`, all in the caller's transaction.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { recordEvent } from '../webhooks/outbox.ts';
import type { Page, Paging } from '../paging/page.ts';
import { NEWEST_FIRST, keysetPage } from '../paging/keyset.ts';
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

/** Cursors name the collection and its order; a new order needs a new name. */
export const INVOICES_ORDER = 'invoices:created_at.desc,id.desc';

export function createInvoices(deps: { db: Db; clock: Clock; paging: Paging }) {
  const { db, clock, paging } = deps;

  async function find(executor: Db, accountId: string, id: string): Promise<InvoiceRow | undefined> {
    return executor.selectFrom('invoices').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  return {
    async create(trx: Db, accountId: string, input: NewInvoice): Promise<Invoice> {
      const row: InvoiceRow = {
        id: newId('inv'),
        account_id: accountId,
        amount: input.amount,
        currency: input.currency,
        description: input.description ?? null,
        metadata: JSON.stringify(input.metadata ?? {}),
        state: 'open',
        created_at: clock.now(),
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

    async list(request: { accountId: string; limit: number | undefined; after: string | undefined }): Promise<Page<Invoice>> {
      const page = await paging.read(request, {
        orderName: INVOICES_ORDER,
        order: NEWEST_FIRST,
        fetch: (after, take) =>
          keysetPage(db.selectFrom('invoices').selectAll().where('account_id', '=', request.accountId), NEWEST_FIRST, after, take).execute(),
      });
      return { rows: page.rows.map(presentInvoice), nextCursor: page.nextCursor };
    },
  };
}

export type Invoices = ReturnType<typeof createInvoices>;
