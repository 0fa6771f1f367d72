/**
 * The interface: deleting a person makes "past actions lose their attribution to the person";
 * deactivating them keeps "record and attributed history". Records never store a name (query.ts
 * reads it from the person while they exist), so a deactivated person's history shows their
 * name and a deleted one's shows only the pseudonymous id, which no longer resolves to anyone.
 * What remains personal is what was recorded about the person (their userName, e-mails,
 * externalId in `changes`): `detachPerson` removes it, in the transaction that deletes them.
 * The chain covers `changes` only through its MAC, so it still verifies (chain.ts).
 */
import type { Db } from '../platform/db/database.ts';

export async function detachPerson(trx: Db, accountId: string, userId: string, at: number): Promise<number> {
  const result = await trx
    .updateTable('audit_events')
    .set({ changes: null, detached_at: at })
    .where('account_id', '=', accountId)
    .where('target_id', '=', userId)
    .where('detached_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** `detachPerson` for every person of the account at once (closing the account). */
export async function detachPeople(trx: Db, accountId: string, at: number): Promise<number> {
  const result = await trx
    .updateTable('audit_events')
    .set({ changes: null, detached_at: at })
    .where('account_id', '=', accountId)
    .where('target_id', 'in', trx.selectFrom('users').select('id').where('account_id', '=', accountId))
    .where('detached_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
