/**
 * Waking the dispatcher within milliseconds of a commit, not on a slow poll.
 *
 * - PostgreSQL: the fan-out of `recordEvent` runs `pg_notify` inside the business
 *   transaction; PostgreSQL delivers it only if and when that transaction commits, to every
 *   node LISTENing.
 * - SQLite: a process has one connection, and a transaction holds it until it ends, so a
 *   signal raised inside the transaction is handled by a claim that can only run after the
 *   commit. Signals are kept per database (keyed by its Kysely adapter, which a database and
 *   its transactions share), so apps on different databases in one process never cross.
 *   A separate `gatehouse worker` process on the same SQLite file falls back to polling.
 *
 * The listening connection is PostgreSQL's own, outside the pool. When it is lost (a restart,
 * a terminated session) the dispatcher polls meanwhile, and the channel is opened again, after
 * RELISTEN_FIRST_MS and then at most every RELISTEN_MAX_MS, until it is back; a wake-up
 * follows, for commits signalled while no one listened.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../platform/db/dialect.ts';

export const NOTIFY_CHANNEL = 'gatehouse_webhooks';
const RELISTEN_FIRST_MS = 250;
const RELISTEN_MAX_MS = 5000;
/** A connection attempt to a server that does not answer is given up after this, and tried again. */
const CONNECT_TIMEOUT_MS = 5000;

type Signal = () => void;
const localListeners = new WeakMap<object, Set<Signal>>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: keyed by adapter only
type AnyDb = Kysely<any>;

function keyOf(db: AnyDb): object {
  return db.getExecutor().adapter;
}

/** Raised inside the transaction that created due deliveries. */
export async function signalDeliveriesDue(trx: AnyDb): Promise<void> {
  if (dialectOf(trx).listenNotify) {
    // One channel per schema, so databases sharing a server do not wake each other.
    await sql`select pg_notify(${NOTIFY_CHANNEL} || '_' || current_schema(), '')`.execute(trx);
    return;
  }
  const listeners = localListeners.get(keyOf(trx));
  if (listeners) for (const listener of listeners) setImmediate(listener);
}

export interface WakeOptions {
  databaseUrl: string;
  onWake: Signal;
  /** The channel was lost; deliveries are found by polling until it is back. */
  onError: (e: Error) => void;
  /** The channel is listening again after a loss. */
  onRestored?: () => void;
}

/** Calls `onWake` when deliveries may be due; returns a function that stops listening. */
export async function listenForDeliveries(db: AnyDb, options: WakeOptions): Promise<() => Promise<void>> {
  const key = keyOf(db);
  const set = localListeners.get(key) ?? new Set<Signal>();
  localListeners.set(key, set);
  set.add(options.onWake);
  const channel = dialectOf(db).listenNotify ? await listenOnPostgres(options) : undefined;
  return async () => {
    set.delete(options.onWake);
    await channel?.close();
  };
}

/** LISTEN on a connection of its own, opened again whenever it is lost, until closed. */
async function listenOnPostgres(options: WakeOptions): Promise<{ close(): Promise<void> }> {
  const url = new URL(options.databaseUrl);
  const schema = url.searchParams.get('schema') ?? 'public';
  url.searchParams.delete('schema');
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function open(): Promise<void> {
    const fresh = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    fresh.on('notification', () => options.onWake());
    fresh.on('error', (error) => lost(fresh, error));
    fresh.on('end', () => lost(fresh, new Error('the wake-up connection ended')));
    try {
      await fresh.connect();
      await fresh.query(`listen "${NOTIFY_CHANNEL}_${schema}"`);
    } catch (error) {
      void fresh.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await fresh.end().catch(() => {});
      return;
    }
    client = fresh;
  }

  function lost(which: pg.Client, error: Error): void {
    if (client !== which || closed) return;
    client = undefined;
    void which.end().catch(() => {});
    options.onError(error);
    reopen(RELISTEN_FIRST_MS);
  }

  function reopen(delayMs: number): void {
    retry = setTimeout(() => {
      open().then(
        () => {
          if (closed) return;
          options.onRestored?.();
          options.onWake();
        },
        () => {
          if (!closed) reopen(Math.min(delayMs * 2, RELISTEN_MAX_MS));
        },
      );
    }, delayMs);
  }

  await open();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}
