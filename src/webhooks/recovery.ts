/**
 * What a receiver uses to catch up: the events of its account (newest first, filtered by
 * type and delivery state), the attempt log of an endpoint, redelivery of one event, and
 * recovery of every parked delivery of an endpoint since a time. Parked deliveries are never
 * discarded (interface state table: "parked … the receiver may ask for parked events").
 *
 * An event's delivery state summarises its deliveries: `parked` if any is parked, else
 * `pending` if any is still being retried, else `acknowledged` if there were any, else `none`.
 */
import { sql, type ExpressionBuilder, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { Sealer } from './secrets.ts';
import { openCursor, sealCursor, type CursorScope, type Position } from './cursor.ts';
import { subscribes, type DeliveryState } from './store.ts';
import { signalDeliveriesDue } from './wake.ts';

type Trx = Transaction<Tables>;
export type EventDeliveryState = DeliveryState | 'none';

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export function createRecovery(deps: { db: Db; clock: Clock; sealer: Sealer }) {
  const { db, clock, sealer } = deps;

  function keysetAfter<T extends { at: number; id: string }>(
    rows: T[],
    limit: number,
    scope: CursorScope,
  ): { rows: T[]; next: string | null } {
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next = rows.length > limit && last ? sealCursor(sealer, scope, { at: last.at, id: last.id }, clock.now()) : null;
    return { rows: page, next };
  }

  function position(scope: CursorScope, after: string | undefined): Position | undefined {
    return after === undefined ? undefined : openCursor(sealer, scope, after, clock.now());
  }

  async function deliveryStates(eventIds: string[]): Promise<Map<string, EventDeliveryState>> {
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

  /** Puts the deliveries back in the queue, due now, as a new retry cycle. */
  async function requeue(trx: Trx, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const now = clock.now();
    await trx.updateTable('webhook_deliveries').set({ state: 'pending', parked_at: null, updated_at: now }).where('id', 'in', ids).execute();
    // A delivery still queued (pending) is due now instead, and whoever holds it loses the lease.
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
    await signalDeliveriesDue(trx);
    return ids.length;
  }

  return {
    async listEvents(accountId: string, query: { limit: number; after?: string; type?: string; delivery_state?: EventDeliveryState }) {
      const scope = { accountId, collection: 'events:created_desc', filter: `${query.type ?? ''}|${query.delivery_state ?? ''}` };
      const from = position(scope, query.after);
      let q = db.selectFrom('events').selectAll().where('account_id', '=', accountId);
      if (query.type !== undefined) q = q.where('type', '=', query.type);
      if (query.delivery_state !== undefined) q = q.where((eb) => deliveryStateIs(eb, query.delivery_state!));
      if (from) q = q.where((eb) => eb.or([eb('created_at', '<', from.at), eb.and([eb('created_at', '=', from.at), eb('id', '<', from.id)])]));
      const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
      const { rows: page, next } = keysetAfter(
        rows.map((r) => ({ ...r, at: r.created_at })),
        query.limit,
        scope,
      );
      const states = await deliveryStates(page.map((r) => r.id));
      return { data: page.map((r) => presentEvent(r, states.get(r.id) ?? 'none')), next_cursor: next };
    },

    async getEvent(accountId: string, id: string) {
      const row = await db.selectFrom('events').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!row) throw problem('event_not_found');
      const states = await deliveryStates([id]);
      return presentEvent(row, states.get(id) ?? 'none');
    },

    async listAttempts(accountId: string, endpointId: string, query: { limit: number; after?: string; event_id?: string }) {
      const scope = { accountId, collection: `attempts:${endpointId}:attempted_desc`, filter: query.event_id ?? '' };
      const from = position(scope, query.after);
      let q = db.selectFrom('webhook_attempts').selectAll().where('account_id', '=', accountId).where('endpoint_id', '=', endpointId);
      if (query.event_id !== undefined) q = q.where('event_id', '=', query.event_id);
      if (from) q = q.where((eb) => eb.or([eb('attempted_at', '<', from.at), eb.and([eb('attempted_at', '=', from.at), eb('id', '<', from.id)])]));
      const rows = await q.orderBy('attempted_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
      const { rows: page, next } = keysetAfter(
        rows.map((r) => ({ ...r, at: r.attempted_at })),
        query.limit,
        scope,
      );
      return {
        data: page.map((r) => ({
          id: r.id,
          object: 'webhook_delivery_attempt' as const,
          event_id: r.event_id,
          event_type: r.event_type,
          outcome: r.outcome,
          response_status: r.response_status,
          response_body: r.response_body,
          error: r.error,
          latency_ms: r.latency_ms,
          attempted_at: toRfc3339(r.attempted_at),
        })),
        next_cursor: next,
      };
    },

    /** Sends the event again to every enabled endpoint subscribed to it, whatever its deliveries' state. */
    async redeliver(trx: Trx, accountId: string, eventId: string) {
      const event = await trx.selectFrom('events').select(['id', 'type', 'created_at']).where('id', '=', eventId).where('account_id', '=', accountId).executeTakeFirst();
      if (!event) throw problem('event_not_found');
      const endpoints = await trx
        .selectFrom('webhook_endpoints')
        .select(['id', 'event_types'])
        .where('account_id', '=', accountId)
        .where('enabled', '=', 1)
        .execute();
      const existing = await trx.selectFrom('webhook_deliveries').select(['id', 'endpoint_id']).where('event_id', '=', eventId).execute();
      const byEndpoint = new Map(existing.map((d) => [d.endpoint_id, d.id]));
      const now = clock.now();
      const toRequeue: string[] = [];
      for (const endpoint of endpoints) {
        const found = byEndpoint.get(endpoint.id);
        if (found) toRequeue.push(found);
        else if (subscribes(endpoint.event_types, event.type)) {
          const id = newId('whd');
          await trx
            .insertInto('webhook_deliveries')
            .values({ id, account_id: accountId, event_id: eventId, endpoint_id: endpoint.id, state: 'pending', attempt_count: 0, last_attempt_at: null, parked_at: null, created_at: event.created_at, updated_at: now })
            .execute();
          toRequeue.push(id);
        }
      }
      const requeued = await requeue(trx, toRequeue);
      return { object: 'redelivery' as const, event_id: eventId, requeued };
    },

    /** Requeues every parked delivery of the endpoint for events raised at or after `since`. */
    async recover(trx: Trx, accountId: string, endpointId: string, since: number) {
      const endpoint = await trx.selectFrom('webhook_endpoints').select(['enabled']).where('id', '=', endpointId).where('account_id', '=', accountId).executeTakeFirst();
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

function presentEvent(row: Tables['events'], deliveryState: EventDeliveryState) {
  return {
    id: row.id,
    object: 'event' as const,
    type: row.type,
    created_at: toRfc3339(row.created_at),
    data: JSON.parse(row.payload) as Record<string, unknown>,
    delivery_state: deliveryState,
  };
}

function deliveryStateIs(eb: ExpressionBuilder<Tables, 'events'>, state: EventDeliveryState) {
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
