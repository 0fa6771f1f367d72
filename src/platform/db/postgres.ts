/**
 * PostgreSQL through pg: a pool whose connections carry the statement timeout and the schema
 * (`?schema=name` in the URL), `bigint` read back as a number (every stored integer here fits
 * in 2^53: epoch milliseconds, minor currency units), and the statements marked by
 * `nameStatement` run as named statements each connection parses and plans once.
 *
 * A connection PostgreSQL drops (a restart, a terminated session) fails what runs on it, as
 * unavailable (503), and leaves the pool: the process and the pool go on, with new
 * connections. A connection that goes silent without closing (a failover, a network cut, a
 * frozen proxy) would leave a statement waiting forever, since the statement timeout is the
 * server's: every statement is also bounded here, a little past the statement timeout
 * (READ_BOUND_MARGIN_MS), and a connection that overran it is abandoned (`withStatementBounds`). TCP
 * keep-alive finds idle ones. `ping` (readiness) asks on a connection of its own, within
 * PING_BOUND_MS: whether the database answers, not whether the pool has a connection free.
 */
import pg from 'pg';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Database, DatabaseOptions, Db } from './database.ts';
import type { Tables } from './tables.ts';
import { postgresDialect } from './dialect.ts';
import { isUniqueViolation } from './failures.ts';
import { PING_BOUND_MS, pingTimedOut, within } from './ping.ts';
import { sha256Hex } from '../crypto.ts';

const INT8_OID = 20;
/** How long past the server's statement timeout a statement's answer is waited for, here, at most (and at most the timeout again). */
const READ_BOUND_MARGIN_MS = 5_000;
/** An idle connection is probed by TCP keep-alive after this long. */
const KEEP_ALIVE_DELAY_MS = 10_000;

function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} exceeds the safe integer range`);
  return n;
}

export async function openPostgres(options: DatabaseOptions): Promise<Database> {
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
    query_timeout: statementTimeout + Math.min(statementTimeout, READ_BOUND_MARGIN_MS),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_DELAY_MS,
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
  const names = new Map<string, string>();
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: withStatementBounds(pool, names) }) });
  if (prepare) statementNames.set(db.getExecutor().adapter, names);
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
    async exclusive(name, work, waiting) {
      // Its own connection: the work may need every pooled one (a pool of 1 included).
      const client = new pg.Client({ connectionString: url.href, options: schema ? `-c search_path=${schema}` : undefined });
      client.on('error', () => {});
      await client.connect();
      try {
        const key = `gatehouse:${name}`;
        const taken = await client.query<{ taken: boolean }>('select pg_try_advisory_lock(hashtext($1)) as taken', [key]);
        if (!taken.rows[0]?.taken) {
          waiting?.();
          await client.query('select pg_advisory_lock(hashtext($1))', [key]);
        }
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
 * The statements each PostgreSQL database runs by name, by SQL text (see `nameStatement`):
 * kept per database (by its Kysely adapter, which its transactions share), filled as they
 * are first run. A database opened with `?prepare=off` has none.
 */
const statementNames = new WeakMap<object, Map<string, string>>();

/**
 * Marks `text` as a statement `executor`'s database runs as a named prepared statement:
 * parsed and planned once per connection (after five runs PostgreSQL keeps a generic plan)
 * instead of on every run. For the statements of a fixed text that run on every request or
 * every batch: parsing and planning the webhook claim alone costs PostgreSQL over a
 * millisecond, more than a third of running it. Only such statements are marked, so the
 * statements a connection keeps are few, and each names its columns, so a column added by a
 * later migration never changes a kept statement's result. Nothing on SQLite, whose
 * statement cache keeps every text.
 */
export function nameStatement(executor: Db, text: string): void {
  const names = statementNames.get(executor.getExecutor().adapter);
  if (names !== undefined && !names.has(text)) names.set(text, `gh_${sha256Hex(text).slice(0, 24)}`);
}

/** pg's answer to a statement that outran the pool's `query_timeout`. */
function isReadTimeout(error: unknown): boolean {
  return (error as Error | undefined)?.message === 'Query read timeout';
}

/**
 * The pool as Kysely sees it: the marked statements run by name (none are marked with
 * `?prepare=off`), and a connection whose statement outran the read bound is abandoned. pg
 * gives up on such a statement but keeps the connection, whose next statement (the transaction's
 * ROLLBACK) would wait as long again: here it fails at once, as unavailable, and the connection
 * is destroyed when released instead of going back to the pool.
 */
function withStatementBounds(pool: pg.Pool, namedStatements: ReadonlyMap<string, string>): PostgresPool {
  // Kysely keeps one connection object per pool client, so each client keeps one wrapper.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const abandoned = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        const run = (text: unknown, values?: unknown[]) => {
          const name = typeof text === 'string' ? namedStatements.get(text) : undefined;
          return name === undefined ? client.query(text as string, values) : client.query({ name, text: text as string, values });
        };
        wrapper = {
          query: (async (text: unknown, values?: unknown[]) => {
            if (abandoned.has(client)) throw Object.assign(new Error('Connection terminated: it stopped answering'), { code: '08006' });
            try {
              return await run(text, values);
            } catch (error) {
              if (isReadTimeout(error)) abandoned.add(client);
              throw error;
            }
          }) as unknown as PostgresPoolClient['query'],
          release: () => client.release(abandoned.has(client) || undefined),
        };
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}
