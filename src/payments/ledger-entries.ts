/**
 * Reading the ledger: `GET /v1/ledger/entries`, newest first, optionally narrowed to one
 * ledger account, one direction and one currency. The filters are part of the cursor
 * (through its filter fingerprint), so a cursor continues only the read it came from.
 */
import type { Db } from '../platform/db/database.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { Page, Paging } from '../paging/page.ts';
import { NEWEST_FIRST, keysetPage } from '../paging/keyset.ts';
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

export const LEDGER_ORDER = 'ledger_entries:created_at.desc,id.desc';

export function createLedgerEntries(deps: { db: Db; paging: Paging }) {
  const { db, paging } = deps;
  return {
    async list(request: { accountId: string; limit: number | undefined; after: string | undefined; filters: LedgerFilters }): Promise<Page<LedgerEntry>> {
      const { filters } = request;
      const page = await paging.read(
        { ...request, filters: { ...filters } },
        {
          orderName: LEDGER_ORDER,
          order: NEWEST_FIRST,
          fetch: (after, take) => {
            let query = db.selectFrom('ledger_entries').selectAll().where('account_id', '=', request.accountId);
            if (filters.ledger_account) query = query.where('ledger_account', '=', filters.ledger_account);
            if (filters.direction) query = query.where('direction', '=', filters.direction);
            if (filters.currency) query = query.where('currency', '=', filters.currency);
            return keysetPage(query, NEWEST_FIRST, after, take).execute();
          },
        },
      );
      return { rows: page.rows.map(presentLedgerEntry), nextCursor: page.nextCursor };
    },
  };
}

export type LedgerEntries = ReturnType<typeof createLedgerEntries>;
