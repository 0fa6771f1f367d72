/**
 * Waking the dispatcher within milliseconds of a commit, not on a slow poll.
 *
 * - PostgreSQL: `recordEvent` runs `pg_notify` inside the business transaction; PostgreSQL
 *   delivers it only if and when that transaction commits, to every node LISTENing.
 * - SQLite: a process has one connection, and a transaction holds it until it ends, so a
 *   signal raised inside the transaction is handled by a claim that can only run after the
 *   commit. Signals are kept per database (keyed by its Kysely adapter, which a database and
 *   its transactions share), so apps on different databases in one process never cross.
 *   A separate `gatehouse worker` process on the same SQLite file falls back to polling.
 */
import pg from 'pg';
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export const NOTIFY_CHANNEL = 'gatehouse_webhooks';

type Signal = () => void;
const localListeners = new WeakMap<object, Set<Signal>>();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: keyed by adapter only
type AnyDb = Kysely<any>;

function keyOf(db: AnyDb): object {
  return db.getExecutor().adapter;
}

export function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Raised inside the transaction that created due deliveries. */
export async function signalDeliveriesDue(trx: AnyDb): Promise<void> {
  if (isPostgres(trx)) {
    // One channel per schema, so databases sharing a server do not wake each other.
    await sql`select pg_notify(${NOTIFY_CHANNEL} || '_' || current_schema(), '')`.execute(trx);
    return;
  }
  const listeners = localListeners.get(keyOf(trx));
  if (listeners) for (const listener of listeners) setImmediate(listener);
}

/** Calls `onWake` when deliveries may be due; returns a function that stops listening. */
export async function listenForDeliveries(db: AnyDb, options: { databaseUrl: string; onWake: Signal; onError: (e: Error) => void }): Promise<() => Promise<void>> {
  const key = keyOf(db);
  const set = localListeners.get(key) ?? new Set<Signal>();
  localListeners.set(key, set);
  set.add(options.onWake);
  let client: pg.Client | undefined;
  if (isPostgres(db)) {
    const url = new URL(options.databaseUrl);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    client = new pg.Client({ connectionString: url.href });
    client.on('notification', () => options.onWake());
    client.on('error', options.onError);
    await client.connect();
    await client.query(`listen "${NOTIFY_CHANNEL}_${schema}"`);
  }
  return async () => {
    set.delete(options.onWake);
    if (client) await client.end().catch(() => {});
  };
}
