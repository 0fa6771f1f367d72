/** Writes invoices straight into the store, for paging tests that need many rows or chosen instants. */
import type { Db } from '../../src/platform/db/database.ts';
import { newId } from '../../src/platform/ids.ts';
import { storedInvoice } from '../../src/payments/invoices.ts';

export async function insertInvoices(db: Db, accountId: string, createdAts: readonly number[]): Promise<string[]> {
  const rows = createdAts.map((created_at) => storedInvoice({
    id: newId('inv'),
    account_id: accountId,
    amount: 100,
    currency: 'EUR',
    description: null,
    metadata: '{}',
    state: 'open' as const,
    created_at,
    settled_at: null,
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('invoices').values(rows.slice(i, i + 500)).execute();
  return rows.map((r) => r.id);
}

/** The stated order: newest first by (created_at, id), compared as the database compares text (bytewise). */
export function newestFirst(a: { created_at: number; id: string }, b: { created_at: number; id: string }): number {
  if (a.created_at !== b.created_at) return b.created_at - a.created_at;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
