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
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedInsert } from '../platform/db/prepared.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { fanOut } from '../webhooks/fan-out.ts';

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

const insertEvent = preparedInsert('events', ['id', 'account_id', 'type', 'object', 'object_id', 'state', 'payload', 'created_at']);

/** Writes the event and its deliveries in `trx`; the caller's commit publishes them. */
export async function recordEvent(trx: Transaction<Tables> | Db, input: EventInput): Promise<RecordedEvent> {
  const id = newTimeOrderedId('evt', input.at);
  const payload = JSON.stringify({
    event: input.type,
    object: input.object,
    id: input.objectId,
    state: input.state,
    created_at: toRfc3339(input.at),
  });
  await insertEvent.execute(trx, {
    id,
    account_id: input.accountId,
    type: input.type,
    object: input.object,
    object_id: input.objectId,
    state: input.state,
    payload,
    created_at: input.at,
  });
  await fanOut(trx, { eventId: id, accountId: input.accountId, type: input.type, at: input.at });
  return { id, type: input.type, payload, createdAt: input.at };
}
