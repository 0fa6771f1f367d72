/**
 * Disabling an endpoint, by the user or automatically (410 Gone, or failing for days).
 * Its pending deliveries are parked, not dropped, so `recover` can requeue them once the
 * endpoint is enabled again. An automatic disable raises `webhook_endpoint.disabled`, which
 * the account's other subscribed endpoints receive as a notice.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import { recordEvent } from './outbox.ts';

export type DisableReason = 'manual' | 'gone' | 'failing';

export async function disableEndpoint(
  trx: Transaction<Tables>,
  input: { accountId: string; endpointId: string; reason: DisableReason; now: number },
): Promise<boolean> {
  const changed = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: input.reason, updated_at: input.now })
    .where('id', '=', input.endpointId)
    .where('account_id', '=', input.accountId)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) return false;
  await trx
    .updateTable('webhook_deliveries')
    .set({ state: 'parked', parked_at: input.now, lease_owner: null, lease_until: null, updated_at: input.now })
    .where('endpoint_id', '=', input.endpointId)
    .where('state', '=', 'pending')
    .execute();
  if (input.reason !== 'manual') {
    await recordEvent(trx, {
      accountId: input.accountId,
      type: 'webhook_endpoint.disabled',
      object: 'webhook_endpoint',
      objectId: input.endpointId,
      state: 'disabled',
      at: input.now,
    });
  }
  return true;
}
