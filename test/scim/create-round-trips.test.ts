/**
 * What SCIM POST /Users sends PostgreSQL: the person, their search rows and the audit record
 * go as one statement, so the trail adds no round trip to the write (docs/DECISIONS.md, "The
 * SCIM user's record rides in the user's INSERT"), and that statement is sent alone, without
 * BEGIN and COMMIT, a transaction of its own ("A SCIM create is one statement, without BEGIN
 * and COMMIT"). PUT, PATCH and DELETE send their record inside the row's UPDATE or DELETE.
 * The statements are counted at the pg client, where every query of the pool passes, prepared
 * or not.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeOnDatabase } from '../helpers/databases.ts';
import { statementsSentDuring } from '../helpers/sent-statements.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { createTestClock } from '../../src/platform/clock.ts';
import { createScimUsers } from '../../src/scim/users.ts';
import { createScimUserStore } from '../../src/scim/users-store.ts';
import { createScimGroupStore } from '../../src/scim/groups-store.ts';
import type { AuditBy, RecordAudit } from '../../src/audit/record.ts';

const CORE_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const by: AuditBy = { actor: { type: 'scim_token', id: 'scimtok_1' }, requestId: 'req-1', idempotencyKey: null };
const nothingRecorded: RecordAudit = Object.assign(async () => '', { row: () => null });

/** The first three words of each SQL text `pg` sends while `work` runs. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  return (await statementsSentDuring(work)).map(({ text }) => text.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase());
}

describeOnDatabase('postgres', 'statements of SCIM POST /Users (postgres)', (target) => {
  let created: { url: string; drop(): Promise<void> };
  let database: Database;
  const accountId = 'acct_rt';
  before(async () => {
    created = await target.create();
    database = await openDatabase({ databaseUrl: created.url });
    await migrateToLatest(database);
    await database.db.insertInto('accounts').values({ id: accountId, name: 'Round trips', created_at: 1 }).execute();
  });
  after(async () => {
    await database.close();
    await created.drop();
  });

  const users = (recordAudit?: RecordAudit) =>
    createScimUsers({
      db: database.db,
      store: createScimUserStore({ db: database.db, dialect: database.dialect }),
      groups: createScimGroupStore({ db: database.db, dialect: database.dialect }),
      clock: createTestClock(),
      revokeUserAccess: async () => {},
      baseUrl: 'https://gatehouse.example/scim/v2',
      recordAudit,
    });
  const person = (userName: string) => ({ schemas: [CORE_USER], userName, externalId: `ext-${userName}`, name: { givenName: 'Ada', familyName: 'L' }, emails: [{ value: userName, primary: true }] });

  it('the person, their search rows and the record are one statement sent alone, as many as without the trail', async () => {
    let id = '';
    const withTrail = await statementsOf(async () => ({ id } = (await users().create(accountId, person('ada@example.com'), by)) as { id: string }));
    const without = await statementsOf(() => users(nothingRecorded).create(accountId, person('bob@example.com'), by));
    assert.deepEqual(withTrail, ['with "written_1" as']);
    assert.deepEqual(without, withTrail);

    const user = await database.db.selectFrom('users').select(['user_name', 'external_id']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(user, { user_name: 'ada@example.com', external_id: 'ext-ada@example.com' });
    const values = await database.db.selectFrom('scim_user_values').select('attr').where('user_id', '=', id).execute();
    assert.ok(values.some((v) => v.attr === 'emails'), 'the search rows were written');
    const records = await database.db.selectFrom('audit_events').select(['action', 'actor_type', 'actor_id', 'request_id', 'changes']).where('target_id', '=', id).execute();
    assert.equal(records.length, 1);
    assert.deepEqual({ ...records[0], changes: undefined }, { action: 'scim.user.created', actor_type: 'scim_token', actor_id: 'scimtok_1', request_id: 'req-1', changes: undefined });
    assert.equal((JSON.parse(records[0]!.changes!) as { userName: { after: string } }).userName.after, 'ada@example.com');
  });

  it('a create refused for a taken userName leaves no user and no record', async () => {
    const before = await database.db.selectFrom('audit_events').select('id').execute();
    await assert.rejects(users().create(accountId, person('ADA@example.com'), by), (error: { status?: number; extensions?: { scimType?: string } }) => {
      assert.equal(error.status, 409);
      assert.equal(error.extensions?.scimType, 'uniqueness');
      return true;
    });
    assert.equal((await database.db.selectFrom('audit_events').select('id').execute()).length, before.length);
    assert.equal((await database.db.selectFrom('users').select('id').where('account_id', '=', accountId).execute()).length, 2);
  });

  it('a person of more search rows than one statement takes is written in a transaction, whole', async () => {
    const emails = Array.from({ length: 600 }, (_, i) => ({ value: `many${i}@example.com` }));
    let id = '';
    const sent = await statementsOf(async () => ({ id } = (await users().create(accountId, { ...person('many@example.com'), emails }, by)) as { id: string }));
    assert.deepEqual(sent, ['begin', 'with "written_1" as', 'insert into "scim_user_values"', 'commit']);
    const values = await database.db.selectFrom('scim_user_values').select('value').where('user_id', '=', id).where('attr', '=', 'emails').where('sub', '=', 'value').execute();
    assert.equal(values.length, 600);
    assert.equal((await database.db.selectFrom('audit_events').select('id').where('target_id', '=', id).execute()).length, 1);
  });

  it('PUT, PATCH and DELETE send their record with the row\'s write, not as a statement of its own', async () => {
    const { id } = (await users().create(accountId, person('eve@example.com'), by)) as { id: string };
    const recordsOf = async (action: string) => (await database.db.selectFrom('audit_events').select('id').where('target_id', '=', id).where('action', '=', action).execute()).length;
    const apart = (sent: string[]) => sent.filter((text) => text.startsWith('insert into "audit_events"'));

    const replaced = await statementsOf(() => users().replace(accountId, id, { ...person('eve@example.com'), displayName: 'Eve' }, undefined, by));
    assert.deepEqual(apart(replaced), []);
    assert.ok(replaced.includes('with "written_1" as'), replaced.join(' | '));
    assert.equal(await recordsOf('scim.user.replaced'), 1);

    const patch = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] };
    const patched = await statementsOf(() => users().patch(accountId, id, patch, undefined, by));
    assert.deepEqual(apart(patched), []);
    assert.equal(await recordsOf('scim.user.deactivated'), 1);

    const deleted = await statementsOf(() => users().delete(accountId, id, undefined, by));
    assert.deepEqual(apart(deleted), []);
    assert.ok(deleted.includes('with "written_1" as'), deleted.join(' | '));
    assert.equal(await recordsOf('scim.user.deleted'), 1);
    assert.equal((await database.db.selectFrom('users').select('id').where('id', '=', id).execute()).length, 0);
  });

  it('a PUT refused for a taken userName leaves no record of it', async () => {
    const { id } = (await users().create(accountId, person('fay@example.com'), by)) as { id: string };
    await assert.rejects(users().replace(accountId, id, { ...person('ADA@example.com'), externalId: 'ext-fay@example.com' }, undefined, by), (error: { status?: number; extensions?: { scimType?: string } }) => {
      assert.equal(error.status, 409);
      assert.equal(error.extensions?.scimType, 'uniqueness');
      return true;
    });
    const records = await database.db.selectFrom('audit_events').select('action').where('target_id', '=', id).execute();
    assert.deepEqual(records.map((r) => r.action), ['scim.user.created']);
  });
});
