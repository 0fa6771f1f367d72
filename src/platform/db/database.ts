/**
 * One schema, two databases: Kysely over better-sqlite3 (embedded, sqlite.ts) or over pg
 * (distributed, postgres.ts), chosen by the URL. What capability code must know of the
 * difference it asks the database's dialect (dialect.ts: `database.dialect`, or `dialectOf`
 * for an executor); how each database is opened, tuned and kept healthy stays in its own
 * file; what an error means on either is failures.ts.
 *
 * Conventions for every table: ids are text, instants are bigint epoch milliseconds, booleans
 * are integer 0/1, structured values are JSON text.
 */
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Tables } from './tables.ts';
import type { SqlDialect } from './dialect.ts';
import { openSqlite } from './sqlite.ts';
import { openPostgres } from './postgres.ts';

export { PING_BOUND_MS } from './ping.ts';
export { selectColumn, runForEach } from './sqlite.ts';
export { nameStatement } from './postgres.ts';
export { isClosedAccountWrite, isDatabaseUnavailable, isTransactionConflict, isUniqueViolation, retryOnConflict, transactWithRetry } from './failures.ts';

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
   * write lock already serialises). Used so that nodes starting at once migrate one at a time;
   * `waiting` is called when another process holds it, before waiting for it.
   */
  exclusive<T>(name: string, work: () => Promise<T>, waiting?: () => void): Promise<T>;
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
 * The database `config` names, opened with its settings (pool size, statement and acquire
 * timeouts): every command that opens the service's database opens it here, so each honours
 * them alike.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'databaseStatementTimeout' | 'databaseAcquireTimeout'> & { dataDir?: string },
): Promise<Database> {
  let database: Database | undefined;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      poolSize: config.databasePoolSize,
      statementTimeoutMs: config.databaseStatementTimeout,
      acquireTimeoutMs: config.databaseAcquireTimeout,
    });
    // PostgreSQL connects on first use: asked now, a database out of reach (or missing, or
    // refusing the user) is said at start, naming the setting, not at the first request.
    await sql`select 1`.execute(database.db);
    return database;
  } catch (error) {
    await database?.close().catch(() => undefined);
    // Unset, the URL is the data directory's database: the setting to look at is that one.
    const setting =
      config.dataDir !== undefined && config.databaseUrl === `sqlite:${path.join(config.dataDir, 'gatehouse.db')}`
        ? `GATEHOUSE_DATA_DIR (${config.dataDir})`
        : `GATEHOUSE_DATABASE_URL (${withoutPassword(config.databaseUrl)})`;
    throw new Error(`${setting} cannot be used: ${(error as Error).message}`, { cause: error });
  }
}

/** The URL as it can be shown: a password in it is replaced. */
function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.href;
  } catch {
    return databaseUrl.replace(/:[^:@/]*@/, ':***@');
  }
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl.startsWith('sqlite:') ? openSqlite(options) : openPostgres(options);
}
