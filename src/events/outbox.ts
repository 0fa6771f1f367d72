/**
 * The outbox. A capability that raises an event calls `recordEvent` with the transaction of
 * the change itself, so the event exists exactly when the change does: nothing is lost if the
 * process dies after commit, and nothing is sent for a change that rolled back.
 *
 * In the same transaction the event is handed to webhook delivery (webhooks/fan-out.ts), its
 * one consumer, which queues a delivery per subscribed endpoint: a delivery exists exactly when
 * its event does. This is the one place events know of webhooks; business code imports this
 * module, never the delivery mechanism.
 */
import type { RawBuilder, Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { EventRow } from './tables.ts';
import { deliveryIdPrefix, fanOut, fanOutClauses, type FanOutInStatement } from '../webhooks/fan-out.ts';

export interface EventInput {
  accountId: string;
  type: string;
  object: string;
  objectId: string;
  state: string;
  /** When the event was raised (epoch ms), normally the clock's now. */
  at: number;
}

export interface RecordedEvent {
  id: string;
  type: string;
  payload: string;
  createdAt: number;
}

const insertEvent = preparedQuery((db, value: Placeholder<EventRow>) =>
  db.insertInto('events').values({
    id: value('id'),
    account_id: value('account_id'),
    type: value('type'),
    object: value('object'),
    object_id: value('object_id'),
    state: value('state'),
    payload: value('payload'),
    created_at: value('created_at'),
  }),
);

/**
 * The row of a new event, for a statement that writes it itself (a payout on PostgreSQL writes
 * its event within its one statement); such a caller hands the event to `fanOutTo` after.
 */
export function eventRow(input: EventInput): EventRow {
  return {
    id: newTimeOrderedId('evt', input.at),
    account_id: input.accountId,
    type: input.type,
    object: input.object,
    object_id: input.objectId,
    state: input.state,
    payload: JSON.stringify({
      event: input.type,
      object: input.object,
      id: input.objectId,
      state: input.state,
      created_at: toRfc3339(input.at),
    }),
    created_at: input.at,
  };
}

/**
 * PostgreSQL: the event's delivery as WITH clauses of a statement that writes the event itself
 * (its `eventRow`), with the event's values as that statement's placeholders: a delivery queued
 * for every enabled endpoint subscribed, and the wake-up (webhooks/fan-out.ts `fanOutClauses`).
 */
export function deliveryClauses(event: FanOutInStatement): RawBuilder<unknown> {
  return fanOutClauses(event);
}

/** The time part of the ids of deliveries raised at `at`, which `deliveryClauses` completes. */
export { deliveryIdPrefix };

/** Writes the event and its deliveries in `trx`; the caller's commit publishes them. */
export async function recordEvent(trx: Transaction<Tables> | Db, input: EventInput): Promise<RecordedEvent> {
  const row = eventRow(input);
  await insertEvent.execute(trx, row);
  await fanOut(trx, { eventId: row.id, accountId: input.accountId, type: input.type, at: input.at });
  return { id: row.id, type: input.type, payload: row.payload, createdAt: input.at };
}
