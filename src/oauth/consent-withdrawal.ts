/**
 * Withdrawing a person's consent to a client: the remembered consent (what `consent.granted`
 * recorded, oauth/sessions.ts) is forgotten, so the client's next authorization request asks the
 * person again (OpenID Connect Core §3.1.2.4), and `consent.withdrawn` is recorded in the same
 * transaction with the scopes that were consented to. Nothing remembered, nothing recorded.
 */
import type { Db } from '../platform/db/database.ts';
import { recordAudit, type AuditBy } from '../audit/record.ts';

export async function withdrawConsent(trx: Db, by: AuditBy | undefined, input: { accountId: string; userId: string; clientId: string; at: number }): Promise<boolean> {
  const { accountId, userId, clientId, at } = input;
  const remembered = await trx
    .deleteFrom('oauth_consents')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .returning('scope')
    .executeTakeFirst();
  if (!remembered) return false;
  const changes = { user_id: { after: userId }, scope: { before: remembered.scope, after: null } };
  await recordAudit(trx, by, { accountId, action: 'consent.withdrawn', target: { type: 'client', id: clientId }, changes, at });
  return true;
}
