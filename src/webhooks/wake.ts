/**
 * Waking the dispatcher within milliseconds of the commit that made deliveries due, not on its
 * slow poll: a signal on commit (platform/db/signals.ts: NOTIFY to every node on PostgreSQL,
 * in-process on SQLite, where a separate `gatehouse worker` finds new work by polling).
 */
import type { Kysely } from 'kysely';
import { listenForSignals, signalOnCommit, type ListenOptions } from '../platform/db/signals.ts';

/** The channel deliveries are signalled on; a statement that queues deliveries itself (fan-out.ts) names it. */
export const NOTIFY_CHANNEL = 'gatehouse_webhooks';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: only the adapter is read
type AnyDb = Kysely<any>;

/** Raised inside the transaction that created due deliveries. */
export function signalDeliveriesDue(trx: AnyDb): Promise<void> {
  return signalOnCommit(trx, NOTIFY_CHANNEL);
}

/** Calls `onSignal` when deliveries may be due; returns a function that stops listening. */
export function listenForDeliveries(db: AnyDb, options: ListenOptions): Promise<() => Promise<void>> {
  return listenForSignals(db, NOTIFY_CHANNEL, options);
}
