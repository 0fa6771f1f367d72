/**
 * Users of an account: the people who sign in at the login page (OAuth) and whom identity
 * providers provision (SCIM). `user_name_lower` enforces case-insensitive uniqueness of
 * userName within an account; `attributes` holds the multi-valued SCIM attributes as JSON.
 */
import type { Db } from '../platform/db/database.ts';

export interface UserTables {
  users: {
    id: string;
    account_id: string;
    user_name: string;
    user_name_lower: string;
    external_id: string | null;
    given_name: string | null;
    family_name: string | null;
    display_name: string | null;
    /** 1 active, 0 deactivated */
    active: number;
    /** argon2id PHC string, or null when the user cannot sign in with a password */
    password_hash: string | null;
    /** JSON text */
    attributes: string;
    version: number;
    created_at: number;
    updated_at: number;
  };
}

export type UserRow = UserTables['users'];

export function createUserStore(db: Db) {
  return {
    /** Inserts the person; `alongside` writes in the same transaction (its audit record). */
    async insert(row: UserRow, alongside?: (trx: Db) => Promise<unknown>): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(row).execute();
        await alongside?.(trx);
      });
    },
    async find(accountId: string, id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    },
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
