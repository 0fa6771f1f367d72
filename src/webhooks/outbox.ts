/**
 * The outbox. A capability that raises an event calls `recordEvent` with the transaction of
 * the change itself, so the event exists exactly when the change does: nothing is lost if the
 * process dies after commit, and nothing is sent for a change that rolled back.
 *
 * In the same transaction the event is fanned out: one pending delivery per enabled endpoint
 * of the account subscribed to its type, queued and due at once, and the dispatcher is woken
 * on commit.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { subscribes } from './store.ts';
import { signalDeliveriesDue } from './wake.ts';

export interface EventTables {
  events: {
    id: string;
    account_id: string;
    /** dotted kind, e.g. invoice.settled */
    type: string;
    object: string;
    object_id: string;
    state: string;
    /** The exact JSON body delivered to receivers. */
    payload: string;
    created_at: number;
  };
}

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

type EventRow = EventTables['events'];

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

/** Every event reads the account's enabled endpoints to fan out to. */
const enabledEndpoints = preparedQuery((db, value: Placeholder<{ accountId: string }>) =>
  db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('account_id', '=', value('accountId')).where('enabled', '=', 1),
);

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
  const fannedOut = await fanOut(trx, { eventId: id, accountId: input.accountId, type: input.type, at: input.at });
  if (fannedOut > 0) await signalDeliveriesDue(trx);
  return { id, type: input.type, payload, createdAt: input.at };
}

async function fanOut(trx: Transaction<Tables> | Db, event: { eventId: string; accountId: string; type: string; at: number }): Promise<number> {
  const { rows: endpoints } = await enabledEndpoints.execute(trx, { accountId: event.accountId });
  const deliveries = endpoints
    .filter((e) => subscribes(e.event_types, event.type))
    .map((e) => ({
      id: newTimeOrderedId('whd', event.at),
      account_id: event.accountId,
      event_id: event.eventId,
      endpoint_id: e.id,
      state: 'pending' as const,
      attempt_count: 0,
      last_attempt_at: null,
      parked_at: null,
      created_at: event.at,
      updated_at: event.at,
    }));
  if (deliveries.length === 0) return 0;
  await trx.insertInto('webhook_deliveries').values(deliveries).execute();
  await trx
    .insertInto('webhook_queue')
    .values(
      deliveries.map((d) => ({
        delivery_id: d.id,
        account_id: d.account_id,
        event_id: d.event_id,
        endpoint_id: d.endpoint_id,
        cycle_failures: 0,
        next_attempt_at: event.at,
        lease_owner: null,
        lease_until: null,
      })),
    )
    .execute();
  return deliveries.length;
}
