/**
 * The interface: deleting a person makes "past actions lose their attribution to the person";
 * deactivating them keeps "record and attributed history". Records never store a name (query.ts
 * reads it from the person while they exist), so a deactivated person's history shows their
 * name and a deleted one's shows only the pseudonymous id, which no longer resolves to anyone.
 * What remains personal is what was recorded about the person (their userName, e-mails,
 * externalId in `changes`): `detachPerson` removes it, in the transaction that deletes them.
 * The chain covers `changes` only through its MAC, so it still verifies (chain.ts).
 *
 * Audit events streamed to webhooks (record.ts) keep the record as it was presented when it was
 * written, name included: their stored bodies are detached alike, so a redelivery after the
 * deletion sends the record as the API now shows it (what receivers already hold is theirs).
 */
import { sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import { AUDIT_EVENT_PREFIX } from '../events/types.ts';
import { holdChainHead } from './sealer.ts';

export async function detachPerson(trx: Db, accountId: string, userId: string, at: number): Promise<number> {
  // The chain head held as a sealer holds it (sealer.ts): a sealer streaming the account's records
  // has read the people's names into the bodies it writes, so the detaching waits for it to commit
  // and then finds those bodies; a sealer starting later waits for the deletion and reads no name.
  await holdChainHead(trx, accountId, at);
  const detached = await detachRecords(trx, accountId, (q) => q.where('target_id', '=', userId), at);
  await detachStreamedRecords(trx, accountId, userId);
  return detached;
}

type RecordsUpdate = UpdateQueryBuilder<Tables, 'audit_events', 'audit_events', UpdateResult>;

/**
 * Detaches the account's records that `whose` selects, unsealed and sealed apart, since the index
 * by target holds sealed records only (migration 0602) and unsealed ones are found by account.
 * The unsealed first: a record the sealer seals between the two statements is then found by the
 * second (on PostgreSQL each statement sees what committed before it); the other order would
 * miss it.
 */
async function detachRecords(trx: Db, accountId: string, whose: (q: RecordsUpdate) => RecordsUpdate, at: number): Promise<number> {
  let detached = 0;
  for (const sealed of [false, true]) {
    const result = await whose(trx.updateTable('audit_events').set({ changes: null, detached_at: at }))
      .where('seq', sealed ? 'is not' : 'is', null)
      .where('account_id', '=', accountId)
      .where('detached_at', 'is', null)
      .executeTakeFirst();
    detached += Number(result.numUpdatedRows);
  }
  return detached;
}

/**
 * `detachPerson` for every person of the account at once (closing the account): the records
 * and the stored bodies alike. Runs before the people are deleted, since it finds them by
 * their rows.
 */
export async function detachPeople(trx: Db, accountId: string, at: number): Promise<number> {
  await holdChainHead(trx, accountId, at);
  const detached = await detachRecords(trx, accountId, (q) => q.where('target_id', 'in', trx.selectFrom('users').select('id').where('account_id', '=', accountId)), at);
  await detachStreamedRecords(trx, accountId);
  return detached;
}

interface StreamedRecord {
  data: { actor: { id: string; display: string | null; client?: { id: string } }; target: { id: string }; changes: unknown; detached: boolean };
}

/**
 * Removes the names of the account's people (of one of them, `userId`) and what was recorded
 * about them from the audit events stored for delivery. The people are read from their rows, by
 * a subquery, so an account of any size is one statement.
 */
async function detachStreamedRecords(trx: Db, accountId: string, userId?: string): Promise<void> {
  let whose = trx.selectFrom('users').select('id').where('account_id', '=', accountId);
  if (userId !== undefined) whose = whose.where('id', '=', userId);
  const people = new Set((await whose.execute()).map((u) => u.id));
  if (people.size === 0) return;
  const streamed = await trx
    .selectFrom('events')
    .innerJoin('audit_events', 'audit_events.id', 'events.object_id')
    .select(['events.id', 'events.payload'])
    .where('events.account_id', '=', accountId)
    .where(sql<boolean>`substr(events.type, 1, ${AUDIT_EVENT_PREFIX.length}) = ${AUDIT_EVENT_PREFIX}`)
    .where((eb) => eb.or([eb('audit_events.target_id', 'in', whose), eb('audit_events.actor_id', 'in', whose)]))
    .execute();
  for (const event of streamed) {
    const body = JSON.parse(event.payload) as StreamedRecord;
    const record = body.data;
    if (people.has(record.actor.id)) record.actor.display = null;
    if (people.has(record.target.id)) {
      record.changes = null;
      record.detached = true;
    }
    await trx.updateTable('events').set({ payload: JSON.stringify(body) }).where('id', '=', event.id).execute();
  }
}
