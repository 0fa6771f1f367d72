/**
 * Users of an account: the people who sign in at the login page (OAuth) and whom identity
 * providers provision (SCIM). `user_name_lower` enforces case-insensitive uniqueness of
 * userName within an account; `attributes` holds the multi-valued SCIM attributes as JSON.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { UserRow } from './tables.ts';

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

export function createUserStore(db: Db) {
  return {
    async insert(row: UserRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
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
