/**
 * Reading the ledger: `GET /v1/ledger/entries`, newest first, optionally narrowed to one
 * ledger account, one direction, one currency and a time range (collection-reads.ts).
 */
import type { Db } from '../platform/db/database.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { Paging } from '../paging/page.ts';
import { collectionReads, type CreatedRange } from './collection-reads.ts';
import type { Direction, LedgerAccount, LedgerEntryRow, Unrendered } from './tables.ts';

export interface LedgerEntry {
  id: string;
  object: 'ledger_entry';
  transaction_id: string;
  ledger_account: LedgerAccount;
  direction: Direction;
  /** Signed minor units: debits positive, credits negative; a transaction's entries sum to zero. */
  amount: number;
  currency: string;
  source: { object: 'invoice' | 'payout'; id: string };
  created_at: string;
}

export interface LedgerFilters extends CreatedRange {
  ledger_account?: LedgerAccount | undefined;
  direction?: Direction | undefined;
  currency?: string | undefined;
}

export const LEDGER_ACCOUNTS: readonly LedgerAccount[] = ['cash', 'balance', 'payouts_pending'];

/** The filters on columns, in the order their conditions are added to the read. */
const FILTER_COLUMNS = ['ledger_account', 'direction', 'currency'] as const satisfies readonly (keyof LedgerFilters)[];

export function presentLedgerEntry(row: Unrendered<LedgerEntryRow>): LedgerEntry {
  return {
    id: row.id,
    object: 'ledger_entry',
    transaction_id: row.transaction_id,
    ledger_account: row.ledger_account,
    direction: row.direction,
    amount: row.amount,
    currency: row.currency,
    source: { object: row.source_object, id: row.source_id },
    created_at: toRfc3339(row.created_at),
  };
}

export const LEDGER_ORDER = 'ledger_entries:created_at.desc,id.desc';

export function createLedgerEntries(deps: { db: Db; paging: Paging }) {
  const reads = collectionReads(deps, { table: 'ledger_entries', orderName: LEDGER_ORDER, columns: FILTER_COLUMNS });
  return {
    /** A page of the account's ledger entries, narrowed by `filters`, as the JSON text of the response. */
    listJson: (request: { accountId: string; limit: number | undefined; after: string | undefined; filters: LedgerFilters }): Promise<string> => reads.listJson(request),
  };
}

export type LedgerEntries = ReturnType<typeof createLedgerEntries>;
