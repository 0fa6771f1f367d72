/**
 * Reading the ledger: `GET /v1/ledger/entries`, newest first, optionally narrowed to one
 * ledger account, one direction and one currency. The filters are part of the cursor
 * (through its filter fingerprint), so a cursor continues only the read it came from.
 */
import type { Db } from '../platform/db/database.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { Paging } from '../paging/page.ts';
import type { Placeholder } from '../platform/db/prepared.ts';
import { NEWEST_FIRST, keysetRead, keysetPageJson, type KeysetRead } from '../paging/keyset.ts';
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

export interface LedgerFilters {
  ledger_account?: LedgerAccount | undefined;
  direction?: Direction | undefined;
  currency?: string | undefined;
}

export const LEDGER_ACCOUNTS: readonly LedgerAccount[] = ['cash', 'balance', 'payouts_pending'];

/** The values a ledger read binds: the account and the filters given. */
type LedgerScope = Required<LedgerFilters> & { account_id: string };

/** The filters, in the order their conditions are added to the read. */
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
  const { db, paging } = deps;
  // One compiled read per combination of filters given, compiled when first asked for.
  const reads = new Map<string, KeysetRead<LedgerScope>>();

  /** The compiled read for `filters` and the values filling its placeholders. */
  function readFor(accountId: string, filters: LedgerFilters): { read: KeysetRead<LedgerScope>; scope: LedgerScope } {
    const given = FILTER_COLUMNS.filter((column) => filters[column] !== undefined);
    const name = given.join(',');
    let read = reads.get(name);
    if (!read) {
      read = keysetRead((db, value: Placeholder<LedgerScope>) => {
        let scoped = db.selectFrom('ledger_entries').select('representation').where('account_id', '=', value('account_id'));
        for (const column of given) scoped = scoped.where(column, '=', value(column));
        return scoped;
      }, NEWEST_FIRST);
      reads.set(name, read);
    }
    return { read, scope: { ...(filters as Required<LedgerFilters>), account_id: accountId } };
  }

  return {
    /** A page of the account's ledger entries, narrowed by `filters`, as the JSON text of the response. */
    async listJson(request: { accountId: string; limit: number | undefined; after: string | undefined; filters: LedgerFilters }): Promise<string> {
      const { filters } = request;
      const { read, scope } = readFor(request.accountId, filters);
      return keysetPageJson(paging, db, { ...request, filters: { ...filters } }, { orderName: LEDGER_ORDER, read, scope });
    },
  };
}

export type LedgerEntries = ReturnType<typeof createLedgerEntries>;
