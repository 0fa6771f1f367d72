/**
 * Fan-out: the events capability's outbox hands each event to webhook delivery in the
 * transaction that raised it (events/outbox.ts), and it becomes one pending delivery per enabled
 * endpoint of the account subscribed to its type, queued and due at once.
 *
 * What an endpoint's `event_types` subscribes to: a type by its name; `*`, every business event
 * (not audit events: a receiver of payouts does not start receiving the account's audit trail);
 * `audit.*`, every audit event (docs/AUDIT.md "Streaming").
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { signalDeliveriesDue } from './wake.ts';
import { ALL_AUDIT_EVENTS, ALL_BUSINESS_EVENTS, AUDIT_EVENT_PREFIX } from '../events/types.ts';

/** Every event reads the account's enabled endpoints to fan out to. */
const enabledEndpoints = preparedQuery((db, value: Placeholder<{ accountId: string }>) =>
  db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('account_id', '=', value('accountId')).where('enabled', '=', 1),
);

export interface SubscribedEndpoint {
  id: string;
  event_types: string;
}

/** The account's enabled endpoints, with what each subscribes to. */
export async function enabledEndpointsOf(trx: Transaction<Tables> | Db, accountId: string): Promise<SubscribedEndpoint[]> {
  const { rows } = await enabledEndpoints.execute(trx, { accountId });
  return rows;
}

/** The account's enabled endpoints subscribed to `type`. */
export async function subscribedEndpoints(trx: Transaction<Tables> | Db, accountId: string, type: string): Promise<SubscribedEndpoint[]> {
  return (await enabledEndpointsOf(trx, accountId)).filter((e) => subscribes(e.event_types, type));
}

/**
 * Queues the event for every enabled endpoint of its account subscribed to its type (`endpoints`
 * when the caller has just read them), and signals the dispatcher, which wakes once the caller
 * commits. Returns how many were queued.
 */
export async function fanOut(
  trx: Transaction<Tables> | Db,
  event: { eventId: string; accountId: string; type: string; at: number },
  endpoints?: readonly SubscribedEndpoint[],
): Promise<number> {
  const subscribed = endpoints ?? (await subscribedEndpoints(trx, event.accountId, event.type));
  const deliveries = subscribed
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
  if (types.includes(type)) return true;
  return type.startsWith(AUDIT_EVENT_PREFIX) ? types.includes(ALL_AUDIT_EVENTS) : types.includes(ALL_BUSINESS_EVENTS);
}
