/**
 * What a receiver uses to catch up: an event of its account with its delivery state,
 * redelivery of one event (to the endpoints it went to, or to one endpoint named), and recovery
 * of every parked delivery of an endpoint since a time. Parked deliveries are never discarded
 * (interface state table: "parked … the receiver may ask for parked events"). An event raised
 * while an endpoint was disabled has no delivery to it, so recovery cannot reach it: it is sent
 * to that endpoint by a redelivery naming it. The events and the attempt log are read a page at a
 * time in collections.ts, with the presentation and the delivery-state filter defined here.
 *
 * An event's delivery state summarises its deliveries: `parked` if any is parked, else
 * `pending` if any is still being retried, else `acknowledged` if there were any, else `none`.
 */
import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { DeliveryState } from './tables.ts';
import { subscribes } from './fan-out.ts';
import { signalDeliveriesDue } from './wake.ts';
import { AUDIT_EVENT_PREFIX } from '../events/types.ts';

type Trx = Transaction<Tables>;
export type EventDeliveryState = DeliveryState | 'none';

/** The delivery state of each of `eventIds` that has deliveries (absent: `none`). */
export async function deliveryStates(db: Db, eventIds: string[]): Promise<Map<string, EventDeliveryState>> {
  const states = new Map<string, EventDeliveryState>();
  if (eventIds.length === 0) return states;
  const rows = await db.selectFrom('webhook_deliveries').select(['event_id', 'state']).distinct().where('event_id', 'in', eventIds).execute();
  const rank: Record<EventDeliveryState, number> = { none: 0, acknowledged: 1, pending: 2, parked: 3 };
  for (const row of rows) {
    const known = states.get(row.event_id) ?? 'none';
    if (rank[row.state] > rank[known]) states.set(row.event_id, row.state);
  }
  return states;
}

export function createRecovery(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** Puts the deliveries back in the queue, due now, as a new retry cycle. */
  async function requeue(trx: Trx, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const now = clock.now();
    // A delivery still queued (pending) is due now instead, and whoever holds it loses the lease:
    // an attempt of it in flight, acknowledged, leaves it queued and pending (outcomes.ts). The
    // queue's rows are written before the deliveries', in the order recording an outcome takes
    // them, so the two wait for each other rather than deadlock.
    await trx
      .insertInto('webhook_queue')
      .columns(['delivery_id', 'account_id', 'event_id', 'endpoint_id', 'cycle_failures', 'next_attempt_at'])
      .expression((eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select(['id', 'account_id', 'event_id', 'endpoint_id', sql.lit(0).as('cycle_failures'), sql.lit(now).as('next_attempt_at')])
          .where('id', 'in', ids),
      )
      .onConflict((oc) => oc.column('delivery_id').doUpdateSet({ cycle_failures: 0, next_attempt_at: now, lease_owner: null, lease_until: null }))
      .execute();
    await trx.updateTable('webhook_deliveries').set({ state: 'pending', parked_at: null, updated_at: now }).where('id', 'in', ids).execute();
    await signalDeliveriesDue(trx);
    return ids.length;
  }

  return {
    /** The event, unless it is missing, another account's, or an audit record the reader may not see (`audit`: holds audit:read). */
    async getEvent(accountId: string, id: string, audit: boolean) {
      const row = await db.selectFrom('events').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!row || (!audit && row.type.startsWith(AUDIT_EVENT_PREFIX))) throw problem('event_not_found');
      const states = await deliveryStates(db, [id]);
      return presentEvent(row, states.get(id) ?? 'none');
    },

    /**
     * Sends the event again, whatever its deliveries' state: to `endpointId` alone when given,
     * else to every endpoint that had a delivery of it and is still enabled. Never, unasked, to an
     * endpoint that had none: one registered after the event, or disabled when it was raised,
     * would receive an old event as new (docs/DECISIONS.md "Redelivery goes where the event went").
     * `audit`: the reader holds audit:read; to any other an audit event does not exist.
     */
    async redeliver(trx: Trx, accountId: string, eventId: string, options: { endpointId?: string | undefined; audit: boolean }) {
      // The event is locked for a change: redeliveries of one event take turns, so each sees the
      // deliveries the one before wrote rather than writing the same one again. The endpoints are
      // held for share: neither deleted (the deliveries below refer to them) nor disabled (which
      // parks what is queued) until the requeued deliveries are in the queue.
      const dialect = dialectOf(trx);
      const event = await dialect.lockForWrite(trx.selectFrom('events').select(['id', 'type', 'created_at']).where('id', '=', eventId).where('account_id', '=', accountId)).executeTakeFirst();
      if (!event || (!options.audit && event.type.startsWith(AUDIT_EVENT_PREFIX))) throw problem('event_not_found');
      const toRequeue =
        options.endpointId === undefined
          ? await deliveriesToEnabledEndpoints(trx, event)
          : [await deliveryToEndpoint(trx, { accountId, event, endpointId: options.endpointId, now: clock.now() })];
      const requeued = await requeue(trx, toRequeue);
      return {
        object: 'redelivery' as const,
        event_id: eventId,
        ...(options.endpointId === undefined ? {} : { endpoint_id: options.endpointId }),
        requeued,
      };
    },

    /** Requeues every parked delivery of the endpoint for events raised at or after `since`. */
    async recover(trx: Trx, accountId: string, endpointId: string, since: number) {
      // Held for share: neither deleted (which would take the deliveries requeued below) nor
      // disabled (which parks what is queued) until they are in the queue.
      const endpoint = await dialectOf(trx)
        .lockForShare(trx.selectFrom('webhook_endpoints').select(['enabled']).where('id', '=', endpointId).where('account_id', '=', accountId))
        .executeTakeFirst();
      if (!endpoint) throw problem('webhook_endpoint_not_found');
      if (endpoint.enabled !== 1) throw problem('webhook_endpoint_disabled', { detail: 'Enable the endpoint before recovering its parked deliveries' });
      const parked = await trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        // parked_at is set exactly while parked; the condition chooses the index of parked deliveries.
        .where('parked_at', 'is not', null)
        .where('created_at', '>=', since)
        .execute();
      const requeued = await requeue(trx, parked.map((p) => p.id));
      return { object: 'recovery' as const, endpoint_id: endpointId, since: toRfc3339(since), requeued };
    },
  };
}

/**
 * The deliveries of the event whose endpoint is still enabled and still subscribes to its type
 * (one that dropped the type, an audit stream turned off, takes it no more), the endpoints held
 * for share.
 */
async function deliveriesToEnabledEndpoints(trx: Trx, event: { id: string; type: string }): Promise<string[]> {
  const delivered = trx.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', event.id);
  const enabled = await dialectOf(trx)
    .lockForShare(trx.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('id', 'in', delivered).where('enabled', '=', 1))
    .execute();
  const subscribed = enabled.filter((endpoint) => subscribes(endpoint.event_types, event.type));
  if (subscribed.length === 0) return [];
  const rows = await trx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('event_id', '=', event.id)
    .where('endpoint_id', 'in', subscribed.map((e) => e.id))
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The event's delivery to one endpoint of the account, written now if it had none (an endpoint
 * registered later, or disabled when the event was raised). The endpoint must be enabled and
 * subscribe to the event's type now: a redelivery sends nothing an endpoint would not take today.
 */
async function deliveryToEndpoint(trx: Trx, to: { accountId: string; event: { id: string; type: string; created_at: number }; endpointId: string; now: number }): Promise<string> {
  const { accountId, event, endpointId, now } = to;
  const endpoint = await dialectOf(trx)
    .lockForShare(trx.selectFrom('webhook_endpoints').select(['enabled', 'event_types']).where('id', '=', endpointId).where('account_id', '=', accountId))
    .executeTakeFirst();
  if (!endpoint) throw problem('webhook_endpoint_not_found');
  if (endpoint.enabled !== 1) throw problem('webhook_endpoint_disabled', { detail: 'Enable the endpoint before sending it an event' });
  if (!subscribes(endpoint.event_types, event.type)) {
    throw problem('webhook_endpoint_not_subscribed', { detail: `The endpoint does not subscribe to ${event.type}; add it to its event_types first` });
  }
  const existing = await trx.selectFrom('webhook_deliveries').select('id').where('event_id', '=', event.id).where('endpoint_id', '=', endpointId).executeTakeFirst();
  if (existing) return existing.id;
  const id = newId('whd');
  // Dated as the event, as fan-out dates it: `recover` since a time finds it among that time's events.
  await trx
    .insertInto('webhook_deliveries')
    .values({ id, account_id: accountId, event_id: event.id, endpoint_id: endpointId, state: 'pending', attempt_count: 0, last_attempt_at: null, parked_at: null, created_at: event.created_at, updated_at: now })
    .execute();
  return id;
}

export function presentEvent(row: Tables['events'], deliveryState: EventDeliveryState) {
  return {
    id: row.id,
    object: 'event' as const,
    type: row.type,
    created_at: toRfc3339(row.created_at),
    data: JSON.parse(row.payload) as Record<string, unknown>,
    delivery_state: deliveryState,
  };
}

/** Events whose deliveries summarise to `state`. */
export function deliveryStateIs(eb: ExpressionBuilder<Tables, 'events'>, state: EventDeliveryState) {
  const has = (s: DeliveryState) =>
    eb.exists(eb.selectFrom('webhook_deliveries').select(sql<number>`1`.as('one')).whereRef('webhook_deliveries.event_id', '=', 'events.id').where('webhook_deliveries.state', '=', s));
  const any = eb.exists(eb.selectFrom('webhook_deliveries').select(sql<number>`1`.as('one')).whereRef('webhook_deliveries.event_id', '=', 'events.id'));
  switch (state) {
    case 'parked':
      return has('parked');
    case 'pending':
      return eb.and([eb.not(has('parked')), has('pending')]);
    case 'acknowledged':
      return eb.and([eb.not(has('parked')), eb.not(has('pending')), has('acknowledged')]);
    case 'none':
      return eb.not(any);
  }
}

export type Recovery = ReturnType<typeof createRecovery>;
