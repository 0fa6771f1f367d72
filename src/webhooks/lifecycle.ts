/**
 * Disabling an endpoint, by the user, automatically (410 Gone, or failing for days), or because
 * its account was closed. Its pending deliveries are parked, not dropped, so `recover` can
 * requeue them once the endpoint is enabled again. An automatic disable raises
 * `webhook_endpoint.disabled`, which the account's other subscribed endpoints receive as a notice.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import { recordEvent } from '../events/outbox.ts';
import { recordAudit, systemActor } from '../audit/record.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { presentEndpointInEvent } from './endpoints.ts';

/**
 * Why an endpoint is disabled, as `disabled_reason` shows it: `manual` by its owner, `gone` (it
 * answered 410), `failing` (failures unbroken for GATEHOUSE_WEBHOOK_DISABLE_AFTER), `account_closed`.
 */
export const DISABLE_REASONS = ['manual', 'gone', 'failing', 'account_closed'] as const;
export type DisableReason = (typeof DISABLE_REASONS)[number];

/**
 * Only a disable nobody asked for is announced, to the account's other endpoints and in the trail
 * as the dispatcher's. The owner's own disable is audited by its route; closing an account
 * disables all its endpoints at once, so none is left to be told, and its one audit record
 * (`account.deleted`) counts them.
 */
function isAutomatic(reason: DisableReason): reason is 'gone' | 'failing' {
  return reason === 'gone' || reason === 'failing';
}

/** Disables the endpoint if it is enabled; returns how many of its deliveries were parked, or undefined if it was not enabled. */
export async function disableEndpoint(
  trx: Transaction<Tables>,
  input: { accountId: string; endpointId: string; reason: DisableReason; now: number },
): Promise<{ parked: number } | undefined> {
  // Writes fanning out to the endpoint hold it for reference (fan-out.ts): those under way commit
  // first, so their deliveries are queued before the queue is parked below, and those that come
  // after wait and then find the endpoint disabled. None queues a delivery past the parking.
  const endpoint = trx.selectFrom('webhook_endpoints').select('id').where('id', '=', input.endpointId).where('account_id', '=', input.accountId);
  await dialectOf(trx).lockOutReferences(endpoint).execute();
  const changed = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: input.reason, updated_at: input.now })
    .where('id', '=', input.endpointId)
    .where('account_id', '=', input.accountId)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) return undefined;
  const parked = await parkQueued(trx, input.endpointId, input.now);
  if (isAutomatic(input.reason)) {
    const row = await trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', input.endpointId).executeTakeFirstOrThrow();
    await recordEvent(trx, {
      accountId: input.accountId,
      type: 'webhook_endpoint.disabled',
      object: 'webhook_endpoint',
      objectId: input.endpointId,
      state: 'disabled',
      data: presentEndpointInEvent(row, input.now),
      at: input.now,
    });
    await recordAudit(trx, systemActor('webhook_dispatcher'), {
      accountId: input.accountId,
      action: 'webhook_endpoint.disabled',
      target: { type: 'webhook_endpoint', id: input.endpointId },
      changes: { enabled: { before: true, after: false }, disabled_reason: { before: null, after: input.reason } },
      at: input.now,
    });
  }
  return { parked };
}

/**
 * Takes the endpoint's deliveries out of the queue and parks them. Where writes run inside WITH
 * clauses (PostgreSQL) one statement parks exactly the rows it dequeued, whatever commits
 * meanwhile; elsewhere (SQLite) one writer runs at a time, so two statements see the same queue.
 */
async function parkQueued(trx: Transaction<Tables>, endpointId: string, now: number): Promise<number> {
  const park = (ids: RawBuilder<unknown>) =>
    sql`update webhook_deliveries set state = 'parked', parked_at = ${now}, updated_at = ${now} where id in (${ids})`;
  const dequeue = trx.deleteFrom('webhook_queue').where('endpoint_id', '=', endpointId);
  if (dialectOf(trx).writableCtes) {
    const parked = await sql`
      with dequeued as (${dequeue.returning('delivery_id')})
      ${park(sql`select delivery_id from dequeued`)}`.execute(trx);
    return Number(parked.numAffectedRows ?? 0n);
  }
  const parked = await park(sql`select delivery_id from webhook_queue where endpoint_id = ${endpointId}`).execute(trx);
  await dequeue.execute();
  return Number(parked.numAffectedRows ?? 0n);
}
