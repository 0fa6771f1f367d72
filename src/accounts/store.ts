/** Accounts: the tenant every other object belongs to. A closed account stays as a tombstone (`deleted_at`). */
import type { Db } from '../platform/db/database.ts';
import type { CursorPosition } from '../paging/cursor.ts';
import { keysetPage } from '../paging/keyset.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { AccountRow } from './tables.ts';

/** Newest first by (created_at, id): the order of the account list and its cursors. */
/** An account is open until it is closed, which is final (closing.ts). */
export type AccountState = 'open' | 'closed';

export const ACCOUNTS_ORDER = { name: 'accounts:created_at.desc,id.desc', columns: { sortColumn: 'created_at', idColumn: 'id', direction: 'desc' } } as const;

/**
 * Whether the account is open, kept so until `trx` commits. A write whose credential was checked
 * before its transaction calls it first: closing an account (closing.ts) holds its row while it
 * finds nothing left in it, so a write that began before waits for it and then writes nothing
 * into the closed account, and a closing that begins after waits for the write and finds what
 * it wrote.
 */
export async function holdAccountOpen(trx: Db, accountId: string): Promise<boolean> {
  const account = await dialectOf(trx)
    .lockForShare(trx.selectFrom('accounts').select('id').where('id', '=', accountId).where('deleted_at', 'is', null))
    .executeTakeFirst();
  return account !== undefined;
}

export function createAccountStore(db: Db) {
  return {
    db,
    /** Inserts the account; `alongside` writes in the same transaction (its audit record). */
    async insert(row: AccountRow, alongside?: (trx: Db) => Promise<unknown>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values(row).execute();
        await alongside?.(trx);
      });
    },
    /** The open account `id` (a closed one is not found). */
    async find(id: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
    },
    /** The account `id`, open or closed (its tombstone). */
    async findEvenClosed(id: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The accounts in `state` after `after` in ACCOUNTS_ORDER, at most `take`. */
    async list(state: AccountState, after: CursorPosition | undefined, take: number): Promise<AccountRow[]> {
      const inState = db.selectFrom('accounts').selectAll().where('deleted_at', state === 'open' ? 'is' : 'is not', null);
      return keysetPage(inState, ACCOUNTS_ORDER.columns, after, take).execute();
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
