/**
 * The operator changes a person (PATCH /admin/v1/accounts/{id}/users/{userId}) and finds one
 * (GET …/users?userName=&active=): checked and recorded as a directory's PATCH is, on both
 * databases.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { scimClient, USER } from '../scim/scim-client.ts';
import type { Json } from '../helpers/http.ts';

const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`admin API: changing and finding people (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    const row = (id: string) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const recordsOf = (accountId: string, action: string) =>
      db().selectFrom('audit_events').selectAll().where('account_id', '=', accountId).where('action', '=', action).execute();
    async function person(accountId: string, userName: string, name?: Json): Promise<string> {
      const created = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName, password: PASSWORD, ...(name ? { name } : {}) });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    }

    it('PATCH changes userName and name: stored, versioned, recorded before and after, and what sign-in and SCIM see', async () => {
      const accountId = await createAccount(t, 'Renames');
      const id = await person(accountId, 'ada@example.com', { givenName: 'Ada', familyName: 'Byron' });
      const before = await row(id);
      t.clock.advance(1000);

      const changed = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/users/${id}`, { userName: ' Ada.Lovelace@example.com ', name: { familyName: 'Lovelace' } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.userName, 'Ada.Lovelace@example.com');
      assert.deepEqual(changed.body.name, { givenName: 'Ada', familyName: 'Lovelace' });
      assert.deepEqual((await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${id}`)).body, changed.body);

      const after = await row(id);
      assert.equal(after.user_name_lower, 'ada.lovelace@example.com');
      assert.equal(after.display_name, 'Ada Lovelace', 'the display name made from the name follows it');
      assert.equal(after.version, before.version + 1);
      assert.equal(after.updated_at, before.updated_at + 1000);
      assert.equal(after.password_hash, before.password_hash);

      const [record, ...more] = await recordsOf(accountId, 'user.updated');
      assert.equal(more.length, 0);
      assert.equal(record!.actor_type, 'admin');
      assert.equal(record!.target_id, id);
      assert.deepEqual(JSON.parse(record!.changes!), {
        userName: { before: 'ada@example.com', after: 'Ada.Lovelace@example.com' },
        name: { before: { givenName: 'Ada', familyName: 'Byron' }, after: { givenName: 'Ada', familyName: 'Lovelace' } },
        displayName: { before: 'Ada Byron', after: 'Ada Lovelace' },
      });

      // Sign-in takes the new userName only.
      assert.equal((await t.gatehouse.services.userAccounts.verifySignIn(accountId, 'ada.lovelace@EXAMPLE.com', PASSWORD)).user?.id, id);
      assert.equal((await t.gatehouse.services.userAccounts.verifySignIn(accountId, 'ada@example.com', PASSWORD)).user, undefined);
    });

    it('null removes a name part; a directory\'s own displayName stays; a change that changes nothing writes nothing', async () => {
      const directory = await scimClient(t, 'Directory-managed');
      const created = await directory.call('POST', '/Users', { schemas: [USER], userName: 'grace', externalId: 'g-1', displayName: 'Rear Admiral Hopper', name: { givenName: 'Grace', familyName: 'Hopper' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      t.clock.advance(1000);

      const changed = await t.admin('PATCH', `/admin/v1/accounts/${directory.accountId}/users/${id}`, { name: { givenName: 'Grace B.', familyName: null } });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual(changed.body.name, { givenName: 'Grace B.' });
      const seen = await directory.call('GET', `/Users/${id}`);
      assert.deepEqual(seen.body.name, { givenName: 'Grace B.' });
      assert.equal(seen.body.displayName, 'Rear Admiral Hopper', 'set by the directory, not made from the name');
      assert.equal(seen.body.externalId, 'g-1');
      assert.notEqual(seen.body.meta.version, created.body.meta.version, 'the ETag moves');

      const version = (await row(id)).version;
      const same = await t.admin('PATCH', `/admin/v1/accounts/${directory.accountId}/users/${id}`, { userName: 'grace', name: { givenName: 'Grace B.' } });
      assert.equal(same.status, 200);
      assert.equal((await row(id)).version, version, 'nothing changed: no new version');
      assert.equal((await recordsOf(directory.accountId, 'user.updated')).length, 1, 'and no second record');
    });

    it('refusals change nothing: a taken userName → 409, bad bodies → 400, another account or nobody → 404', async () => {
      const accountId = await createAccount(t, 'Refusals');
      const ada = await person(accountId, 'ada');
      await person(accountId, 'grace');
      const stored = await row(ada);

      const taken = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/users/${ada}`, { userName: 'GRACE' });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.code, 'user_name_taken');
      assert.equal(taken.headers.get('content-type'), 'application/problem+json; charset=utf-8');

      for (const body of [{}, { userName: '   ' }, { userName: 'x'.repeat(257) }, { name: {} }, { name: { givenName: 7 } }, { active: false }, { name: { middleName: 'B' } }]) {
        const refused = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/users/${ada}`, body);
        assert.equal(refused.status, 400, JSON.stringify(body));
        assert.equal(refused.body.code, 'validation_failed', JSON.stringify(body));
      }

      const other = await createAccount(t, 'Elsewhere');
      const foreign = await t.admin('PATCH', `/admin/v1/accounts/${other}/users/${ada}`, { userName: 'mine' });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.code, 'user_not_found');
      const nobody = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/users/user_00000000000000000000`, { userName: 'nobody' });
      assert.equal(nobody.status, 404);
      assert.equal(nobody.body.code, 'user_not_found');

      assert.deepEqual(await row(ada), stored);
      assert.deepEqual(await recordsOf(accountId, 'user.updated'), []);
    });

    it('GET …/users?userName= finds the one person as sign-in does; active= keeps those active or not; a cursor keeps its filter', async () => {
      const accountId = await createAccount(t, 'Lookups');
      const ids: string[] = [];
      for (const name of ['ada', 'grace', 'alan', 'edsger', 'barbara']) {
        ids.push(await person(accountId, name));
        t.clock.advance(1);
      }
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${ids[1]}/deactivate`)).status, 200);
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${ids[3]}/deactivate`)).status, 200);
      const list = async (query: string) => {
        const page = await t.admin('GET', `/admin/v1/accounts/${accountId}/users?${query}`);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        return page.body as { data: Json[]; next_cursor: string | null };
      };

      const found = await list('userName=GRACE');
      assert.deepEqual(found.data.map((u) => [u.id, u.userName, u.active]), [[ids[1], 'grace', false]]);
      assert.equal(found.next_cursor, null);
      assert.deepEqual((await list('userName=nobody')).data, []);

      const inactive = await list('active=false');
      assert.deepEqual(inactive.data.map((u) => u.id), [ids[1], ids[3]]);

      const first = await list('active=true&limit=2');
      assert.deepEqual(first.data.map((u) => u.id), [ids[0], ids[2]]);
      const second = await list(`active=true&limit=2&after=${first.next_cursor}`);
      assert.deepEqual(second.data.map((u) => u.id), [ids[4]]);
      assert.equal(second.next_cursor, null);

      const switched = await t.admin('GET', `/admin/v1/accounts/${accountId}/users?active=false&limit=2&after=${first.next_cursor}`);
      assert.equal(switched.status, 400);
      assert.equal(switched.body.code, 'cursor_mismatch');
      const bad = await t.admin('GET', `/admin/v1/accounts/${accountId}/users?active=maybe`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'validation_failed');
    });
  });
}
