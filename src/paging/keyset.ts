/**
 * Keyset pagination (Google AIP-158, as Stripe pages): rows are read in a total order over
 * (sort key, id), and each page continues strictly after the last row of the previous one.
 * Because the position is a value and not an offset, a row present for the whole read is
 * returned exactly once even while others are inserted or deleted, and a page a million rows
 * deep costs what the first page costs: the database seeks the index to the position.
 *
 * The position is compared as a row value, `(sort, id) < (?, ?)`, which both PostgreSQL and
 * SQLite turn into an index range on (…, sort, id); an OR of two comparisons would not be.
 * One more row than the page is fetched to learn whether another page exists.
 */
import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { selectColumn, type Db } from '../platform/db/database.ts';
import { preparedQuery, type Placeholder, type PreparedQuery } from '../platform/db/prepared.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { CursorPosition } from './cursor.ts';
import { pageJson, type JoinedRows, type PageRequest, type Paging } from './page.ts';

/** A total order over (sort key, id): what `keysetPage` restricts and orders by. */
export interface KeysetColumns {
  /** Column holding the sort key (e.g. `created_at`), qualified if the query joins. */
  sortColumn: string;
  /** Column holding the unique id that breaks ties. */
  idColumn: string;
  direction: 'asc' | 'desc';
}

/** The order of a collection of stored representations (see `keysetRead`). */
export interface KeysetOrder extends KeysetColumns {
  /** Where a row stands in this order, read back from its stored representation. */
  positionOf(representation: string): CursorPosition;
}

/** Newest first by (created_at, id): the stated order of every /v1 collection. */
export const NEWEST_FIRST: KeysetOrder = { sortColumn: 'created_at', idColumn: 'id', direction: 'desc', positionOf: createdAtPosition };

/**
 * Restricts `query` to the rows after `after` in `order`, orders it, and limits it to `take`
 * rows. The caller has already scoped the query (account, filters).
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetColumns,
  after: CursorPosition | undefined,
  take: number,
): SelectQueryBuilder<DB, TB, O> {
  const sort = sql.ref(order.sortColumn);
  const id = sql.ref(order.idColumn);
  let q = query;
  if (after) {
    const beyond = order.direction === 'desc' ? sql.raw('<') : sql.raw('>');
    q = q.where(sql<SqlBool>`(${sort}, ${id}) ${beyond} (${after.key}, ${after.id})`);
  }
  return q.orderBy(sort, order.direction).orderBy(id, order.direction).limit(pageSize(take));
}

/**
 * A page's LIMIT, written into the SQL text on both databases: a page query is compiled once per
 * page size anyway, and PostgreSQL plans a named statement with a bound LIMIT for a tenth of the
 * table, so it would find its generic plan dearer than a custom one and plan every run again
 * (planning cost it more than running the page's read). Only a whole number from the code is
 * ever written in.
 */
function pageSize(take: number): RawBuilder<number> {
  if (!Number.isSafeInteger(take) || take < 1) throw new Error(`a page takes a positive whole number of rows, not ${take}`);
  return sql.lit(take);
}

/**
 * A collection's page query compiled once per database and page size (see prepared.ts):
 * pages are read on every request, and building and compiling the query anew costs more than
 * SQLite takes to run it. `scoped` builds the collection's query, selecting only its rows'
 * stored `representation` (see payments/tables.ts), with placeholders for its scope values
 * (e.g. `where('account_id', '=', value('accountId'))`). The page size is compiled in as a
 * literal (`pageSize`).
 *
 * A page is its rows' stored texts, in order: nothing is converted per column, and the
 * response is those texts joined. (Reading a page's ~800 column values into JavaScript values
 * and writing them out again as JSON cost several times what the database takes to find them.)
 * SQLite hands the texts over one per row, straight from the statement; PostgreSQL joins them
 * itself and sends one row (`joinedQueries`), as decoding a hundred rows of its protocol cost
 * the driver more than the one text they make.
 */
export interface KeysetRead<S> {
  order: KeysetOrder;
  /** The first-page and after-a-position queries that read `take` rows, one text each. */
  queries(take: number): { first: PreparedQuery<S, unknown>; after: PreparedQuery<S & KeysetAfter, unknown> };
  /** The same reads for a page of `limit` rows (and one more), as one row of `JoinedRowsColumns`. */
  joinedQueries(limit: number): { first: PreparedQuery<S, JoinedRowsColumns>; after: PreparedQuery<S & KeysetAfter, JoinedRowsColumns> };
}

/** The position a page continues after, as the placeholders of the after-a-position query. */
interface KeysetAfter {
  keysetAfterKey: number | string;
  keysetAfterId: string;
}

/** The one row of a joined read: `JoinedRows` as columns (an empty read: no text joined, none last). */
export interface JoinedRowsColumns {
  found: number;
  joined: string | null;
  last: string | null;
}

/** The query of a collection's rows, as `keysetRead` builds it: representations only. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table of the schema
type ScopedQuery = SelectQueryBuilder<Tables, any, { representation: string }>;

export function keysetRead<S>(scoped: (db: Db, value: Placeholder<S>) => ScopedQuery, order: KeysetOrder): KeysetRead<S> {
  const compiled = new Map<number, { first: PreparedQuery<S, unknown>; after: PreparedQuery<S & KeysetAfter, unknown> }>();
  const joined = new Map<number, { first: PreparedQuery<S, JoinedRowsColumns>; after: PreparedQuery<S & KeysetAfter, JoinedRowsColumns> }>();
  const afterPosition = (value: Placeholder<S & KeysetAfter>): CursorPosition => ({ key: value('keysetAfterKey'), id: value('keysetAfterId') });
  function queries(take: number) {
    let pair = compiled.get(take);
    if (!pair) {
      pair = {
        first: preparedQuery<S>((db, value) => keysetPage(scoped(db, value), order, undefined, take)),
        after: preparedQuery<S & KeysetAfter>((db, value) => keysetPage(scoped(db, value as Placeholder<S>), order, afterPosition(value), take)),
      };
      compiled.set(take, pair);
    }
    return pair;
  }
  function joinedQueries(limit: number) {
    let pair = joined.get(limit);
    if (!pair) {
      pair = {
        first: preparedQuery<S, JoinedRowsColumns>((db, value) => joinRows(keysetPage(scoped(db, value), order, undefined, limit + 1), limit)),
        after: preparedQuery<S & KeysetAfter, JoinedRowsColumns>((db, value) => joinRows(keysetPage(scoped(db, value as Placeholder<S>), order, afterPosition(value), limit + 1), limit)),
      };
      joined.set(limit, pair);
    }
    return pair;
  }
  return { order, queries, joinedQueries };
}

/**
 * `rows` (a page of `limit` rows and one more, in `order`) as one row: how many there are, the
 * first `limit` texts joined by commas in that order, and the `limit`th text when one more
 * follows. The texts are gathered by an array constructor over the ordered read, whose elements
 * are the subquery's rows in the order its ORDER BY gives them, then joined and indexed as an
 * array. `offset 0` keeps the array a subquery of its own: pulled up, it would be read once for
 * each of the three columns. (Numbering the rows with a window function and joining them in an
 * ordered aggregate, which sorts its input again, cost PostgreSQL twice as much.)
 */
function joinRows(rows: ScopedQuery, limit: number) {
  const size = sql.lit(limit);
  return sql<JoinedRowsColumns>`select cardinality("page") as "found", array_to_string("page"[1:${size}], ',') as "joined", "page"[${size}] as "last" from (select array(${rows}) as "page" offset 0) as "keyset_page"`;
}

/**
 * One page of `read` as joined texts: `scope` fills its placeholders, then `limit` rows after
 * `after` (from the start when undefined), and whether one more follows.
 */
export async function selectKeysetRows<S>(db: Db, read: KeysetRead<S>, scope: S, after: CursorPosition | undefined, limit: number): Promise<JoinedRows> {
  const position = after === undefined ? undefined : { ...scope, keysetAfterKey: after.key, keysetAfterId: after.id };
  if (dialectOf(db).name === 'postgres') {
    const { first, after: next } = read.joinedQueries(limit);
    const { rows } = await (position === undefined ? first.execute(db, scope) : next.execute(db, position));
    const row = rows[0];
    return { found: row?.found ?? 0, joined: row?.joined ?? '', last: row?.last ?? undefined };
  }
  const { first, after: next } = read.queries(limit + 1);
  const texts = await selectColumn<string>(db, position === undefined ? first.bind(db, scope) : next.bind(db, position));
  if (texts.length <= limit) return { found: texts.length, joined: texts.join(','), last: undefined };
  return { found: texts.length, joined: texts.slice(0, limit).join(','), last: texts[limit - 1] };
}

/**
 * One page of a collection of stored representations, as the JSON text of the response: the
 * request's cursor opened against `orderName`, `read` run with `scope` for limit+1 rows, the
 * texts joined and the next cursor sealed at the last row's position.
 */
export async function keysetPageJson<S>(paging: Paging, db: Db, request: PageRequest, collection: { orderName: string; read: KeysetRead<S>; scope: S }): Promise<string> {
  const { orderName, read, scope } = collection;
  const page = await paging.readJoined(request, {
    orderName,
    fetch: (after, limit) => selectKeysetRows(db, read, scope, after, limit),
    position: read.order.positionOf,
  });
  return pageJson(page);
}

/**
 * Where a row stands by (created_at, id), read back from its representation: `created_at` there is
 * RFC 3339 with milliseconds, which Date.parse turns back into exactly the stored epoch
 * milliseconds, and `id` is the id. Only the last row of a page is parsed, to seal its position.
 */
function createdAtPosition(representation: string): CursorPosition {
  const { created_at: createdAt, id } = JSON.parse(representation) as { created_at?: unknown; id?: unknown };
  const key = typeof createdAt === 'string' ? Date.parse(createdAt) : Number.NaN;
  if (!Number.isSafeInteger(key) || typeof id !== 'string') throw new Error('a paged representation must carry created_at and id');
  return { key, id };
}
