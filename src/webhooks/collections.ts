/**
 * The webhook collections under /v1: an account's endpoints, its events, and an endpoint's
 * attempt log. Each is read a page at a time through paging/, like every /v1 collection
 * (interface, "Collection reads rules"): newest first by keyset over (sort key, id) compared as
 * a row value, so a deep page is an index range; `limit` 1 to 100 (default 20, anything else
 * 400 `limit_out_of_range`); cursors sealed with the cursor key ring, bound to the account, the
 * collection and its order and the read's filters, expiring after GATEHOUSE_CURSOR_TTL, and
 * refused with the `cursor_*` codes. An attempt log's endpoint is one of its read's filters, so
 * a cursor of one endpoint's log does not continue another's.
 */
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { CursorPosition } from '../paging/cursor.ts';
import { NEWEST_FIRST, keysetPage, type KeysetColumns } from '../paging/keyset.ts';
import { queryTimeRange } from '../paging/time-range.ts';
import type { Page, PageRequest, Paging } from '../paging/page.ts';
import type { Sealer } from './secrets.ts';
import { presentStoredEndpoint, type EndpointView } from './endpoints.ts';
import { AUDIT_EVENT_PREFIX } from '../events/types.ts';
import { deliveryStateIs, deliveryStates, presentEvent, type EventDeliveryState } from './recovery.ts';
import type { AttemptRow, EndpointRow } from './tables.ts';

/** Cursors name the collection and its order; a new order needs a new name. */
export const ENDPOINTS_ORDER = 'webhook_endpoints:created_at.desc,id.desc';
export const EVENTS_ORDER = 'events:created_at.desc,id.desc';
export const ATTEMPTS_ORDER = 'webhook_attempts:attempted_at.desc,id.desc';

/** The attempt log's order; its primary key is (endpoint_id, attempted_at, id). */
const LATEST_ATTEMPT_FIRST: KeysetColumns = { sortColumn: 'attempted_at', idColumn: 'id', direction: 'desc' };

/** What a page of a webhook collection answers: the interface's "Page of a collection". */
export interface ApiPage<T> {
  data: T[];
  next_cursor: string | null;
}

/** The cursor-free part of a page request: who reads, `limit` and `after` as given. */
export type PageOf = Omit<PageRequest, 'filters'>;

export interface EventFilters {
  type?: string | undefined;
  delivery_state?: EventDeliveryState | undefined;
  /** When the event was raised: RFC 3339 instants, `since` inclusive, `until` exclusive. */
  since?: string | undefined;
  until?: string | undefined;
  /**
   * Whether the reader may see the audit trail's streamed records (`audit.*` events): a token
   * without `audit:read` reads every other event, never the trail by this door.
   */
  audit: boolean;
}

export interface AttemptFilters {
  endpoint_id: string;
  event_id?: string | undefined;
  /** As for events: the attempts of audit events are listed only to a reader holding `audit:read`. */
  audit: boolean;
}

export function presentAttempt(row: AttemptRow) {
  return {
    id: row.id,
    object: 'webhook_delivery_attempt' as const,
    event_id: row.event_id,
    event_type: row.event_type,
    outcome: row.outcome,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    latency_ms: row.latency_ms,
    attempted_at: toRfc3339(row.attempted_at),
  };
}

function createdAtPosition(row: { created_at: number; id: string }): CursorPosition {
  return { key: row.created_at, id: row.id };
}

function attemptedAtPosition(row: AttemptRow): CursorPosition {
  return { key: row.attempted_at, id: row.id };
}

function apiPage<Row, T>(page: Page<Row>, present: (row: Row) => T): ApiPage<T> {
  return { data: page.rows.map(present), next_cursor: page.nextCursor };
}

export function createWebhookCollections(deps: { db: Db; clock: Clock; paging: Paging; sealer: Sealer }) {
  const { db, clock, paging, sealer } = deps;

  return {
    async endpoints(request: PageOf): Promise<ApiPage<EndpointView>> {
      const scoped = db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', request.accountId);
      const page = await paging.read<EndpointRow>(request, {
        orderName: ENDPOINTS_ORDER,
        fetch: (after, take) => keysetPage(scoped, NEWEST_FIRST, after, take).execute(),
        position: createdAtPosition,
      });
      const now = clock.now();
      return apiPage(page, (row) => presentStoredEndpoint(sealer, row, now));
    },

    /**
     * A time range bounds the account's index (account_id, created_at, id), or with `type` the
     * index (account_id, type, created_at), at both ends: a page costs a page whatever the range.
     */
    async events(request: PageOf, filters: EventFilters): Promise<ApiPage<ReturnType<typeof presentEvent>>> {
      const { since, until } = queryTimeRange(filters);
      let scoped = db.selectFrom('events').selectAll().where('account_id', '=', request.accountId);
      if (filters.type !== undefined) scoped = scoped.where('type', '=', filters.type);
      if (!filters.audit) scoped = scoped.where('type', 'not like', `${AUDIT_EVENT_PREFIX}%`);
      if (since !== undefined) scoped = scoped.where('created_at', '>=', since);
      if (until !== undefined) scoped = scoped.where('created_at', '<', until);
      const state = filters.delivery_state;
      if (state !== undefined) scoped = scoped.where((eb) => deliveryStateIs(eb, state));
      // The instants as read, so that two spellings of one instant are one read to the cursor.
      const fingerprinted = { ...filters, since, until };
      const page = await paging.read<Tables['events']>({ ...request, filters: fingerprinted }, {
        orderName: EVENTS_ORDER,
        fetch: (after, take) => keysetPage(scoped, NEWEST_FIRST, after, take).execute(),
        position: createdAtPosition,
      });
      const states = await deliveryStates(db, page.rows.map((row) => row.id));
      return apiPage(page, (row) => presentEvent(row, states.get(row.id) ?? 'none'));
    },

    /** The caller has found the endpoint in the account; the account scopes the rows again. */
    async attempts(request: PageOf, filters: AttemptFilters): Promise<ApiPage<ReturnType<typeof presentAttempt>>> {
      let scoped = db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('account_id', '=', request.accountId)
        .where('endpoint_id', '=', filters.endpoint_id);
      if (filters.event_id !== undefined) scoped = scoped.where('event_id', '=', filters.event_id);
      if (!filters.audit) scoped = scoped.where('event_type', 'not like', `${AUDIT_EVENT_PREFIX}%`);
      const page = await paging.read<AttemptRow>({ ...request, filters: { ...filters } }, {
        orderName: ATTEMPTS_ORDER,
        fetch: (after, take) => keysetPage(scoped, LATEST_ATTEMPT_FIRST, after, take).execute(),
        position: attemptedAtPosition,
      });
      return apiPage(page, presentAttempt);
    },
  };
}

export type WebhookCollections = ReturnType<typeof createWebhookCollections>;
