/**
 * The directory of a closed account (accounts/closing.ts): its SCIM tokens are revoked, its
 * people deleted as SCIM DELETE deletes them (what the audit trail recorded about each goes with
 * them, audit/detach.ts; their history keeps the pseudonymous id), and its groups and roles go.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import { detachPeople } from '../audit/detach.ts';

export async function removeAccountDirectory(trx: Transaction<Tables>, accountId: string, at: number): Promise<{ people: number; scimTokens: number }> {
  const tokens = await trx.updateTable('scim_tokens').set({ revoked_at: at }).where('account_id', '=', accountId).where('revoked_at', 'is', null).executeTakeFirst();
  // Before the people go: detaching finds them, and the streamed bodies that name them, by their rows.
  await detachPeople(trx, accountId, at);
  // Their attribute values and memberships follow (foreign keys on delete cascade).
  const people = await trx.deleteFrom('users').where('account_id', '=', accountId).executeTakeFirst();
  await trx.deleteFrom('roles').where('account_id', '=', accountId).execute();
  await trx.deleteFrom('scim_groups').where('account_id', '=', accountId).execute();
  return { people: Number(people.numDeletedRows), scimTokens: Number(tokens.numUpdatedRows) };
}
