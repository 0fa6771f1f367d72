/**
 * What differs between SQLite and PostgreSQL, asked of one object (as Kysely asks its
 * `DialectAdapter`), so capability code says what it needs and never branches on a name.
 * A database carries its dialect (`Database.dialect`); code handed only an executor (a
 * transaction, say) finds it with `dialectOf`.
 *
 * The two differ in three ways that shape the code:
 *
 * - Locking. Every SQLite write transaction begins IMMEDIATE and holds the file's one write
 *   lock until it ends (`writesOneAtATime`): row locks have nothing to add, and queries read
 *   to be written are run as they are. PostgreSQL locks rows: `lockForWrite` and `skipLocked`
 *   say how a query locks what it reads.
 * - Statements. PostgreSQL runs several writes in one statement (data-modifying WITH clauses,
 *   `writableCtes`) and takes arrays as parameters; SQLite takes a list as one JSON text
 *   (`inList`), so the SQL text stays the same whatever the list's length. SQLite plans with a
 *   bound LIMIT's value, so a limit is written as a literal there (`limit`).
 * - Signals. PostgreSQL delivers NOTIFY to other processes on commit (`listenNotify`); SQLite
 *   has no such channel.
 *
 * Expressions and functions: `contains` (strpos/instr), `binaryOrder` (code-point order, which
 * SQLite's BINARY collation already is), `lowerCase` (SQLite's own lower() folds ASCII only, so
 * SQLite connections carry `js_lower`, JavaScript's toLowerCase: sqlite.ts), JSON arrays built in
 * SQL (`jsonArray`, `jsonArrayAgg`) and read back (`readJson`: pg parses json columns itself,
 * SQLite returns the text).
 */
import { postgresCatalog, sqliteCatalog, type Catalog } from './catalog.ts';
import { PostgresAdapter, sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface SqlDialect {
  /** For logs, metrics and export headers only: code asks the properties below. */
  readonly name: DatabaseKind;
  /** Every write transaction holds the database's one write lock (SQLite): writers queue, rows need no lock. */
  readonly writesOneAtATime: boolean;
  /** A transaction can signal other processes on commit (LISTEN/NOTIFY). */
  readonly listenNotify: boolean;
  /** Several writes can run in one statement, as data-modifying WITH clauses. */
  readonly writableCtes: boolean;
  /**
   * Each statement is a round trip to a server (PostgreSQL), so lookups that arrive together are
   * worth one statement between them; SQLite runs a statement in process, where a batch only waits.
   */
  readonly statementsTravel: boolean;
  /** Most values one statement may bind (PostgreSQL's protocol limit; SQLite's SQLITE_MAX_VARIABLE_NUMBER). */
  readonly maxParameters: number;
  /** How SQL text refers to the `n`th (from 1) bound value. */
  placeholder(n: number): string;
  /** `query` locking the rows it reads until the transaction ends, so no one else updates them meanwhile (key shares still pass). */
  lockForWrite<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** `query` keeping the rows it reads from changing until the transaction ends; others may share them, a `lockForWrite` waits. */
  lockForShare<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * `query` keeping the rows it reads from being deleted (or their keys changed) until the
   * transaction ends, for rows it is about to refer to: the lock a foreign key's check takes,
   * taken as the rows are read, so that a deletion committed in between is waited for and seen
   * rather than met by the check. Updates of the rows' other columns go on.
   */
  lockForReference<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * `query` locking the rows it reads as their deletion would: writes holding them for reference
   * (`lockForReference`) finish first, and those that come after wait and then see the rows as
   * this transaction leaves them. For a change that writes under way must not straddle.
   */
  lockOutReferences<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** `query` taking the rows it reads for update, passing over rows another transaction holds (concurrent workers take disjoint rows). */
  skipLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** The same, as SQL text closing a select written by hand (empty on SQLite). */
  readonly skipLockedClause: RawBuilder<unknown>;
  /** A LIMIT's count as the database plans best with it: a literal on SQLite, bound on PostgreSQL. */
  limit(count: number): RawBuilder<unknown>;
  /** `expression` is one of the text `values`, bound as one parameter whatever their number. */
  inList(expression: Expression<unknown>, values: readonly string[]): RawBuilder<SqlBool>;
  /** `expression` is none of the text `values`, bound as one parameter whatever their number. */
  notInList(expression: Expression<unknown>, values: readonly string[]): RawBuilder<SqlBool>;
  /** `text` contains `part` (case as stored). */
  contains(text: Expression<unknown>, part: unknown): RawBuilder<SqlBool>;
  /** `expression` compared and ordered by code point, whatever the database's collation. */
  binaryOrder(expression: Expression<unknown>): Expression<unknown>;
  /** Text `expression` in lower case, every letter folded; what it is compared with is lowered by it too, as PostgreSQL's lower() and JavaScript's toLowerCase differ on some letters (İ, a final Σ). */
  lowerCase(expression: Expression<unknown>): RawBuilder<unknown>;
  /** A JSON array of `values`. */
  jsonArray(...values: Expression<unknown>[]): RawBuilder<unknown>;
  /** The aggregate JSON array of `element` over a group's rows in `orderBy` order; `[]` for none. */
  jsonArrayAgg(element: Expression<unknown>, orderBy: Expression<unknown>): RawBuilder<unknown>;
  /** A JSON value as a query returns it, parsed. */
  readJson(value: unknown): unknown;
  /** What the database's own catalog says of the schema (tables, keys), for export and import. */
  readonly catalog: Catalog;
}

const nothing = sql``;

export const sqliteDialect: SqlDialect = Object.freeze({
  name: 'sqlite',
  writesOneAtATime: true,
  listenNotify: false,
  writableCtes: false,
  statementsTravel: false,
  maxParameters: 32_766,
  placeholder: () => '?',
  lockForWrite: (query) => query,
  lockForShare: (query) => query,
  lockForReference: (query) => query,
  lockOutReferences: (query) => query,
  skipLocked: (query) => query,
  skipLockedClause: nothing,
  limit: (count) => sql.lit(count),
  inList: (expression, values) => sql<SqlBool>`${expression} in (select value from json_each(${JSON.stringify(values)}))`,
  notInList: (expression, values) => sql<SqlBool>`${expression} not in (select value from json_each(${JSON.stringify(values)}))`,
  contains: (text, part) => sql<SqlBool>`(instr(${text}, ${part}) > 0)`,
  binaryOrder: (expression) => expression,
  lowerCase: (expression) => sql`js_lower(${expression})`,
  jsonArray: (...values) => sql`json_array(${sql.join(values)})`,
  jsonArrayAgg: (element, orderBy) => sql`json_group_array(${element} order by ${orderBy})`,
  readJson: (value) => (typeof value === 'string' ? JSON.parse(value) : value),
  catalog: sqliteCatalog,
} satisfies SqlDialect);

export const postgresDialect: SqlDialect = Object.freeze({
  name: 'postgres',
  writesOneAtATime: false,
  listenNotify: true,
  writableCtes: true,
  statementsTravel: true,
  maxParameters: 65_535,
  placeholder: (n) => `$${n}`,
  lockForWrite: (query) => query.forNoKeyUpdate(),
  lockForShare: (query) => query.forShare(),
  lockForReference: (query) => query.forKeyShare(),
  lockOutReferences: (query) => query.forUpdate(),
  skipLocked: (query) => query.forUpdate().skipLocked(),
  skipLockedClause: sql`for update skip locked`,
  limit: (count) => sql`${count}`,
  inList: (expression, values) => sql<SqlBool>`${expression} = any(${values}::text[])`,
  notInList: (expression, values) => sql<SqlBool>`${expression} <> all(${values}::text[])`,
  contains: (text, part) => sql<SqlBool>`(strpos(${text}, ${part}) > 0)`,
  binaryOrder: (expression) => sql`${expression} collate "C"`,
  lowerCase: (expression) => sql`lower(${expression})`,
  jsonArray: (...values) => sql`json_build_array(${sql.join(values)})`,
  jsonArrayAgg: (element, orderBy) => sql`coalesce(json_agg(${element} order by ${orderBy}), '[]'::json)`,
  readJson: (value) => value,
  catalog: postgresCatalog,
} satisfies SqlDialect);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only the adapter is read
type AnyKysely = Kysely<any>;

/** The dialect `executor` (a database or a transaction of it) speaks, read from its Kysely adapter. */
export function dialectOf(executor: AnyKysely): SqlDialect {
  return executor.getExecutor().adapter instanceof PostgresAdapter ? postgresDialect : sqliteDialect;
}
