/**
 * SQLite through better-sqlite3 (the release matched to the running Node, see
 * sqlite-driver.ts): one connection per process, every transaction IMMEDIATE
 * (taking the write lock up front, so two processes sharing a file never deadlock upgrading
 * a read lock to a write lock), WAL with checkpoints in a worker thread (checkpointer.ts),
 * prepared statements kept per SQL text, and integer LIMIT/OFFSET written as literals.
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  SqliteQueryCompiler,
  ValueNode,
  sql,
  type DatabaseConnection,
  type Driver,
  type LimitNode,
  type OffsetNode,
  type OperationNode,
  type QueryCompiler,
} from 'kysely';
import type { Database, DatabaseOptions, Db } from './database.ts';
import type { Tables } from './tables.ts';
import { sqliteDialect } from './dialect.ts';
import { PING_BOUND_MS, pingTimedOut, within } from './ping.ts';
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer } from './checkpointer.ts';
import { loadSqliteDriver } from './sqlite-driver.ts';

class ImmediateSqliteDriver extends SqliteDriver {
  /**
   * The single connection is handed to waiters first come, first served. Kysely's own mutex
   * wakes every waiter on each release (quadratic under load, and unfair: a request can
   * starve); with it uncontended behind this queue, each release wakes exactly one.
   */
  readonly #waiting: Array<() => void> = [];
  #held = false;

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#held = true;
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * LIMIT and OFFSET written as literals when they are integers. SQLite (built with STAT4, as
 * better-sqlite3 is) plans with the bound value of a LIMIT parameter, so binding one marks the
 * statement expired and every execution prepares it again: that costs more than the indexed
 * query itself. Integers cannot carry SQL, and the statement cache keeps one statement per
 * page size in use.
 */
class LiteralLimitSqliteQueryCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    if (!this.#appendInteger('limit ', node.limit)) super.visitLimit(node);
  }

  protected override visitOffset(node: OffsetNode): void {
    if (!this.#appendInteger('offset ', node.offset)) super.visitOffset(node);
  }

  #appendInteger(keyword: string, node: OperationNode): boolean {
    if (!ValueNode.is(node)) return false;
    const value: unknown = node.value;
    const integer = typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value));
    if (!integer) return false;
    this.append(`${keyword}${String(value)}`);
    return true;
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitSqliteQueryCompiler();
  }
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small indexed
 * query, so prepared statements are kept per SQL text (SQLite re-prepares them itself
 * after a schema change). Kysely only runs them to completion with all()/run(), one at a time.
 */
function withStatementCache(connection: BetterSqlite3.Database, size = 500) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  // Statements that return each row's first column alone (`pluck`, a mode a statement keeps).
  const columnCache = new Map<string, BetterSqlite3.Statement>();
  function cached(from: Map<string, BetterSqlite3.Statement>, sql: string, make: () => BetterSqlite3.Statement) {
    let statement = from.get(sql);
    if (statement === undefined) {
      statement = make();
      if (from.size >= size) from.delete(from.keys().next().value!);
      from.set(sql, statement);
    }
    return statement;
  }
  return {
    close: () => connection.close(),
    prepare: (sql: string) => cached(cache, sql, () => connection.prepare(sql)),
    selectColumn: (query: CompiledQuery): unknown[] =>
      cached(columnCache, query.sql, () => connection.prepare(query.sql).pluck()).all(query.parameters),
    runForEach: (text: string, rows: readonly (readonly unknown[])[]): void => {
      const statement = cached(cache, text, () => connection.prepare(text));
      for (const row of rows) statement.run(row);
    },
  };
}

/**
 * Each SQLite database's statements, reached past Kysely (see selectColumn and runForEach), by
 * the adapter the database and its transactions share: inside a transaction they run on its
 * connection as well.
 */
const sqliteStatements = new WeakMap<object, ReturnType<typeof withStatementCache>>();

/**
 * The first column of every row `query` returns, in order. On SQLite the values come straight
 * from the statement, without the object per row the driver makes (which costs more than
 * SQLite takes to read a short indexed range), on the connection held as for any other query,
 * so an open transaction's writes are never seen half done.
 */
export async function selectColumn<T>(db: Db, query: CompiledQuery): Promise<T[]> {
  const statements = sqliteStatements.get(db.getExecutor().adapter);
  if (statements !== undefined) return db.getExecutor().provideConnection(async () => statements.selectColumn(query) as T[]);
  const { rows } = await db.executeQuery<Record<string, T>>(query);
  return rows.map((row) => Object.values(row)[0]!);
}

/**
 * Runs the statement `text` once for each row of parameters, on the connection `executor`
 * holds (a transaction's, if it is one). SQLite only: a statement runs in-process, so running
 * one prepared statement per row costs less than unpacking the rows from one parameter.
 */
export async function runForEach(executor: Db, text: string, rows: readonly (readonly unknown[])[]): Promise<void> {
  const statements = sqliteStatements.get(executor.getExecutor().adapter);
  if (statements === undefined) throw new Error('runForEach runs on SQLite only');
  await executor.getExecutor().provideConnection(async () => statements.runForEach(text, rows));
}

/**
 * A new database file is made readable by its owner only (SQLite gives its -wal and -shm the
 * same mode): it holds password hashes, people's data and the audit trail. An existing file keeps
 * the mode its operator gave it.
 */
function createPrivately(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export function openSqlite(options: DatabaseOptions): Database {
  const file = options.databaseUrl.slice('sqlite:'.length);
  const inMemory = file === ':memory:';
  // The driver matched to this Node (sqlite-driver.ts); its failure names what to run.
  const Sqlite = loadSqliteDriver();
  if (!inMemory) createPrivately(path.resolve(file));
  const connection = new Sqlite(inMemory ? ':memory:' : path.resolve(file));
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // Savepoints (group-commit.ts) keep the original of every page they change in a sub-journal;
  // in memory, not spilled to a temporary file page by page.
  connection.pragma('temp_store = MEMORY');
  // SQLite's lower() folds ASCII letters only; compared values are lower-cased in JavaScript (dialect.ts `lowerCase`).
  connection.function('js_lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  // Checkpoints run in a worker thread (checkpointer.ts); this connection's own is the backstop.
  const checkpointer = inMemory ? undefined : startCheckpointer(path.resolve(file));
  connection.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
  const statements = withStatementCache(connection);
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: statements }) });
  sqliteStatements.set(db.getExecutor().adapter, statements);
  return {
    db,
    dialect: sqliteDialect,
    location: inMemory ? ':memory:' : path.resolve(file),
    schema: undefined,
    poolStats: () => undefined,
    exclusive: (_name, work) => work(),
    ping: async () => {
      await within(sql`select 1`.execute(db), PING_BOUND_MS, pingTimedOut);
    },
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
