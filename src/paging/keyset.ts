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
import { sql, type CompiledQuery, type SelectQueryBuilder, type SqlBool } from 'kysely';
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
 * A collection's page query compiled once per page size: pages are read on every request, and
 * building and compiling the query anew costs more than SQLite takes to run it. `scoped` is the
 * collection's query, selecting exactly `columns` in that order, with placeholders for its
 * scope values (e.g. `where('account_id', '=', '')`); a read fills them in the order they
 * appear in it. The page size is compiled in, as a literal or a parameter as the dialect
 * writes it (SQLite's is a literal: a bound LIMIT would make it prepare the statement again).
 */
export interface KeysetRead<Row> {
  columns: readonly (keyof Row & string)[];
  /** How many scope values the query takes. */
  scopeSize: number;
  /** The first-page and after-a-position queries that read `take` rows. */
  queries(take: number): { first: CompiledQuery; after: CompiledQuery };
}

// Stand-ins for the position while compiling, recognised in the compiled parameters.
const KEY_MARK = '\u0000keyset:key';
const ID_MARK = '\u0000keyset:id';

export function compileKeysetRead<DB, TB extends keyof DB, Row>(
  scoped: SelectQueryBuilder<DB, TB, Row>,
  columns: readonly (keyof Row & string)[],
  order: KeysetOrder,
): KeysetRead<Row> {
  const scopeSize = scoped.compile().parameters.length;
  const compiled = new Map<number, { first: CompiledQuery; after: CompiledQuery }>();
  return {
    columns,
    scopeSize,
    queries(take) {
      let pair = compiled.get(take);
      if (!pair) {
        pair = { first: keysetPage(scoped, order, undefined, take).compile(), after: keysetPage(scoped, order, { key: KEY_MARK, id: ID_MARK }, take).compile() };
        // The SQL text places the scope's parameters first, then the position's.
        if (pair.after.parameters[scopeSize] !== KEY_MARK || pair.after.parameters[scopeSize + 1] !== ID_MARK) {
          throw new Error(`the keyset parameters of ${pair.after.sql} are not where paging expects them`);
        }
        compiled.set(take, pair);
      }
      return pair;
    },
  };
}

/**
 * The rows of one page of `read`: `scope` fills its placeholders, then the rows after `after`
 * (all when undefined), at most `take`. The rows travel as arrays (Database#selectArrays) and
 * become objects keyed by the read's columns here, for a fraction of what the driver would spend.
 */
export async function selectKeysetPage<Row>(
  database: Pick<Database, 'selectArrays'>,
  read: KeysetRead<Row>,
  scope: readonly unknown[],
  after: CursorPosition | undefined,
  take: number,
): Promise<Row[]> {
  if (scope.length !== read.scopeSize) throw new Error(`this read takes ${read.scopeSize} scope values, not ${scope.length}`);
  const { first, after: next } = read.queries(take);
  const query = after === undefined ? first : next;
  const parameters = [...query.parameters];
  for (let i = 0; i < scope.length; i++) parameters[i] = scope[i];
  if (after !== undefined) [parameters[scope.length], parameters[scope.length + 1]] = [after.key, after.id];
  const arrays = await database.selectArrays({ ...query, parameters });
  return arrays.map((values) => rowFrom(read.columns, values));
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
