/** Accounts: the tenant every other object belongs to. */
import type { Db } from '../platform/db/database.ts';
import type { AccountRow } from './tables.ts';


export function createAccountStore(db: Db) {
  return {
    async insert(row: AccountRow): Promise<void> {
      await db.insertInto('accounts').values(row).execute();
    },
    async find(id: string): Promise<AccountRow | undefined> {
      return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Newest first by (created_at, id), after an optional keyset position. */
    async list(options: { limit: number; before?: { created_at: number; id: string } }): Promise<AccountRow[]> {
      let query = db.selectFrom('accounts').selectAll();
      const before = options.before;
      if (before) {
        query = query.where((eb) =>
          eb.or([
            eb('created_at', '<', before.created_at),
            eb.and([eb('created_at', '=', before.created_at), eb('id', '<', before.id)]),
          ]),
        );
      }
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
    },
  };
}

export type AccountStore = ReturnType<typeof createAccountStore>;
