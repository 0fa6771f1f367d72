/**
 * Fan-out: the events capability's outbox hands each event to webhook delivery in the
 * transaction that raised it (events/outbox.ts), and it becomes one pending delivery per enabled
 * endpoint of the account subscribed to its type, queued and due at once.
 *
 * What an endpoint's `event_types` subscribes to: a type by its name; `*`, every business event
 * (not audit events: a receiver of payouts does not start receiving the account's audit trail);
 * `audit.*`, every audit event (docs/AUDIT.md "Streaming").
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { NOTIFY_CHANNEL, signalDeliveriesDue } from './wake.ts';
import { ALL_AUDIT_EVENTS, ALL_BUSINESS_EVENTS, AUDIT_EVENT_PREFIX } from '../events/types.ts';

/**
 * Every event reads the account's enabled endpoints to fan out to. It locks them against
 * deletion as it reads them: an endpoint deleted by a transaction that commits after this read
 * would otherwise fail the delivery's foreign key, and with it the write that raised the event.
 * Locked, the deletion waits for the write (and then removes its deliveries with the endpoint),
 * or the write waits for the deletion and fans out without it.
 */
const enabledEndpoints = preparedQuery((db, value: Placeholder<{ accountId: string }>) =>
  dialectOf(db).lockForReference(
    db.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('account_id', '=', value('accountId')).where('enabled', '=', 1),
  ),
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

/** `whd_` and the time part of a delivery id minted at `at`: what `fanOutClauses` adds its random part to. */
export function deliveryIdPrefix(at: number): string {
  return newTimeOrderedId('whd', at).slice(0, 'whd_'.length + 8);
}

/** What the fan-out clauses of a statement need: the event (with its delivery ids' time part) and when it is written. */
export interface FanOutInStatement {
  accountId: string;
  eventId: string;
  type: string;
  at: number;
  /** `whd_` and the time part of a time-ordered id at `at` (ids.ts `newTimeOrderedId`). */
  deliveryIdPrefix: string;
  /** The condition under which the statement writes the event. */
  when: RawBuilder<unknown>;
}

/**
 * PostgreSQL: the same fan-out as WITH clauses (`deliveries`, `queued`, `woken`) of a statement
 * that writes the event itself (a payout's one statement), so that an account's endpoints cost
 * it no round trip of their own. The statement must read `woken` for the wake-up to be sent.
 * Each delivery id is `deliveryIdPrefix` and 12 base62 characters drawn from the bytes of
 * `gen_random_uuid()` (PostgreSQL's strong random source; its 12 wholly random bytes, each
 * reduced modulo 62: 5.95 bits a character, 71 bits in all, as `newTimeOrderedId` draws).
 */
export function fanOutClauses(event: FanOutInStatement): RawBuilder<unknown> {
  return sql`deliveries as (
        insert into webhook_deliveries (id, account_id, event_id, endpoint_id, state, attempt_count, last_attempt_at, parked_at, created_at, updated_at)
        select ${event.deliveryIdPrefix}::text || ${RANDOM_ID_PART}, ${event.accountId}::text, ${event.eventId}::text, endpoint.id, 'pending', 0, null, null, ${event.at}::bigint, ${event.at}::bigint
        from webhook_endpoints as endpoint cross join lateral (select uuid_send(gen_random_uuid()) as bytes) as random
        where endpoint.account_id = ${event.accountId}::text and endpoint.enabled = 1 and ${subscribedTo(sql`${event.type}::text`)} and ${event.when}
        ${LOCKED_FOR_REFERENCE}
        returning id, endpoint_id
      ), queued as (
        insert into webhook_queue (delivery_id, account_id, event_id, endpoint_id, cycle_failures, next_attempt_at, lease_owner, lease_until)
        select id, ${event.accountId}::text, ${event.eventId}::text, endpoint_id, 0, ${event.at}::bigint, null, null from deliveries
      ), ${WOKEN}`;
}

/** The endpoints a statement fans out to, locked against deletion as `enabledEndpoints` locks them. */
const LOCKED_FOR_REFERENCE = sql`for key share of endpoint`;

/** A delivery id's random part: 12 base62 characters from the bytes of `random.bytes` (a `uuid_send(gen_random_uuid())`). */
const RANDOM_ID_PART = sql`(select string_agg(substr(${sql.lit('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')}, get_byte(random.bytes, position) % 62 + 1, 1), '' order by position)
            from unnest('{0,1,2,3,4,5,7,9,10,11,12,13}'::int[]) as position)`;

/** `endpoint` subscribes to events of `type`, as `subscribes` says in process. */
function subscribedTo(type: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(endpoint.event_types::jsonb ? '*' or endpoint.event_types::jsonb ? ${type})`;
}

/** Wakes the dispatchers once the statement commits, when it wrote any delivery. */
const WOKEN = sql`woken as (
        select pg_notify(${sql.lit(NOTIFY_CHANNEL)} || '_' || current_schema(), '') from (select from deliveries limit 1) as any_delivery
      )`;

/**
 * PostgreSQL: `fanOutClauses` for several events written by one statement (the payouts of a
 * batch): `events` names a WITH clause of that statement with a row per event written
 * (`account_id`, `event_id`, `event_type`, `at`, `delivery_id_prefix`).
 */
export function fanOutClausesForMany(events: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`deliveries as (
        insert into webhook_deliveries (id, account_id, event_id, endpoint_id, state, attempt_count, last_attempt_at, parked_at, created_at, updated_at)
        select event.delivery_id_prefix || ${RANDOM_ID_PART}, event.account_id, event.event_id, endpoint.id, 'pending', 0, null, null, event.at, event.at
        from ${events} as event
        join webhook_endpoints as endpoint on endpoint.account_id = event.account_id and endpoint.enabled = 1 and ${subscribedTo(sql`event.event_type`)}
        -- Correlated, so that every delivery draws bytes of its own.
        cross join lateral (select uuid_send(gen_random_uuid()) as bytes where endpoint.id is not null and event.event_id is not null) as random
        ${LOCKED_FOR_REFERENCE}
        returning id, account_id, event_id, endpoint_id, created_at
      ), queued as (
        insert into webhook_queue (delivery_id, account_id, event_id, endpoint_id, cycle_failures, next_attempt_at, lease_owner, lease_until)
        select id, account_id, event_id, endpoint_id, 0, created_at, null, null from deliveries
      ), ${WOKEN}`;
}
