/**
 * Users of an account: the people who sign in at the login page (OAuth) and whom identity
 * providers provision (SCIM). `user_name_lower` enforces case-insensitive uniqueness of
 * userName within an account; `attributes` holds the multi-valued SCIM attributes as JSON.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { UserRow } from './tables.ts';
import { dialectOf } from '../platform/db/dialect.ts';

/** A database or a transaction of it: every capability reads users through these helpers. */
type Executor = Db | Transaction<Tables>;

/** The user `id` of `accountId`, read in `executor` (a transaction sees its own writes). */
export function findUser(executor: Executor, accountId: string, id: string): Promise<UserRow | undefined> {
  return executor.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** True when the user exists and is active (may sign in and hold tokens). */
export async function isUserActive(executor: Executor, accountId: string, id: string): Promise<boolean> {
  const row = await executor.selectFrom('users').select('active').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return row?.active === 1;
}

/**
 * The person's standing (active, password), their row held for share until the transaction ends
 * (PostgreSQL), for a write that issues them something: a deactivation, deletion or password
 * reset (each locks the person before it revokes what they hold) then waits for the write and
 * revokes what it issued, or, had it gone first, is seen here. Undefined when they are gone.
 */
export async function holdUser(trx: Executor, accountId: string, id: string): Promise<Pick<UserRow, 'active' | 'password_hash'> | undefined> {
  const query = trx.selectFrom('users').select(['active', 'password_hash']).where('account_id', '=', accountId).where('id', '=', id);
  return dialectOf(trx).lockForShare(query).executeTakeFirst();
}

/** `isUserActive`, the person held as `holdUser` holds them. */
export async function holdActiveUser(trx: Executor, accountId: string, id: string): Promise<boolean> {
  return (await holdUser(trx, accountId, id))?.active === 1;
}

export function createUserStore(db: Db) {
  return {
    /** Inserts the person; `alongside` writes in the same transaction (its audit record). */
    async insert(row: UserRow, alongside?: (trx: Db) => Promise<unknown>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(row).execute();
        await alongside?.(trx);
      });
    },
    find: (accountId: string, id: string): Promise<UserRow | undefined> => findUser(db, accountId, id),
    async findByUserName(accountId: string, userName: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_name_lower', '=', userName.toLowerCase())
        .executeTakeFirst();
    },
  };
}

export type UserStore = ReturnType<typeof createUserStore>;
