/**
 * The filtered reads of the /v1 collections (invoices, payouts, ledger entries): newest first,
 * narrowed by equality on some of the collection's columns (an invoice's or payout's `state`,
 * a ledger entry's account, direction and currency) and by when a row was created (`since`
 * inclusive, `until` exclusive, as the audit trail's read takes them). The filters are part of
 * the cursor through its filter fingerprint (page.ts), so a cursor continues only the read it
 * came from.
 *
 * A time range bounds the keyset index (account, created_at, id) at both ends, so it costs a
 * page whatever the collection's size. An equality filter is as cheap where an index leads
 * with (account, that column, created_at, id), as `state` has (migration 0204); one without
 * such an index is read along the account's index and skips what does not match.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Placeholder } from '../platform/db/prepared.ts';
import { queryTimeRange } from '../paging/time-range.ts';
import type { Paging } from '../paging/page.ts';
import { NEWEST_FIRST, keysetPageJson, keysetRead, type KeysetRead } from '../paging/keyset.ts';
import type { Tables } from '../platform/db/tables.ts';

/** When rows were created: RFC 3339 instants, `since` inclusive, `until` exclusive. */
export interface CreatedRange {
  since?: string | undefined;
  until?: string | undefined;
}

/** The query-string members of a creation-time range, for a collection route's schema. */
export const createdRangeQueryProperties = {
  since: { type: 'string', maxLength: 40, description: 'RFC 3339 date-time (e.g. 2026-11-01T00:00:00Z): only rows created at or after this instant' },
  until: { type: 'string', maxLength: 40, description: 'RFC 3339 date-time: only rows created before this instant' },
} as const;

type Collection = 'invoices' | 'payouts' | 'ledger_entries';
type Scope = Record<string, string | number>;

/**
 * The reads of `table` filtered by equality on `columns` and by creation time: one compiled read
 * per combination of filters given, compiled when first asked for.
 */
export function collectionReads<C extends string>(deps: { db: Db; paging: Paging }, collection: { table: Collection; orderName: string; columns: readonly C[] }) {
  const { db, paging } = deps;
  const { table, orderName, columns } = collection;
  const reads = new Map<string, KeysetRead<Scope>>();

  function readFor(given: readonly string[]): KeysetRead<Scope> {
    const name = given.join(',');
    let read = reads.get(name);
    if (!read) {
      read = keysetRead((db, value: Placeholder<Scope>) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one of three tables, each with these columns
        let scoped = (db.selectFrom(table) as SelectQueryBuilder<Tables, any, object>).select('representation').where('account_id', '=', value('account_id'));
        for (const column of given) {
          if (column === 'since') scoped = scoped.where('created_at', '>=', value('since'));
          else if (column === 'until') scoped = scoped.where('created_at', '<', value('until'));
          else scoped = scoped.where(column, '=', value(column));
        }
        return scoped as SelectQueryBuilder<Tables, Collection, { representation: string }>;
      }, NEWEST_FIRST);
      reads.set(name, read);
    }
    return read;
  }

  return {
    /** A page of the account's rows narrowed by `filters`, as the JSON text of the response. */
    async listJson(request: { accountId: string; limit: number | undefined; after: string | undefined; filters: Partial<Record<C, string | undefined>> & CreatedRange }): Promise<string> {
      const { filters } = request;
      const { since, until } = queryTimeRange(filters);
      const scope: Scope = { account_id: request.accountId };
      const given: string[] = [];
      for (const column of columns) {
        const value = filters[column];
        if (value === undefined) continue;
        scope[column] = value as string;
        given.push(column);
      }
      for (const [name, value] of [['since', since], ['until', until]] as const) {
        if (value === undefined) continue;
        scope[name] = value;
        given.push(name);
      }
      // The instants as read, so that two spellings of one instant are one read to the cursor.
      const { account_id: _account, ...fingerprinted } = scope;
      return keysetPageJson(paging, db, { ...request, filters: fingerprinted }, { orderName, read: readFor(given), scope });
    },
  };
}
