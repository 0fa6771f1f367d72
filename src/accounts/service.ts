/** Rules for accounts: creation and lookup. No HTTP here. */
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { AccountStore } from './store.ts';
import type { AccountRow } from './tables.ts';

export interface Account {
  id: string;
  object: 'account';
  name: string;
  created_at: string;
}

export function presentAccount(row: AccountRow): Account {
  return { id: row.id, object: 'account', name: row.name, created_at: toRfc3339(row.created_at) };
}

export function createAccounts(deps: { store: AccountStore; clock: Clock }) {
  const { store, clock } = deps;
  return {
    async create(input: { name: string }): Promise<Account> {
      const row: AccountRow = { id: newId('acct'), name: input.name.trim(), created_at: clock.now() };
      await store.insert(row);
      return presentAccount(row);
    },
    async get(id: string): Promise<Account> {
      const row = await store.find(id);
      if (!row) throw problem('account_not_found', { detail: `No account ${id}` });
      return presentAccount(row);
    },
    /** Throws account_not_found unless the account exists. */
    async require(id: string): Promise<AccountRow> {
      const row = await store.find(id);
      if (!row) throw problem('account_not_found', { detail: `No account ${id}` });
      return row;
    },
    store,
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
