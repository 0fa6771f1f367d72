/**
 * Bounds of stored values, the same on every database: identifiers (userName, externalId, a
 * group's displayName, member ids) at most 256 characters, other strings at most 1024 characters
 * and 2048 bytes of UTF-8. Longer is a 400 invalidValue through POST, PUT and every PATCH form
 * Entra ID and Okta send, and nothing is stored; the longest accepted values, in the widest
 * UTF-8, are stored and found on PostgreSQL too, whose index entries are what the bounds protect.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, ENTERPRISE, ERROR, GROUP, PATCH, USER, type ScimClient } from './scim-client.ts';

const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;

/**
 * `length` characters that do not compress (so PostgreSQL cannot shrink an index entry of them),
 * each `bytes` long in UTF-8: ASCII letters and digits, CJK (3 bytes) or CJK extension B (4 bytes).
 */
function text(length: number, bytes: 1 | 3 | 4, seed = 1): string {
  const [first, span] = bytes === 1 ? [0, 62] : bytes === 3 ? [0x4e00, 20000] : [0x20000, 40000];
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let state = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const n = state % span;
    out += bytes === 1 ? alphabet[n] : String.fromCodePoint(first + n);
  }
  return out;
}

function assertInvalidValue(response: { status: number; body: Record<string, unknown> }, detail: string, label: string): void {
  assert.equal(response.status, 400, label);
  assert.deepEqual(response.body, { schemas: [ERROR], status: '400', scimType: 'invalidValue', detail }, label);
}

for (const target of databaseTargets()) {
  describe(`SCIM value lengths (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t, 'Lengths');
    });
    after(() => t.close());

    const storedUser = (id: string) => t.gatehouse.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const storedGroup = (id: string) => t.gatehouse.database.db.selectFrom('scim_groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('the longest accepted values, in 4-byte and 3-byte UTF-8, are stored and found by filter', async () => {
      const user = {
        userName: text(256, 4, 2),
        externalId: text(256, 4, 3),
        title: text(512, 4, 4),
        nickName: text(682, 3, 5),
        emails: [{ value: text(1024, 1, 6), type: 'work' }],
        [ENTERPRISE]: { department: text(512, 4, 7) },
      };
      const created = await c.call('POST', '/Users', { schemas: [USER, ENTERPRISE], ...user });
      assert.equal(created.status, 201);
      for (const [name, value] of Object.entries(user)) assert.deepEqual(created.body[name], value, name);
      const row = await storedUser(created.body.id);
      assert.equal(row.user_name, user.userName);
      assert.equal(row.external_id, user.externalId);
      for (const filter of [
        `userName eq "${user.userName}"`,
        `externalId eq "${user.externalId}"`,
        `title eq "${user.title}"`,
        `nickName eq "${user.nickName}"`,
        `emails.value eq "${user.emails[0]!.value}"`,
        `${ENTERPRISE}:department eq "${user[ENTERPRISE].department}"`,
      ]) {
        const found = await c.call('GET', `/Users${q(filter)}`);
        assert.equal(found.status, 200, filter.slice(0, 20));
        assert.deepEqual(found.body.Resources.map((r: { id: string }) => r.id), [created.body.id], filter.slice(0, 20));
      }

      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: text(256, 4, 8), externalId: text(256, 4, 9), members: [{ value: created.body.id }] });
      assert.equal(group.status, 201);
      const groupRow = await storedGroup(group.body.id);
      assert.equal(groupRow.display_name, group.body.displayName);
      assert.equal(groupRow.external_id, group.body.externalId);
      const byName = await c.call('GET', `/Groups${q(`displayName eq "${group.body.displayName}"`)}`);
      assert.deepEqual(byName.body.Resources.map((r: { id: string }) => r.id), [group.body.id]);
    });

    it('RFC 7644 §3.12: an identifier longer than 256 characters → 400 invalidValue on POST, and nothing is stored', async () => {
      const long = 'x'.repeat(257);
      assertInvalidValue(await c.call('POST', '/Users', { schemas: [USER], userName: long }), 'userName is longer than 256 characters', 'userName');
      assertInvalidValue(await c.call('POST', '/Users', { schemas: [USER], userName: 'ext@example.com', externalId: text(257, 4) }), 'externalId is longer than 256 characters', 'externalId');
      assertInvalidValue(await c.call('POST', '/Groups', { schemas: [GROUP], displayName: long }), 'displayName is longer than 256 characters', 'displayName');
      assertInvalidValue(await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'g', externalId: long }), 'externalId is longer than 256 characters', 'group externalId');
      assertInvalidValue(await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'g', members: [{ value: long }] }), 'members[0].value is longer than 256 characters', 'member');
      // The same value of 256 characters, written as 256 code points of two UTF-16 units each, is accepted.
      assert.equal((await c.call('POST', '/Groups', { schemas: [GROUP], displayName: text(256, 4, 11) })).status, 201);
      const users = await t.gatehouse.database.db.selectFrom('users').select('user_name').where('account_id', '=', c.accountId).execute();
      assert.deepEqual(users.filter((u) => u.user_name === long || u.user_name === 'ext@example.com'), []);
      const groups = await t.gatehouse.database.db.selectFrom('scim_groups').select('display_name').where('account_id', '=', c.accountId).execute();
      assert.deepEqual(groups.filter((g) => g.display_name === long || g.display_name === 'g'), []);
    });

    it('RFC 7644 §3.12: a string longer than 1024 characters or 2048 bytes of UTF-8 (lower-cased included) → 400 invalidValue', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ title: 'x'.repeat(1025) }, 'title is longer than 1024 characters'],
        [{ title: text(3000, 3) }, 'title is longer than 1024 characters'],
        [{ title: text(513, 4) }, 'title is longer than 2048 bytes in UTF-8'],
        [{ title: text(683, 3) }, 'title is longer than 2048 bytes in UTF-8'],
        // İ takes 2 bytes, its lower case (i + combining dot) 3.
        [{ title: 'İ'.repeat(1000) }, 'title is longer than 2048 bytes in UTF-8'],
        [{ name: { formatted: 'x'.repeat(1025) } }, 'name.formatted is longer than 1024 characters'],
        [{ emails: [{ value: 'a@example.com' }, { value: 'x'.repeat(1025) }] }, 'emails[1].value is longer than 1024 characters'],
        [{ [ENTERPRISE]: { department: text(513, 4) } }, `${ENTERPRISE}:department is longer than 2048 bytes in UTF-8`],
        [{ [ENTERPRISE]: { manager: { value: 'x'.repeat(1025) } } }, `${ENTERPRISE}:manager.value is longer than 1024 characters`],
      ];
      for (const [attributes, detail] of cases) {
        const response = await c.call('POST', '/Users', { schemas: [USER, ENTERPRISE], userName: 'long@example.com', ...attributes });
        assertInvalidValue(response, detail, detail);
      }
      const stored = await t.gatehouse.database.db.selectFrom('users').select('id').where('account_id', '=', c.accountId).where('user_name_lower', '=', 'long@example.com').execute();
      assert.deepEqual(stored, []);
    });

    it('PUT and every PATCH form (path, filtered path, URN path, no path with dotted and URN keys) are bounded alike; the user is unchanged', async () => {
      const created = await c.call('POST', '/Users', { schemas: [USER], userName: 'patch@example.com', externalId: 'p-1', emails: [{ value: 'patch@example.com', type: 'work' }] });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const before = await storedUser(id);
      const long = 'y'.repeat(1025);
      const writes: Array<[string, unknown, string]> = [
        ['PUT', { schemas: [USER], userName: 'patch@example.com', title: long }, 'title is longer than 1024 characters'],
        ['PUT', { schemas: [USER], userName: 'u'.repeat(257) }, 'userName is longer than 256 characters'],
        ['PATCH', [{ op: 'replace', path: 'title', value: long }], 'title is longer than 1024 characters'],
        ['PATCH', [{ op: 'Replace', path: 'userName', value: 'u'.repeat(257) }], 'userName is longer than 256 characters'],
        ['PATCH', [{ op: 'Replace', path: 'emails[type eq "work"].value', value: long }], 'emails[0].value is longer than 1024 characters'],
        ['PATCH', [{ op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: long }], 'phoneNumbers[0].value is longer than 1024 characters'],
        ['PATCH', [{ op: 'Add', path: `${ENTERPRISE}:department`, value: long }], `${ENTERPRISE}:department is longer than 1024 characters`],
        ['PATCH', [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: long }], `${ENTERPRISE}:manager.value is longer than 1024 characters`],
        ['PATCH', [{ op: 'Replace', value: { 'name.givenName': long } }], 'name.givenName is longer than 1024 characters'],
        ['PATCH', [{ op: 'Replace', value: { [`${ENTERPRISE}:department`]: long } }], `${ENTERPRISE}:department is longer than 1024 characters`],
        ['PATCH', [{ op: 'replace', value: { [ENTERPRISE]: { costCenter: long } } }], `${ENTERPRISE}:costCenter is longer than 1024 characters`],
        ['PATCH', [{ op: 'replace', value: { displayName: text(600, 4) } }], 'displayName is longer than 2048 bytes in UTF-8'],
      ];
      for (const [method, body, detail] of writes) {
        const response = await c.call(method, `/Users/${id}`, method === 'PATCH' ? { schemas: [PATCH], Operations: body } : body);
        assertInvalidValue(response, detail, `${method} ${detail}`);
      }
      assert.deepEqual(await storedUser(id), before);
      const values = await t.gatehouse.database.db.selectFrom('scim_user_values').select(['attr', 'sub', 'value']).where('user_id', '=', id).orderBy('sub').execute();
      assert.deepEqual(values, [{ attr: 'emails', sub: 'type', value: 'work' }, { attr: 'emails', sub: 'value', value: 'patch@example.com' }]);
    });

    it('group PUT and PATCH (displayName by path and without, members) are bounded alike; the group is unchanged', async () => {
      const member = await c.call('POST', '/Users', { schemas: [USER], userName: 'member@example.com' });
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Bounded', externalId: 'b-1', members: [{ value: member.body.id }] });
      assert.equal(group.status, 201);
      const id = group.body.id as string;
      const before = await storedGroup(id);
      const long = 'z'.repeat(257);
      const writes: Array<[string, unknown, string]> = [
        ['PUT', { schemas: [GROUP], displayName: long }, 'displayName is longer than 256 characters'],
        ['PUT', { schemas: [GROUP], displayName: 'Bounded', externalId: long }, 'externalId is longer than 256 characters'],
        ['PUT', { schemas: [GROUP], displayName: 'Bounded', members: [{ value: long }] }, 'members[0].value is longer than 256 characters'],
        ['PATCH', [{ op: 'replace', path: 'displayName', value: long }], 'displayName is longer than 256 characters'],
        ['PATCH', [{ op: 'Replace', value: { id, displayName: long } }], 'displayName is longer than 256 characters'],
        ['PATCH', [{ op: 'Add', path: 'members', value: [{ value: long }] }], 'members[0].value is longer than 256 characters'],
        ['PATCH', [{ op: 'Remove', path: 'members', value: [{ value: long }] }], 'members[0].value is longer than 256 characters'],
      ];
      for (const [method, body, detail] of writes) {
        const response = await c.call(method, `/Groups/${id}`, method === 'PATCH' ? { schemas: [PATCH], Operations: body } : body);
        assertInvalidValue(response, detail, `${method} ${detail}`);
      }
      assert.deepEqual(await storedGroup(id), before);
      const members = await c.call('GET', `/Groups/${id}`);
      assert.deepEqual(members.body.members.map((m: { value: string }) => m.value), [member.body.id]);
    });
  });
}
