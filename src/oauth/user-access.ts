/**
 * Ending a person's access at once (deactivation or deletion of the user): every access
 * token, refresh token, grant and sign-in session of theirs stops working on the next
 * request. Called inside the transaction that changes the user, so the change and the
 * revocation commit together. The clients their sessions signed in to are told by back-channel
 * logout (backchannel-logout.ts), queued in that same transaction.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { queueLogoutTokens } from './backchannel-logout.ts';

export type RevokeUserAccess = (trx: Transaction<Tables> | Db, accountId: string, userId: string, at: number) => Promise<void>;

const REVOCABLE = ['access_tokens', 'oauth_refresh_tokens', 'oauth_grants'] as const;

export const revokeUserAccess: RevokeUserAccess = async (trx, accountId, userId, at) => {
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
};
