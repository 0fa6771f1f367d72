/**
 * Ending a person's access at once (deactivation, a password reset or deletion of the user):
 * every access token, refresh token, grant and sign-in session of theirs stops working on the
 * next request; a deletion also forgets the consents they gave. Called inside the transaction that changes the user, so the change and the
 * revocation commit together. The clients their sessions signed in to are told by back-channel
 * logout (backchannel-logout.ts), queued in that same transaction.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { queueLogoutTokens } from './backchannel-logout.ts';
import { revokeGrant } from './grants.ts';

/** Why the access ends: only a deletion forgets the person's consents (deactivation keeps them, as it keeps the person). */
export type AccessEnded = 'deactivated' | 'password_reset' | 'deleted';

export type RevokeUserAccess = (trx: Transaction<Tables> | Db, accountId: string, userId: string, at: number, why: AccessEnded) => Promise<void>;

const REVOCABLE = ['access_tokens', 'oauth_refresh_tokens', 'oauth_grants'] as const;

export const revokeUserAccess: RevokeUserAccess = async (trx, accountId, userId, at, why) => {
  await queueLogoutTokens(trx, { accountId, userId, now: at });
  // Every token and grant of theirs still live is revoked, at the same instant.
  for (const table of REVOCABLE) {
    await trx.updateTable(table).set({ revoked_at: at }).where('account_id', '=', accountId).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }
  await trx
    .updateTable('oauth_sessions')
    .set({ ended_at: at })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .execute();
  await trx.deleteFrom('oauth_codes').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
  // The deletion's own record covers these: no `consent.withdrawn` each.
  if (why === 'deleted') await trx.deleteFrom('oauth_consents').where('account_id', '=', accountId).where('user_id', '=', userId).execute();
};

/**
 * Ends sign-in sessions of one person (signing out, an operator ending one, another person signing
 * in in the same browser): each client a session signed in to is told by back-channel logout, and
 * the grants signed in under it are revoked with their tokens, and the codes issued under it and
 * not yet redeemed are deleted, so none can open a grant of a session already ended (the client was
 * told it ended). OpenID Connect Back-Channel Logout §2.7: refresh tokens not issued for offline
 * access end with the session, and Gatehouse issues none for offline access. Returns how many
 * sessions were live until now.
 */
export async function endSessions(trx: Transaction<Tables>, input: { accountId: string; userId: string; sessionIds: readonly string[]; at: number }): Promise<number> {
  const { accountId, userId, sessionIds, at } = input;
  await queueLogoutTokens(trx, { accountId, userId, sessionIds, now: at });
  const ended = await trx.updateTable('oauth_sessions').set({ ended_at: at }).where('account_id', '=', accountId).where('id', 'in', [...sessionIds]).where('ended_at', 'is', null).executeTakeFirst();
  // Before the grants are read: a redemption already holding its code commits its grant first, and
  // the read below finds it; one that comes later finds its code gone (token.ts).
  await trx.deleteFrom('oauth_codes').where('account_id', '=', accountId).where('user_id', '=', userId).where('session_id', 'in', [...sessionIds]).where('consumed_at', 'is', null).execute();
  const grants = await trx.selectFrom('oauth_grants').select('id').where('session_id', 'in', [...sessionIds]).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
  for (const grant of grants) await revokeGrant(trx, grant.id, at);
  return Number(ended.numUpdatedRows);
}

/**
 * Ends everything of the account at once (closing the account, accounts/closing.ts): every
 * token, grant, code, consent and sign-in session, and its clients, so nothing of it can
 * authenticate at the token endpoint, and no token of it (opaque or sealed, which names its
 * client) passes a bearer check. No back-channel logouts: the clients they would tell are the
 * account's own and go in the same transaction. Returns how many clients were removed.
 */
export async function endAccountAccess(trx: Transaction<Tables>, accountId: string, at: number): Promise<number> {
  for (const table of ['access_tokens', 'oauth_refresh_tokens', 'oauth_grants'] as const) {
    await trx.updateTable(table).set({ revoked_at: at }).where('account_id', '=', accountId).where('revoked_at', 'is', null).execute();
  }
  await trx.updateTable('oauth_sessions').set({ ended_at: at }).where('account_id', '=', accountId).where('ended_at', 'is', null).execute();
  await trx.deleteFrom('oauth_codes').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('oauth_consents').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('oidc_session_clients').where('account_id', '=', accountId).execute();
  // Logout tokens not yet sent would be signed for clients that no longer exist.
  await trx.deleteFrom('oidc_logout_deliveries').where('account_id', '=', accountId).where('state', '!=', 'delivered').execute();
  const removed = await trx.deleteFrom('oauth_clients').where('account_id', '=', accountId).executeTakeFirst();
  return Number(removed.numDeletedRows);
}
