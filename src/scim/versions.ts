/**
 * SCIM versions (RFC 7643 §3.1): a resource's version changes whenever its representation does,
 * also when a write to another resource changes it (a user's `groups`, a group's `members`).
 * Users and groups count their versions up the same way and lock the rows they bump the same
 * way, so that writes of either kind meeting on the same rows take them in one order.
 */
import type { SelectQueryBuilder, Transaction } from 'kysely';
import type { SqlDialect } from '../platform/db/dialect.ts';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';

type Executor = Db | Transaction<Tables>;

/** The tables whose rows carry a SCIM `version` and `updated_at` (lastModified). */
export type VersionedTable = 'users' | 'scim_groups';

/** Rows to touch: their ids, or a query selecting them (one column of ids). */
export type RowIds = readonly string[] | SelectQueryBuilder<Tables, keyof Tables, Record<string, string>>;

/**
 * An update of an account's rows of `table` to the next version, last modified at `at` (or
 * later, if they already were: lastModified never goes back when the clock does). The version
 * counts up in SQL, from the stored one, so a row bumped by a concurrent write never gets the
 * same version twice.
 */
export function nextVersion(trx: Executor, table: VersionedTable, accountId: string, at: number) {
  return trx
    .updateTable(table)
    .set((eb) => ({
      version: eb('version', '+', 1),
      updated_at: eb.case().when('updated_at', '<', at).then(at).else(eb.ref('updated_at')).end(),
    }))
    .where('account_id', '=', accountId);
}

/**
 * Gives the rows `ids` selects the next version. On PostgreSQL they are locked first, in id
 * order (SQLite transactions already hold the database's write lock): two writes touching the
 * same rows then take them in one order and cannot deadlock on them, and the UPDATE, run with a
 * snapshot taken once the locks are held, finds every row locked by its own transaction and
 * waits for no one. (A single UPDATE locking through a subquery was seen to deadlock under
 * concurrent membership changes: it locks in whatever order its plan reads the rows.) The lock
 * query counts the rows rather than returning them. Ids given as a list are sorted and taken
 * 500 at a time, in that order.
 */
export async function touchInIdOrder(trx: Executor, dialect: SqlDialect, table: VersionedTable, accountId: string, ids: RowIds, at: number): Promise<void> {
  if (!isIdList(ids)) return touchLocked(trx, dialect, table, accountId, ids, at);
  const sorted = [...ids].sort();
  for (let i = 0; i < sorted.length; i += 500) await touchLocked(trx, dialect, table, accountId, sorted.slice(i, i + 500), at);
}

function isIdList(ids: RowIds): ids is readonly string[] {
  return Array.isArray(ids);
}

async function touchLocked(trx: Executor, dialect: SqlDialect, table: VersionedTable, accountId: string, ids: RowIds, at: number): Promise<void> {
  if (isIdList(ids) && ids.length === 0) return;
  if (!dialect.writesOneAtATime) {
    const locked = dialect.lockForWrite(trx.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', 'in', ids).orderBy('id'));
    await trx.selectFrom(locked.as('locked')).select((eb) => eb.fn.countAll().as('rows')).execute();
  }
  await nextVersion(trx, table, accountId, at).where('id', 'in', ids).execute();
}
