/**
 * Closing an account (DELETE /admin/v1/accounts/{id}; docs/DECISIONS.md "Closing an account").
 *
 * A payments platform cannot forget a customer's money: an account whose available balance is
 * not zero in some currency, or that has payouts still pending, is refused (409
 * `account_holds_funds` / `account_has_pending_payouts`) until it is paid out and settled.
 * Otherwise, in one transaction:
 * - nothing of it can authenticate any more: every token, grant, code, consent and session
 *   ends, and its clients are deleted (oauth/user-access.ts `endAccountAccess`); its SCIM
 *   tokens are revoked and its people deleted as SCIM DELETE deletes them, their details
 *   detached from the audit trail (scim/closing.ts);
 * - its webhook endpoints are disabled (`disabled_reason` `account_closed`), their queued
 *   deliveries parked (webhooks/lifecycle.ts);
 * - the account row stays as a tombstone (`deleted_at`): its invoices, ledger entries, payouts,
 *   events and audit trail are kept, as bookkeeping and the audit feature require, and the
 *   audit trail stays readable on the admin API (`GET /admin/v1/audit-events?account=`).
 * Every admin route answers 404 `account_not_found` for it from then on.
 */
import type { Db } from '../platform/db/database.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/index.ts';
import { accountHoldings } from '../payments/holdings.ts';
import { endAccountAccess } from '../oauth/user-access.ts';
import { removeAccountDirectory } from '../scim/closing.ts';
import { disableEndpoint } from '../webhooks/lifecycle.ts';
import { dialectOf } from '../platform/db/dialect.ts';

export async function closeAccount(db: Db, input: { accountId: string; now: number; by?: AuditBy }): Promise<void> {
  const { accountId, now } = input;
  await db.transaction().execute(async (trx) => {
    const account = await dialectOf(trx)
      .lockForWrite(trx.selectFrom('accounts').select(['id', 'name']).where('id', '=', accountId).where('deleted_at', 'is', null))
      .executeTakeFirst();
    if (!account) throw problem('account_not_found', { detail: `No account ${accountId}` });
    const holdings = await accountHoldings(trx, accountId);
    if (holdings.balances.length > 0) {
      const held = holdings.balances.map((b) => `${b.available} ${b.currency}`).join(', ');
      throw problem('account_holds_funds', { detail: `The account still holds ${held} (minor units); pay it out before closing the account` });
    }
    if (holdings.pendingPayouts > 0) {
      throw problem('account_has_pending_payouts', { detail: `${holdings.pendingPayouts} payout(s) are still pending; close the account once they are paid or failed` });
    }
    const clients = await endAccountAccess(trx, accountId, now);
    const directory = await removeAccountDirectory(trx, accountId, now);
    const endpoints = await trx.selectFrom('webhook_endpoints').select('id').where('account_id', '=', accountId).where('enabled', '=', 1).execute();
    for (const endpoint of endpoints) await disableEndpoint(trx, { accountId, endpointId: endpoint.id, reason: 'account_closed', now });
    await trx.updateTable('accounts').set({ deleted_at: now, updated_at: now, logo: null, brand_color: null }).where('id', '=', accountId).execute();
    const removed = { clients_removed: clients, people_removed: directory.people, scim_access_revoked: directory.scimTokens, webhook_endpoints_disabled: endpoints.length };
    await recordAudit(trx, input.by, { accountId, action: 'account.deleted', target: { type: 'account', id: accountId }, changes: changesOf({ name: account.name, ...removed }, null), at: now });
  });
}
