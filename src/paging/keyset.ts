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
import type { DatabaseKind } from '../config.ts';
import type { Db } from '../platform/db/database.ts';
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

/** The values of `columns` of a `T` row, in that order: how a page read returns each row. */
export type ColumnValues<T, C extends readonly (keyof T)[]> = { -readonly [K in keyof C]: C[K] extends keyof T ? T[C[K]] : never };

/**
 * A collection's page query compiled once per page size: pages are read on every request, and
 * building and compiling the query anew costs more than SQLite takes to run it. `scoped` is the
 * collection's query, selecting exactly `columns` in that order, with placeholders for its
 * scope values (e.g. `where('account_id', '=', '')`); a read fills them in the order they
 * appear in it. The page size is compiled in, as a literal or a parameter as the dialect writes
 * it (SQLite's is a literal: a bound LIMIT would make it prepare the statement again).
 *
 * The page comes back as one JSON value, an array of row arrays, built by the database: the
 * drivers spend more turning each of a page's ~800 column values into a JavaScript value than
 * the database spends reading them, and one string through JSON.parse costs a fraction of that.
 * The rows stay arrays (ColumnValues), which the collections' JSON writers destructure.
 */
export interface KeysetRead<Row extends readonly unknown[]> {
  columns: readonly string[];
  order: KeysetOrder;
  /** How many scope values the query takes. */
  scopeSize: number;
  /** The first-page and after-a-position queries that read `take` rows. */
  queries(take: number): { first: CompiledQuery; after: CompiledQuery };
  /** Where the sort key and the id are in a row. */
  sortIndex: number;
  idIndex: number;
  /** Only there to carry the row type. */
  readonly row?: Row;
}

// Stand-ins for the position while compiling, recognised in the compiled parameters.
const KEY_MARK = '\u0000keyset:key';
const ID_MARK = '\u0000keyset:id';

export function compileKeysetRead<DB, TB extends keyof DB, O, const C extends readonly (keyof O & string)[]>(
  kind: DatabaseKind,
  scoped: SelectQueryBuilder<DB, TB, O>,
  columns: C,
  order: KeysetOrder,
): KeysetRead<ColumnValues<O, C>> {
  const scopeSize = scoped.compile().parameters.length;
  const compiled = new Map<number, { first: CompiledQuery; after: CompiledQuery }>();
  function queries(take: number): { first: CompiledQuery; after: CompiledQuery } {
    let pair = compiled.get(take);
    if (!pair) {
      const first = keysetPage(scoped, order, undefined, take).compile();
      const after = keysetPage(scoped, order, { key: KEY_MARK, id: ID_MARK }, take).compile();
      // The SQL text places the scope's parameters first, then the position's.
      if (after.parameters[scopeSize] !== KEY_MARK || after.parameters[scopeSize + 1] !== ID_MARK) {
        throw new Error(`the keyset parameters of ${after.sql} are not where paging expects them`);
      }
      pair = { first: asJsonRows(kind, first, columns), after: asJsonRows(kind, after, columns) };
      compiled.set(take, pair);
    }
    return pair;
  }
  const names: readonly string[] = columns;
  const sortIndex = names.indexOf(unqualified(order.sortColumn));
  const idIndex = names.indexOf(unqualified(order.idColumn));
  if (sortIndex < 0 || idIndex < 0) throw new Error(`a page read must select ${order.sortColumn} and ${order.idColumn}`);
  return { columns, order, scopeSize, queries, sortIndex, idIndex };
}

/** `query` wrapped so that its rows come back as one JSON text: `[[col, …], …]` (`[]` for none). */
function asJsonRows(kind: DatabaseKind, query: CompiledQuery, columns: readonly string[]): CompiledQuery {
  for (const column of columns) if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`column ${column} cannot be read into a page`);
  const values = columns.map((column) => `"${column}"`).join(', ');
  const sql =
    kind === 'sqlite'
      ? `select json_group_array(json_array(${values})) as "rows" from (${query.sql})`
      : `select coalesce(json_agg(json_build_array(${values})), '[]')::text as "rows" from (${query.sql}) as "page"`;
  return { ...query, sql };
}

/**
 * The rows of one page of `read`: `scope` fills its placeholders, then the rows after `after`
 * (all when undefined), at most `take`.
 */
export async function selectKeysetPage<Row extends readonly unknown[]>(
  db: Db,
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
  const { rows } = await db.executeQuery<{ rows: string }>({ ...query, parameters });
  const page = JSON.parse(rows[0]!.rows) as Row[];
  for (const row of page) checkIntegers(row, read.columns);
  // The inner query chose the rows (ORDER BY then LIMIT); an aggregate keeps no promised order,
  // so they are put in order here, as the database compares them.
  const { sortIndex, idIndex } = read;
  const sign = read.order.direction === 'desc' ? -1 : 1;
  return page.sort((a, b) => sign * (compareStored(a[sortIndex], b[sortIndex]) || compareStored(a[idIndex], b[idIndex])));
}

/** Page columns hold integers, text and null; the JSON text must not have rounded an integer. */
function checkIntegers(row: readonly unknown[], columns: readonly string[]): void {
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`${columns[i]} ${value} is not a safe integer`);
  }
}

/** The position of `row` in `read`'s order, to seal into the next cursor. */
export function keysetPosition<Row extends readonly unknown[]>(read: KeysetRead<Row>, row: Row): CursorPosition {
  const key = row[read.sortIndex];
  const id = row[read.idIndex];
  if ((typeof key !== 'number' && typeof key !== 'string') || typeof id !== 'string') {
    throw new Error(`rows must carry ${read.order.sortColumn} and ${read.order.idColumn} to be paged`);
  }
  return { key, id };
}

/**
 * Orders two keyset values as both databases do: numbers by value, text bytewise (SQLite's
 * BINARY collation, PostgreSQL's "C" on the id columns), which for UTF-8 is code point order.
 */
export function compareStored(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareCodePoints(String(a), String(b));
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** UTF-16 puts surrogates (halves of code points above U+FFFF) below U+E000–U+FFFF; code points put them above. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

function unqualified(column: string): string {
  return column.slice(column.lastIndexOf('.') + 1);
}
