/**
 * Signals on commit, for work another part of this node or another node should take up at once
 * rather than on its slow poll (due webhook deliveries). What the databases offer differs, and
 * the difference stays here, behind the dialect's `listenNotify`:
 *
 * - PostgreSQL: `pg_notify` inside the transaction; PostgreSQL delivers it only if and when that
 *   transaction commits, to every node LISTENing on the channel (one per schema, so databases
 *   sharing a server do not wake each other).
 * - SQLite: a process has one connection, and a transaction holds it until it ends, so a
 *   signal raised inside the transaction is handled by work that can only run after the
 *   commit. Signals are kept per database (keyed by its Kysely adapter, which a database and
 *   its transactions share), so apps on different databases in one process never cross.
 *   Another process on the same SQLite file is not signalled and falls back to polling.
 *
 * The listening connection is PostgreSQL's own, outside the pool. When it is lost (a restart,
 * a terminated session) the listener polls meanwhile, and the channel is opened again, after
 * RELISTEN_FIRST_MS and then at most every RELISTEN_MAX_MS, until it is back; a signal follows,
 * for commits signalled while no one listened.
 */
import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './dialect.ts';

const RELISTEN_FIRST_MS = 250;
const RELISTEN_MAX_MS = 5000;
/** A connection attempt to a server that does not answer is given up after this, and tried again. */
const CONNECT_TIMEOUT_MS = 5000;

type Signal = () => void;
/** In-process listeners, per database and channel. */
const localListeners = new WeakMap<object, Map<string, Set<Signal>>>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: keyed by adapter only
type AnyDb = Kysely<any>;

function keyOf(db: AnyDb): object {
  return db.getExecutor().adapter;
}

function listenersOf(db: AnyDb, channel: string): Set<Signal> {
  let channels = localListeners.get(keyOf(db));
  if (!channels) localListeners.set(keyOf(db), (channels = new Map()));
  let set = channels.get(channel);
  if (!set) channels.set(channel, (set = new Set()));
  return set;
}

/** Raised inside a transaction: `channel`'s listeners hear it once the transaction has committed. */
export async function signalOnCommit(trx: AnyDb, channel: string): Promise<void> {
  if (dialectOf(trx).listenNotify) {
    await sql`select pg_notify(${channel} || '_' || current_schema(), '')`.execute(trx);
    return;
  }
  for (const listener of listenersOf(trx, channel)) setImmediate(listener);
}

export interface ListenOptions {
  databaseUrl: string;
  onSignal: Signal;
  /** The channel was lost; the listener polls until it is back. */
  onError: (e: Error) => void;
  /** The channel is listening again after a loss. */
  onRestored?: () => void;
}

/** Calls `onSignal` whenever `channel` is signalled on `db`; returns a function that stops listening. */
export async function listenForSignals(db: AnyDb, channel: string, options: ListenOptions): Promise<() => Promise<void>> {
  const set = listenersOf(db, channel);
  set.add(options.onSignal);
  const connection = dialectOf(db).listenNotify ? await listenOnPostgres(channel, options) : undefined;
  return async () => {
    set.delete(options.onSignal);
    await connection?.close();
  };
}

/** LISTEN on a connection of its own, opened again whenever it is lost, until closed. */
async function listenOnPostgres(channel: string, options: ListenOptions): Promise<{ close(): Promise<void> }> {
  const url = new URL(options.databaseUrl);
  const schema = url.searchParams.get('schema') ?? 'public';
  url.searchParams.delete('schema');
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function open(): Promise<void> {
    const fresh = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    fresh.on('notification', () => options.onSignal());
    fresh.on('error', (error) => lost(fresh, error));
    fresh.on('end', () => lost(fresh, new Error('the listening connection ended')));
    try {
      await fresh.connect();
      await fresh.query(`listen "${channel}_${schema}"`);
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
          options.onSignal();
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
