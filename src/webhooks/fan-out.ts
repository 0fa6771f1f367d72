/**
 * Fan-out: the events capability's outbox hands each event to webhook delivery in the
 * transaction that raised it (events/outbox.ts), and it becomes one pending delivery per enabled
 * endpoint of the account subscribed to its type, queued and due at once.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { signalDeliveriesDue } from './wake.ts';

/** Every event reads the account's enabled endpoints to fan out to. */
const enabledEndpoints = preparedQuery((db, value: Placeholder<{ accountId: string }>) =>
  db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('account_id', '=', value('accountId')).where('enabled', '=', 1),
);

/**
 * Queues the event for every enabled endpoint of its account subscribed to its type, and
 * signals the dispatcher, which wakes once the caller commits. Returns how many were queued.
 */
export async function fanOut(trx: Transaction<Tables> | Db, event: FannedEvent): Promise<number> {
  const { rows: endpoints } = await enabledEndpoints.execute(trx, { accountId: event.accountId });
  return fanOutTo(trx, event, endpoints);
}

interface FannedEvent {
  eventId: string;
  accountId: string;
  type: string;
  at: number;
}

/** The enabled endpoints of an account, as a statement that reads them itself returns them. */
export interface EnabledEndpoint {
  id: string;
  event_types: string;
}

/**
 * The same, to `endpoints`: the account's enabled endpoints, read by the caller in `trx` (a
 * statement that writes an event can read them in the same round trip).
 */
export async function fanOutTo(trx: Transaction<Tables> | Db, event: FannedEvent, endpoints: readonly EnabledEndpoint[]): Promise<number> {
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
  await signalDeliveriesDue(trx);
  return deliveries.length;
}

export function subscribes(eventTypesJson: string, type: string): boolean {
  const types = JSON.parse(eventTypesJson) as string[];
  return types.includes('*') || types.includes(type);
}
