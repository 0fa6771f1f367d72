/**
 * SCIM creates that arrive together: on PostgreSQL they go as one statement (create-together.ts),
 * on SQLite in one transaction of the node's group commit; each request still gets its own answer. A userName taken by a stored person, or by another
 * create of the same batch, answers that one request 409 `uniqueness` (RFC 7644 §3.3) and the
 * others are created, each with their search rows and their audit record.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { statementsSentDuring } from '../helpers/sent-statements.ts';
import { scimClient, ERROR, USER, type ScimClient } from './scim-client.ts';
import { createScimUsers } from '../../src/scim/users.ts';
import { createScimUserStore } from '../../src/scim/users-store.ts';
import { createScimGroupStore } from '../../src/scim/groups-store.ts';
import { createGroupCommit } from '../../src/platform/db/group-commit.ts';

const person = (userName: string) => ({ schemas: [USER], userName, emails: [{ value: userName, type: 'work' }] });

for (const target of databaseTargets()) {
  describe(`SCIM creates arriving together (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t, 'Together');
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    const storedUsers = (userNameLower: string) => db().selectFrom('users').select(['id', 'user_name']).where('account_id', '=', c.accountId).where('user_name_lower', '=', userNameLower).execute();
    const searchRows = (userId: string) => db().selectFrom('scim_user_values').select(['attr', 'value']).where('user_id', '=', userId).where('attr', '=', 'emails').where('sub', '=', 'value').execute();
    const records = (userId: string) => db().selectFrom('audit_events').select('action').where('target_id', '=', userId).execute();

    it('two creates of one userName sent at once: exactly one 201, the other 409 uniqueness, one person stored', async () => {
      const answers = await Promise.all([c.call('POST', '/Users', person('twin@example.com')), c.call('POST', '/Users', person('TWIN@example.com'))]);
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 409]);
      const refused = answers.find((a) => a.status === 409)!;
      assert.deepEqual(refused.body.schemas, [ERROR]);
      assert.equal(refused.body.scimType, 'uniqueness');
      const created = answers.find((a) => a.status === 201)!;
      const stored = await storedUsers('twin@example.com');
      assert.deepEqual(stored, [{ id: created.body.id, user_name: created.body.userName }]);
      assert.deepEqual(await searchRows(stored[0]!.id), [{ attr: 'emails', value: created.body.userName }]);
      assert.deepEqual(await records(stored[0]!.id), [{ action: 'scim.user.created' }]);
      assert.equal((await db().selectFrom('audit_events').select('id').where('action', '=', 'scim.user.created').where('account_id', '=', c.accountId).execute()).length, 1);
    });

    it('a batch with one taken userName: that one 409, the rest created with their search rows and records', async () => {
      const names = Array.from({ length: 6 }, (_, i) => `member${i}@example.com`);
      const answers = await Promise.all([...names, 'Twin@example.com'].map((name) => c.call('POST', '/Users', person(name))));
      assert.deepEqual(answers.map((a) => a.status), [201, 201, 201, 201, 201, 201, 409]);
      assert.equal(answers[6]!.body.scimType, 'uniqueness');
      for (const [i, name] of names.entries()) {
        assert.equal(answers[i]!.body.userName, name);
        const [stored] = await storedUsers(name);
        assert.equal(stored?.id, answers[i]!.body.id);
        assert.deepEqual(await searchRows(stored!.id), [{ attr: 'emails', value: name }]);
        assert.deepEqual(await records(stored!.id), [{ action: 'scim.user.created' }]);
      }
      assert.equal((await storedUsers('twin@example.com')).length, 1);
    });

    /** The SCIM users service as the app builds it. */
    function scimUsers() {
      const { db: database, dialect } = t.gatehouse.database;
      return createScimUsers({
        db: database,
        store: createScimUserStore({ db: database, dialect, groupCommit: createGroupCommit({ db: database }) }),
        groups: createScimGroupStore({ db: database, dialect }),
        clock: t.clock,
        revokeUserAccess: async () => {},
        baseUrl: 'https://gatehouse.example/scim/v2',
      });
    }

    /** How many transactions `work` began on the app's database. */
    async function transactionsBegunDuring(work: () => Promise<unknown>): Promise<number> {
      const database = db();
      const begin = database.transaction;
      let begun = 0;
      database.transaction = function (this: typeof database) {
        begun++;
        return begin.call(this);
      };
      try {
        await work();
      } finally {
        delete (database as Partial<typeof database>).transaction;
      }
      return begun;
    }

    it('creates submitted in one turn of the event loop: one statement on PostgreSQL, each answered alone', async () => {
      const users = scimUsers();
      const names = ['turn-a@example.com', 'turn-b@example.com', 'TURN-A@example.com', 'twin@example.com'];
      let outcomes: PromiseSettledResult<{ id?: unknown }>[] = [];
      const sent = await statementsSentDuring(async () => {
        outcomes = await Promise.allSettled(names.map((name) => users.create(c.accountId, person(name))));
      });
      assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'rejected']);
      for (const refused of outcomes.slice(2)) assert.equal(((refused as PromiseRejectedResult).reason as { status: number }).status, 409);
      if (target.kind === 'postgres') assert.deepEqual(sent.map((s) => s.text.trim().split(/\s+/).slice(0, 3).join(' ')), ['with person as']);
      for (const name of ['turn-a@example.com', 'turn-b@example.com']) {
        const [stored] = await storedUsers(name);
        assert.ok(stored, `${name} is stored`);
        assert.deepEqual(await records(stored.id), [{ action: 'scim.user.created' }]);
      }
    });

    it('on SQLite, creates submitted in one turn commit in one transaction, each with its record', { skip: target.kind !== 'sqlite' && 'PostgreSQL sends them as one statement (above)' }, async () => {
      const users = scimUsers();
      const names = Array.from({ length: 5 }, (_, i) => `commit-${i}@example.com`);
      let created: Array<{ id?: unknown }> = [];
      const begun = await transactionsBegunDuring(async () => {
        created = await Promise.all(names.map((name) => users.create(c.accountId, person(name))));
      });
      assert.equal(begun, 1);
      for (const [i, name] of names.entries()) {
        const [stored] = await storedUsers(name);
        assert.equal(stored?.id, created[i]!.id);
        assert.deepEqual(await searchRows(stored!.id), [{ attr: 'emails', value: name }]);
        assert.deepEqual(await records(stored!.id), [{ action: 'scim.user.created' }]);
      }
    });
  });
}
