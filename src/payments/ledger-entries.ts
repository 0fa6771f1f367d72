/**
 * Reading the ledger: `GET /v1/ledger/entries`, newest first, optionally narrowed to one
 * ledger account, one direction and one currency. The filters are part of the cursor
 * (through its filter fingerprint), so a cursor continues only the read it came from.
 */
import type { Database, Db } from '../platform/db/database.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { pageJson, type Paging } from '../paging/page.ts';
import { NEWEST_FIRST, selectKeysetPage } from '../paging/keyset.ts';
import type { Direction, LedgerAccount, LedgerEntryRow } from './tables.ts';

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

export interface LedgerFilters {
  ledger_account?: LedgerAccount | undefined;
  direction?: Direction | undefined;
  currency?: string | undefined;
}

export const LEDGER_ACCOUNTS: readonly LedgerAccount[] = ['cash', 'balance', 'payouts_pending'];

export function presentLedgerEntry(row: LedgerEntryRow): LedgerEntry {
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

/** What a page of ledger entries reads of each row: what presentLedgerEntry shows, in select order. */
const PAGE_COLUMNS = ['id', 'transaction_id', 'ledger_account', 'direction', 'amount', 'currency', 'source_object', 'source_id', 'created_at'] as const;
export type LedgerEntryPageRow = Pick<LedgerEntryRow, (typeof PAGE_COLUMNS)[number]>;

/** The JSON text of presentLedgerEntry(row) as the response schema serializes it, written directly for pages. */
export function ledgerEntryJson(row: LedgerEntryPageRow): string {
  return (
    `{"id":${JSON.stringify(row.id)},"object":"ledger_entry","transaction_id":${JSON.stringify(row.transaction_id)}` +
    `,"ledger_account":${JSON.stringify(row.ledger_account)},"direction":${JSON.stringify(row.direction)},"amount":${row.amount}` +
    `,"currency":${JSON.stringify(row.currency)},"source":{"object":${JSON.stringify(row.source_object)},"id":${JSON.stringify(row.source_id)}}` +
    `,"created_at":"${toRfc3339(row.created_at)}"}`
  );
}

export const LEDGER_ORDER = 'ledger_entries:created_at.desc,id.desc';

export function createLedgerEntries(deps: { db: Db; database: Pick<Database, 'selectArrays'>; paging: Paging }) {
  const { db, database, paging } = deps;
  return {
    /** A page of the account's ledger entries, narrowed by `filters`, as the JSON text of the response. */
    async listJson(request: { accountId: string; limit: number | undefined; after: string | undefined; filters: LedgerFilters }): Promise<string> {
      const { filters } = request;
      let scoped = db.selectFrom('ledger_entries').select(PAGE_COLUMNS).where('account_id', '=', request.accountId);
      if (filters.ledger_account) scoped = scoped.where('ledger_account', '=', filters.ledger_account);
      if (filters.direction) scoped = scoped.where('direction', '=', filters.direction);
      if (filters.currency) scoped = scoped.where('currency', '=', filters.currency);
      const page = await paging.read(
        { ...request, filters: { ...filters } },
        {
          orderName: LEDGER_ORDER,
          order: NEWEST_FIRST,
          fetch: (after, take) => selectKeysetPage(database, scoped, PAGE_COLUMNS, NEWEST_FIRST, after, take),
        },
      );
      return pageJson(page, ledgerEntryJson);
    },
  };
}

export type LedgerEntries = ReturnType<typeof createLedgerEntries>;
