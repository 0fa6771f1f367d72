/**
 * One schema, two databases. Kysely over better-sqlite3 (embedded: WAL, foreign keys, busy
 * timeout; the release matched to the running Node, see sqlite-driver.ts) or over pg (distributed). The differences that matter stay here:
 *
 * - SQLite transactions begin IMMEDIATE, taking the write lock up front, so two processes
 *   sharing a file never deadlock upgrading a read lock to a write lock.
 * - PostgreSQL `bigint` values come back as numbers (every stored integer here fits in 2^53:
 *   epoch milliseconds, minor currency units), and `?schema=name` in the URL selects a schema.
 *
 * - A connection PostgreSQL drops (a restart, a terminated session) fails what runs on it, as
 *   unavailable (503), and leaves the pool: the process and the pool go on, with new connections.
 * - `ping` (readiness) asks on a connection of its own, within PING_BOUND_MS: whether the
 *   database answers, not whether the pool has a connection free.
 *
 * Conventions for every table: ids are text, instants are bigint epoch milliseconds, booleans
 * are integer 0/1, structured values are JSON text.
 */
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
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
  type PostgresPool,
  type PostgresPoolClient,
  type QueryCompiler,
  type Transaction,
} from 'kysely';
import { postgresDialect, sqliteDialect, type SqlDialect } from './dialect.ts';
import type { Tables } from './tables.ts';
import { sha256Hex } from '../crypto.ts';
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer } from './checkpointer.ts';
import { loadSqliteDriver } from './sqlite-driver.ts';

export type Db = Kysely<Tables>;

export interface Database {
  db: Db;
  /** What differs between the two databases (dialect.ts): capability code asks it instead of branching. */
  dialect: SqlDialect;
  /** Where the data lives, for logs: a file path or host/database/schema (never a password). */
  location: string;
  /** PostgreSQL schema holding the tables (migration bookkeeping included); undefined on SQLite. */
  schema: string | undefined;
  /**
   * Resolves when the database answers a trivial query, rejects when it does not within
   * PING_BOUND_MS. On PostgreSQL it asks on a connection outside the pool, so a pool whose every
   * connection waits (on one locked row, say) does not make the database look unreachable.
   */
  ping(): Promise<void>;
  /**
   * Connection pool figures for metrics (PostgreSQL); undefined on SQLite's single connection.
   * `waiting` counts the checkouts no idle connection can serve.
   */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  /**
   * Runs `work` while holding a lock every process on this database honours (a PostgreSQL
   * session advisory lock on a connection of its own, outside the pool; on SQLite the file's
   * write lock already serialises). Used so that nodes starting at once migrate one at a time.
   */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string;
  poolSize?: number;
  statementTimeoutMs?: number;
  /** How long to wait for a pool connection before giving up (then the request fails with 503). */
  acquireTimeoutMs?: number;
}

/**
 * How long `ping` waits for the database. Under a second, so readiness answers within the
 * default timeout of a Kubernetes probe (1 s) even when the database does not answer at all.
 */
export const PING_BOUND_MS = 800;

/** Rejects with `unavailable` when `work` has not settled within `ms`; `work` is left to settle alone. */
async function within<T>(work: Promise<T>, ms: number, unavailable: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function pingTimedOut(): Error {
  return Object.assign(new Error(`the database did not answer within ${PING_BOUND_MS} ms`), { code: 'ETIMEDOUT' });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl.startsWith('sqlite:') ? openSqlite(options) : openPostgres(options);
}

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

function openSqlite(options: DatabaseOptions): Database {
  const file = options.databaseUrl.slice('sqlite:'.length);
  const inMemory = file === ':memory:';
  // The driver matched to this Node (sqlite-driver.ts); its failure names what to run.
  const Sqlite = loadSqliteDriver();
  if (!inMemory) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const connection = new Sqlite(inMemory ? ':memory:' : path.resolve(file));
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // Savepoints (group-commit.ts) keep the original of every page they change in a sub-journal;
  // in memory, not spilled to a temporary file page by page.
  connection.pragma('temp_store = MEMORY');
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

const INT8_OID = 20;

function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} exceeds the safe integer range`);
  return n;
}

async function openPostgres(options: DatabaseOptions): Promise<Database> {
  const url = new URL(options.databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`schema "${schema}" in the database URL must be a lower-case SQL identifier`);
  }
  // `?prepare=off` for a connection pooler that cannot keep a session's prepared statements
  // (PgBouncer in transaction mode before 1.21).
  const prepare = url.searchParams.get('prepare') !== 'off';
  url.searchParams.delete('prepare');
  const statementTimeout = options.statementTimeoutMs ?? 15_000;
  const pool = new pg.Pool({
    connectionString: url.href,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.acquireTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    options: [`-c statement_timeout=${statementTimeout}`, schema ? `-c search_path=${schema}` : '']
      .filter(Boolean)
      .join(' '),
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // A client losing its connection (a database restart, a terminated session) must not crash
  // the process: an idle one is dropped by the pool, which reports it here; one checked out
  // (in a transaction, between statements) has no listener of the pool's, so it gets one of its
  // own. Its next statement then fails as unavailable and the pool drops it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  if (schema) {
    const client = await pool.connect();
    try {
      await client.query(`create schema if not exists ${schema}`);
    } catch (error) {
      // Another node starting at the same moment created it first.
      if (!isUniqueViolation(error) && (error as { code?: string }).code !== '42P06') throw error;
    } finally {
      client.release();
    }
  }
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: prepare ? withNamedStatements(pool) : pool }) });
  const probe = createProbe(
    () =>
      new pg.Client({
        connectionString: url.href,
        connectionTimeoutMillis: PING_BOUND_MS,
        options: `-c statement_timeout=${PING_BOUND_MS}`,
      }),
  );
  // `?host=/dir` (a Unix socket directory) takes the place of the URL's host, as pg reads it.
  const socketDirectory = url.searchParams.get('host');
  const server = socketDirectory?.startsWith('/') ? `${socketDirectory} (socket)` : `${url.hostname}:${url.port || '5432'}`;
  const location = `${server}${url.pathname}${schema ? ` (schema ${schema})` : ''}`;
  return {
    db,
    dialect: postgresDialect,
    location,
    schema: schema ?? 'public',
    // pg-pool queues every checkout, even one an idle connection takes on the next tick: only
    // those beyond the idle connections wait.
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: Math.max(0, pool.waitingCount - pool.idleCount) }),
    async exclusive(name, work) {
      // Its own connection: the work may need every pooled one (a pool of 1 included).
      const client = new pg.Client({ connectionString: url.href, options: schema ? `-c search_path=${schema}` : undefined });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('select pg_advisory_lock(hashtext($1))', [`gatehouse:${name}`]);
        return await work();
      } finally {
        // Closing the session releases the lock even if the unlock cannot be sent.
        await client.query('select pg_advisory_unlock(hashtext($1))', [`gatehouse:${name}`]).catch(() => {});
        await client.end().catch(() => {});
      }
    },
    ping: () => probe.ping(),
    close: async () => {
      probe.close();
      await db.destroy();
    },
  };
}

/**
 * Readiness asks on one connection of its own, outside the pool, kept between checks: whether
 * the database answers within PING_BOUND_MS, whatever the pool is doing. Checks arriving while
 * one is under way share its answer, so a balancer's probes never open more than one connection.
 * A connection that failed or did not answer in time is dropped, and the next check opens another.
 */
function createProbe(connect: () => pg.Client): { ping(): Promise<void>; close(): void } {
  let client: pg.Client | undefined;
  let asking: Promise<void> | undefined;
  const drop = () => {
    const dropped = client;
    client = undefined;
    void dropped?.end().catch(() => {});
  };
  async function ask(): Promise<void> {
    if (client === undefined) {
      const fresh = connect();
      client = fresh;
      fresh.on('error', () => {
        if (client === fresh) client = undefined;
      });
      await fresh.connect();
    }
    await client.query('select 1');
  }
  return {
    ping() {
      asking ??= within(ask(), PING_BOUND_MS, pingTimedOut)
        .catch((error: unknown) => {
          drop();
          throw error;
        })
        .finally(() => {
          asking = undefined;
        });
      return asking;
    },
    close: drop,
  };
}

/**
 * Statements PostgreSQL parses and plans once per connection, by SQL text (see
 * `prepareOnPostgres`), each under a name derived from its text.
 */
const namedStatements = new Map<string, string>();

/**
 * Marks `text` as a statement to run as a named prepared statement on PostgreSQL: parsed and
 * planned once per connection (after five runs PostgreSQL keeps a generic plan) instead of on
 * every run. For the statements of a fixed text that run on every request or every batch:
 * parsing and planning the webhook claim alone costs PostgreSQL over a millisecond, more than
 * a third of running it. Only such statements are marked, so the statements a connection keeps
 * are few, and each names its columns, so a column added by a later migration never changes
 * a kept statement's result. Harmless for SQLite texts, which PostgreSQL never runs.
 */
export function prepareOnPostgres(text: string): void {
  if (!namedStatements.has(text)) namedStatements.set(text, `gh_${sha256Hex(text).slice(0, 24)}`);
}

/** The pool as Kysely sees it, running the marked statements by name. */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  // Kysely keeps one connection object per pool client, so each client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = {
          query: ((text: unknown, values?: unknown[]) => {
            const name = typeof text === 'string' ? namedStatements.get(text) : undefined;
            return name === undefined ? client.query(text as string, values) : client.query({ name, text: text as string, values });
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
]);

/**
 * True when `error` means the database cannot serve right now (down, restarting, pool
 * exhausted, statement timeout, SQLite busy past its timeout): the request fails fast with
 * 503 and the next one tries again, with no restart needed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code !== undefined && UNAVAILABLE_CODES.has(e.code)) return true;
  const message = e.message ?? '';
  return /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error/i.test(
    message,
  );
}

/**
 * True when PostgreSQL aborted a transaction to settle a conflict with a concurrent one
 * (deadlock_detected, serialization_failure): nothing of it was committed, and running it
 * again may well succeed.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '40P01' || code === '40001';
}

/** How often a transaction is run in all before its conflict is reported (as a 503). */
const CONFLICT_ATTEMPTS = 3;

/**
 * Runs `work` in a transaction, and runs it afresh when PostgreSQL aborts it for a conflict
 * with a concurrent transaction (a deadlock between writes that lock rows of two tables in
 * different orders, say). Each retry waits a few random milliseconds, so the two rivals do
 * not meet again in step. Only for work whose every effect is in the transaction.
 */
export async function transactWithRetry<T>(db: Db, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** True when `error` is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
