/**
 * What an operator does about back-channel logouts that could not be delivered, as for parked
 * webhooks (webhooks/recovery.ts): list an account's deliveries (cursor paging, newest first,
 * optionally only one state or one client), retry one, or retry every parked delivery since a
 * time. A retried delivery starts a new retry cycle, due now: the sender (backchannel-logout.ts)
 * signs a fresh logout token when it sends, with the key and `sub` form the client has then.
 * A parked logout means a client still holds sessions the person ended, so it is kept until
 * delivered or retried, never dropped.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { Paging } from '../paging/page.ts';
import { keysetPage, NEWEST_FIRST } from '../paging/keyset.ts';
import { recordAudit, type AuditBy } from '../audit/index.ts';
import type { OidcTables } from './tables.ts';

type DeliveryRow = OidcTables['oidc_logout_deliveries'];
export const LOGOUT_DELIVERY_STATES = ['pending', 'delivered', 'parked'] as const;
export type LogoutDeliveryState = (typeof LOGOUT_DELIVERY_STATES)[number];

export function presentLogoutDelivery(row: DeliveryRow) {
  const claims = JSON.parse(row.claims) as { user_id: string; sid: string };
  return {
    object: 'logout_delivery' as const,
    id: row.id,
    client_id: row.client_id,
    user_id: claims.user_id,
    sid: claims.sid,
    target_uri: row.target_uri,
    state: row.state as LogoutDeliveryState,
    failures: Number(row.failures),
    last_error: row.last_error,
    created_at: toRfc3339(Number(row.created_at)),
    next_attempt_at: row.state === 'pending' ? toRfc3339(Number(row.next_attempt_at)) : null,
    delivered_at: row.delivered_at === null ? null : toRfc3339(Number(row.delivered_at)),
  };
}

export function createLogoutRecovery(deps: { db: Db; clock: Clock; paging: Paging }) {
  const { db, clock } = deps;

  /** Puts `ids` (of the account, parked) back in the queue, due now; returns how many. */
  async function requeue(trx: Db, accountId: string, ids: string[], by: AuditBy | undefined, scope: Record<string, unknown>, one?: string): Promise<number> {
    if (ids.length === 0) return 0;
    const now = clock.now();
    const result = await trx
      .updateTable('oidc_logout_deliveries')
      .set({ state: 'pending', failures: 0, next_attempt_at: now, lease_until: null })
      .where('account_id', '=', accountId)
      .where('state', '=', 'parked')
      .where('id', 'in', ids)
      .executeTakeFirst();
    const requeued = Number(result.numUpdatedRows);
    // One delivery is the target of its retry; a retry of all since a time is the account's.
    const target = one === undefined ? { type: 'account', id: accountId } : { type: 'logout_delivery', id: one };
    await recordAudit(trx, by, { accountId, action: 'logout_delivery.retried', target, changes: { requeued: { after: requeued }, ...Object.fromEntries(Object.entries(scope).map(([k, v]) => [k, { after: v }])) }, at: now });
    return requeued;
  }

  return {
    async list(accountId: string, request: { limit?: number; after?: string; state?: LogoutDeliveryState; client_id?: string }) {
      const page = await deps.paging.read(
        { accountId, limit: request.limit, after: request.after, filters: { state: request.state, client_id: request.client_id } },
        {
          orderName: 'logout-deliveries:created_at.desc,id.desc',
          fetch: (after, take) => {
            let query = db.selectFrom('oidc_logout_deliveries').selectAll().where('account_id', '=', accountId);
            if (request.state) query = query.where('state', '=', request.state);
            if (request.client_id) query = query.where('client_id', '=', request.client_id);
            return keysetPage(query, NEWEST_FIRST, after, take).execute();
          },
          position: (row) => ({ key: Number(row.created_at), id: row.id }),
        },
      );
      return { data: page.rows.map(presentLogoutDelivery), next_cursor: page.nextCursor };
    },

    /** Retries one parked delivery; a delivery that is not parked is left as it is (409). */
    async retry(accountId: string, deliveryId: string, by?: AuditBy) {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('oidc_logout_deliveries').selectAll().where('account_id', '=', accountId).where('id', '=', deliveryId).executeTakeFirst();
        if (!row) throw problem('logout_delivery_not_found', { detail: `No back-channel logout delivery ${deliveryId} in this account` });
        if (row.state !== 'parked') throw problem('logout_delivery_not_parked', { detail: `The delivery is ${row.state}; only a parked delivery is retried` });
        await requeue(trx, accountId, [deliveryId], by, {}, deliveryId);
        return presentLogoutDelivery(await trx.selectFrom('oidc_logout_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirstOrThrow());
      });
    },

    /** Retries every parked delivery of the account queued at or after `since` (of one client, if named). */
    async retryParked(accountId: string, input: { since: number; clientId?: string }, by?: AuditBy) {
      return db.transaction().execute(async (trx) => {
        let query = trx.selectFrom('oidc_logout_deliveries').select('id').where('account_id', '=', accountId).where('state', '=', 'parked').where('created_at', '>=', input.since);
        if (input.clientId) query = query.where('client_id', '=', input.clientId);
        const ids = (await query.execute()).map((r) => r.id);
        const scope = { since: toRfc3339(input.since), ...(input.clientId ? { client_id: input.clientId } : {}) };
        const requeued = await requeue(trx, accountId, ids, by, scope);
        return { object: 'logout_retry' as const, ...scope, requeued };
      });
    },
  };
}

export type LogoutRecovery = ReturnType<typeof createLogoutRecovery>;
