/**
 * Invoices: created `open`, settled once. Settling is one atomic step (`… where state =
 * 'open'`), so two settles racing each other settle once and the other gets 409
 * `invoice_already_settled`; the settlement posts its ledger entries, credits the available
 * balance and records `invoice.settled`, all in the caller's transaction.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { invalidToken } from '../platform/auth.ts';
import { holdAccountOpen } from '../accounts/store.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { recordEvent } from '../events/outbox.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/record.ts';
import type { Paging } from '../paging/page.ts';
import { collectionReads, type CreatedRange } from './collection-reads.ts';
import { creditBalance, post } from './ledger.ts';
import type { InvoiceRow, InvoiceState, Unrendered } from './tables.ts';

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
  description?: string | null | undefined;
  metadata?: Record<string, string> | undefined;
}

export function presentInvoice(row: Unrendered<InvoiceRow>): Invoice {
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

/** The row as stored: its columns and its representation (see tables.ts). */
export function storedInvoice(row: Unrendered<InvoiceRow>): InvoiceRow {
  return { ...row, representation: JSON.stringify(presentInvoice(row)) };
}

/** What a read of the invoices may be narrowed to. */
export interface InvoiceFilters extends CreatedRange {
  state?: InvoiceState | undefined;
}

/** Cursors name the collection and its order; a new order needs a new name. */
export const INVOICES_ORDER = 'invoices:created_at.desc,id.desc';

export function createInvoices(deps: { db: Db; clock: Clock; paging: Paging }) {
  const { db, clock } = deps;

  async function find(executor: Db, accountId: string, id: string): Promise<InvoiceRow | undefined> {
    return executor.selectFrom('invoices').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  const reads = collectionReads(deps, { table: 'invoices', orderName: INVOICES_ORDER, columns: ['state'] });

  async function alreadySettled(executor: Db, accountId: string, id: string): Promise<never> {
    const existing = await find(executor, accountId, id);
    if (!existing) throw problem('invoice_not_found', { detail: `No invoice ${id}` });
    const at = existing.settled_at === null ? '' : ` at ${toRfc3339(existing.settled_at)}`;
    throw problem('invoice_already_settled', { detail: `Invoice ${id} was settled${at}` });
  }

  return {
    async create(trx: Db, accountId: string, input: NewInvoice, by?: AuditBy): Promise<Invoice> {
      // Its token was checked before this transaction; the account may have closed since.
      if (!(await holdAccountOpen(trx, accountId))) throw invalidToken();
      const now = clock.now();
      const row: Unrendered<InvoiceRow> = {
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
      const invoice = presentInvoice(row);
      await trx
        .insertInto('invoices')
        .values({ ...row, representation: JSON.stringify(invoice) })
        .execute();
      await recordAudit(trx, by, { accountId, action: 'invoice.created', target: { type: 'invoice', id: row.id }, changes: changesOf(null, { ...input, state: 'open' }), at: now });
      return invoice;
    },

    async get(accountId: string, id: string): Promise<Invoice> {
      const row = await find(db, accountId, id);
      if (!row) throw problem('invoice_not_found', { detail: `No invoice ${id}` });
      return presentInvoice(row);
    },

    async settle(trx: Db, accountId: string, id: string, by?: AuditBy): Promise<Invoice> {
      // Credited into a closed account, the money would be stranded with nobody to pay it out.
      if (!(await holdAccountOpen(trx, accountId))) throw problem('invoice_not_found', { detail: `No invoice ${id}` });
      const now = clock.now();
      const open = await find(trx, accountId, id);
      if (!open || open.state !== 'open') return alreadySettled(trx, accountId, id);
      const updated = { ...open, state: 'settled' as const, settled_at: now };
      const invoice = presentInvoice(updated);
      // Still open when written: of two settles racing, the second finds it settled here.
      const written = await trx
        .updateTable('invoices')
        .set({ state: updated.state, settled_at: now, representation: JSON.stringify(invoice) })
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(written.numUpdatedRows) !== 1) return alreadySettled(trx, accountId, id);
      const money = { accountId, currency: updated.currency, amount: updated.amount, at: now };
      await post(trx, { ...money, debit: 'cash', credit: 'balance', source: { object: 'invoice', id } });
      await creditBalance(trx, money);
      await recordEvent(trx, { accountId, type: 'invoice.settled', object: 'invoice', objectId: id, state: 'settled', data: invoice, at: now });
      await recordAudit(trx, by, { accountId, action: 'invoice.settled', target: { type: 'invoice', id }, changes: { state: { before: 'open', after: 'settled' } }, at: now });
      return invoice;
    },

    /** A page of the account's invoices, narrowed by `filters`, as the JSON text of the response. */
    listJson: (request: { accountId: string; limit: number | undefined; after: string | undefined; filters: InvoiceFilters }): Promise<string> => reads.listJson(request),
  };
}

export type Invoices = ReturnType<typeof createInvoices>;
