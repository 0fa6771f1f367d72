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
import { sql, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../platform/db/database.ts';
import type { CursorPosition } from './cursor.ts';

export interface KeysetOrder {
  /** Column holding the sort key (e.g. `created_at`), qualified if the query joins. */
  sortColumn: string;
  /** Column holding the unique id that breaks ties. */
  idColumn: string;
  direction: 'asc' | 'desc';
}

/** Newest first by (created_at, id): the stated order of every /v1 collection. */
export const NEWEST_FIRST: KeysetOrder = { sortColumn: 'created_at', idColumn: 'id', direction: 'desc' };

/**
 * Restricts `query` to the rows after `after` in `order`, orders it, and limits it to `take`
 * rows. The caller has already scoped the query (account, filters).
 */
export function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
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
  return q.orderBy(sort, order.direction).orderBy(id, order.direction).limit(take);
}

/**
 * Runs `keysetPage` over `query`, which selects exactly `columns` in that order, and returns
 * the rows as objects keyed by `columns`. The rows travel as arrays (Database#selectArrays)
 * and become objects here, which costs a fraction of the driver building them.
 */
export async function selectKeysetPage<DB, TB extends keyof DB, Row>(
  database: Pick<Database, 'selectArrays'>,
  query: SelectQueryBuilder<DB, TB, Row>,
  columns: readonly (keyof Row & string)[],
  order: KeysetOrder,
  after: CursorPosition | undefined,
  take: number,
): Promise<Row[]> {
  const arrays = await database.selectArrays(keysetPage(query, order, after, take).compile());
  return arrays.map((values) => rowFrom(columns, values));
}

function rowFrom<Row>(columns: readonly (keyof Row & string)[], values: readonly unknown[]): Row {
  const row: Partial<Record<keyof Row, unknown>> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row as Row;
}

/** The position of `row` in `order`, to seal into the next cursor. */
export function positionOf(row: Record<string, unknown>, order: KeysetOrder): CursorPosition {
  const key = row[unqualified(order.sortColumn)];
  const id = row[unqualified(order.idColumn)];
  if ((typeof key !== 'number' && typeof key !== 'string') || typeof id !== 'string') {
    throw new Error(`rows must carry ${order.sortColumn} and ${order.idColumn} to be paged`);
  }
  return { key, id };
}

function unqualified(column: string): string {
  return column.slice(column.lastIndexOf('.') + 1);
}
