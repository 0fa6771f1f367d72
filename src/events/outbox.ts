/**
 * The outbox. A capability that raises an event calls `recordEvent` with the transaction of
 * the change itself, so the event exists exactly when the change does: nothing is lost if the
 * process dies after commit, and nothing is sent for a change that rolled back.
 *
 * The body is made here, once, and stored with the event: the interface's `event`, `object`,
 * `id` and `state`, with `created_at` and `data`, the object as the API presented it at the
 * time of the event (as Stripe does). Every attempt, redelivery and recovery sends these same
 * bytes, so `data` must hold nothing that is kept sealed elsewhere (docs/WEBHOOKS.md).
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
import { preparedInsert } from '../platform/db/prepared.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { EventRow } from './tables.ts';
import { deliveryIdPrefix, fanOut, fanOutClauses, fanOutClausesForMany, type FanOutInStatement, type SubscribedEndpoint } from '../webhooks/fan-out.ts';

export interface EventInput {
  accountId: string;
  type: string;
  object: string;
  objectId: string;
  state: string;
  /** The object as the API returns it at the time of the event: the body's `data`. */
  data: object;
  /** When the event was raised (epoch ms), normally the clock's now. */
  at: number;
}

export interface RecordedEvent {
  id: string;
  type: string;
  payload: string;
  createdAt: number;
}

const insertEvent = preparedInsert('events', ['id', 'account_id', 'type', 'object', 'object_id', 'state', 'payload', 'created_at']);

/** The exact JSON body every delivery of the event carries. */
export function eventBody(input: EventInput): string {
  return JSON.stringify({
    event: input.type,
    object: input.object,
    id: input.objectId,
    state: input.state,
    created_at: toRfc3339(input.at),
    data: input.data,
  });
}

/**
 * The row of a new event, for a statement that writes it itself (a payout on PostgreSQL writes
 * its event, and queues its deliveries with `deliveryClauses`, within its one statement).
 */
export function eventRow(input: EventInput): EventRow {
  return {
    id: newTimeOrderedId('evt', input.at),
    account_id: input.accountId,
    type: input.type,
    object: input.object,
    object_id: input.objectId,
    state: input.state,
    payload: eventBody(input),
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

/** `deliveryClauses` for several events written by one statement (webhooks/fan-out.ts `fanOutClausesForMany`). */
export { fanOutClausesForMany as deliveryClausesForMany };

/** The time part of the ids of deliveries raised at `at`, which `deliveryClauses` completes. */
export { deliveryIdPrefix };

/**
 * Writes the event and its deliveries in `trx`; the caller's commit publishes them. `endpoints`,
 * when the caller has already read who subscribes (audit/stream.ts), saves reading it again.
 */
export async function recordEvent(trx: Transaction<Tables> | Db, input: EventInput, endpoints?: readonly SubscribedEndpoint[]): Promise<RecordedEvent> {
  const row = eventRow(input);
  await insertEvent.execute(trx, row);
  await fanOut(trx, { eventId: row.id, accountId: input.accountId, type: input.type, at: input.at }, endpoints);
  return { id: row.id, type: input.type, payload: row.payload, createdAt: input.at };
}
