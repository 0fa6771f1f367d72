/**
 * A group PUT that omits externalId keeps the stored one, as a user PUT does; a different one
 * replaces it (RFC 7643 §3.1: externalId is readWrite, the directory's to change), and null, "" or
 * a PATCH remove removes it. A
 * collection's path with a trailing slash is the collection: it lists (with its filter) and
 * creates; a resource path with an empty id never reaches a lookup.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, ERROR, GROUP, LIST, PATCH, USER, type ScimClient } from './scim-client.ts';

const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;

for (const target of databaseTargets()) {
  describe(`SCIM group PUT and collection paths (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t, 'Paths');
    });
    after(() => t.close());

    const storedGroup = (id: string) => t.gatehouse.database.db.selectFrom('scim_groups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('RFC 7644 §3.5.1: a group PUT without externalId keeps the stored one, like a user PUT; a different one replaces it', async () => {
      const member = await c.call('POST', '/Users', { schemas: [USER], userName: 'kept@example.com', externalId: 'u-ext' });
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Keepers', externalId: 'g-ext' });
      assert.equal(group.status, 201);
      const id = group.body.id as string;

      const put = await c.call('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Keepers renamed', members: [{ value: member.body.id }] });
      assert.equal(put.status, 200);
      assert.equal(put.body.externalId, 'g-ext');
      assert.equal(put.body.displayName, 'Keepers renamed');
      assert.equal(put.body.meta.version, 'W/"2"');
      assert.deepEqual(put.body.members.map((m: { value: string }) => m.value), [member.body.id]);
      assert.equal((await storedGroup(id)).external_id, 'g-ext');
      // The user PUT it mirrors.
      const userPut = await c.call('PUT', `/Users/${member.body.id}`, { schemas: [USER], userName: 'kept@example.com' });
      assert.equal(userPut.status, 200);
      assert.equal(userPut.body.externalId, 'u-ext');

      // The same value again is no change of it.
      const again = await c.call('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Keepers renamed', externalId: 'g-ext', members: [{ value: member.body.id }] });
      assert.equal(again.status, 200);
      assert.equal(again.body.externalId, 'g-ext');
      assert.equal(again.body.meta.version, 'W/"2"');
      const changed = await c.call('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Keepers renamed', externalId: 'g-other', members: [{ value: member.body.id }] });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.externalId, 'g-other');
      assert.equal((await storedGroup(id)).external_id, 'g-other');
      assert.deepEqual((await c.call('GET', `/Groups/${id}`)).body.members.map((m: { value: string }) => m.value), [member.body.id]);

      // A PATCH that leaves externalId out of its document keeps it as well.
      const patched = await c.call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', value: { displayName: 'Patched' } }] });
      assert.equal(patched.status, 204);
      assert.equal((await storedGroup(id)).external_id, 'g-other');

      // A group created without one may be given one by PUT.
      const bare = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Bare' });
      const given = await c.call('PUT', `/Groups/${bare.body.id}`, { schemas: [GROUP], displayName: 'Bare', externalId: 'bare-ext' });
      assert.equal(given.status, 200);
      assert.equal(given.body.externalId, 'bare-ext');
      assert.equal((await storedGroup(bare.body.id)).external_id, 'bare-ext');
    });

    it('RFC 7644 §3.5.1, §3.5.2.2: externalId removed by PATCH remove, replace with null, or a PUT sending null or "" is gone, for users and groups', async () => {
      const storedUser = (id: string) => t.gatehouse.database.db.selectFrom('users').select('external_id').where('id', '=', id).executeTakeFirstOrThrow();
      const user = async (userName: string) => (await c.call('POST', '/Users', { schemas: [USER], userName, externalId: `${userName}-ext` })).body.id as string;
      const removals: Array<[string, (id: string, userName: string) => Promise<{ status: number; body: Record<string, unknown> }>]> = [
        ['PATCH remove', (id) => c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'externalId' }] })],
        ['PATCH replace null', (id) => c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'externalId', value: null }] })],
        ['PATCH no-path null', (id) => c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', value: { externalId: null } }] })],
        ['PUT null', (id, userName) => c.call('PUT', `/Users/${id}`, { schemas: [USER], userName, externalId: null })],
        ['PUT ""', (id, userName) => c.call('PUT', `/Users/${id}`, { schemas: [USER], userName, ExternalID: '' })],
      ];
      for (const [i, [how, remove]] of removals.entries()) {
        const userName = `gone-${i}@example.com`;
        const id = await user(userName);
        const removed = await remove(id, userName);
        assert.equal(removed.status, 200, how);
        assert.equal(removed.body.externalId, undefined, how);
        assert.equal((removed.body.meta as { version: string }).version, 'W/"2"', how);
        assert.equal((await storedUser(id)).external_id, null, how);
        const found = await c.call('GET', `/Users${q(`externalId eq "${userName}-ext"`)}`);
        assert.equal(found.body.totalResults, 0, how);
      }
      // A PUT that does not name it keeps it.
      const kept = await user('kept-ext@example.com');
      const put = await c.call('PUT', `/Users/${kept}`, { schemas: [USER], userName: 'kept-ext@example.com', title: 'Kept' });
      assert.equal(put.body.externalId, 'kept-ext@example.com-ext');
      assert.equal((await storedUser(kept)).external_id, 'kept-ext@example.com-ext');

      const groupRemovals: Array<[string, (id: string, displayName: string) => Promise<{ status: number }>]> = [
        ['PATCH remove', (id) => c.call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'externalId' }] })],
        ['PATCH replace null', (id) => c.call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'externalId', value: null }] })],
        ['PUT null', (id, displayName) => c.call('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName, externalId: null })],
      ];
      for (const [how, remove] of groupRemovals) {
        const displayName = `Gone ${how}`;
        const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName, externalId: 'g-gone' });
        const id = group.body.id as string;
        const removed = await remove(id, displayName);
        assert.equal(removed.status, how === 'PUT null' ? 200 : 204, how);
        const read = await c.call('GET', `/Groups/${id}`);
        assert.equal(read.body.externalId, undefined, how);
        assert.equal((await storedGroup(id)).external_id, null, how);
        const records = await t.gatehouse.database.db.selectFrom('audit_events').select('changes').where('target_id', '=', id).where('action', 'in', ['scim.group.patched', 'scim.group.replaced']).execute();
        assert.deepEqual(JSON.parse(records.at(-1)!.changes!).externalId, { before: 'g-gone', after: null }, how);
      }
    });

    it('Entra ID renaming a person: PATCH Replace externalId changes it, with the rest of the PATCH; a PUT without active keeps a deactivated person off', async () => {
      const created = await c.call('POST', '/Users', { schemas: [USER], userName: 'renamed@example.com', externalId: 'alias-old', title: 'Analyst' });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const renamed = await c.call('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'externalId', value: 'alias-new' },
          { op: 'Replace', path: 'title', value: 'Lead analyst' },
        ],
      });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.deepEqual([renamed.body.externalId, renamed.body.title], ['alias-new', 'Lead analyst']);
      const found = await c.call('GET', `/Users?filter=${encodeURIComponent('externalId eq "alias-new"')}`);
      assert.deepEqual(found.body.Resources.map((r: { id: string }) => r.id), [id]);
      const record = await t.gatehouse.database.db.selectFrom('audit_events').select('changes').where('target_id', '=', id).where('action', '=', 'scim.user.patched').executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(record.changes!).externalId, { before: 'alias-old', after: 'alias-new' });

      const off = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
      assert.equal(off.body.active, false);
      const put = await c.call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'renamed@example.com', title: 'Lead analyst' });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.active, false, 'a replace that says nothing of active leaves the person off');
      const stored = await t.gatehouse.database.db.selectFrom('users').select(['active', 'external_id']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(stored, { active: 0, external_id: 'alias-new' });
      const on = await c.call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'renamed@example.com', active: true });
      assert.equal(on.body.active, true);
    });

    it('RFC 7644 §3.14: a projection that leaves meta out still answers with the resource’s ETag', async () => {
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'tagged@example.com' });
      const version = user.body.meta.version as string;
      const got = await c.call('GET', `/Users/${user.body.id}?attributes=userName`);
      assert.equal(got.body.meta, undefined);
      assert.equal(got.headers.get('etag'), version);
      const patched = await c.call('PATCH', `/Users/${user.body.id}?excludedAttributes=meta`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'Tagged' }] });
      assert.equal(patched.body.meta, undefined);
      assert.equal(patched.headers.get('etag'), 'W/"2"');
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Tagged' });
      const renamed = await c.call('PATCH', `/Groups/${group.body.id}?attributes=displayName`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Tagged again' }] });
      assert.deepEqual([renamed.status, renamed.body.displayName, renamed.headers.get('etag')], [200, 'Tagged again', 'W/"2"']);
    });

    it('RFC 7644 §3.11: /Me is not supported → 501 SCIM Error, for every method; without a token, 401', async () => {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE', 'POST']) {
        const me = await c.call(method, '/Me', method === 'GET' || method === 'DELETE' ? undefined : { schemas: [USER] });
        assert.equal(me.status, 501, method);
        assert.deepEqual([me.body.schemas, me.body.status], [[ERROR], '501']);
      }
      assert.equal((await fetch(`${t.publicUrl}/scim/v2/Me`)).status, 401);
    });

    it('RFC 7643 §2.4: a POST, PUT or PATCH value with two primary elements → 400 invalidValue, nothing stored', async () => {
      const twoPrimaries = [{ value: 'a@example.com', type: 'work', primary: true }, { value: 'b@example.com', type: 'home', primary: true }];
      const created = await c.call('POST', '/Users', { schemas: [USER], userName: 'twoprimaries@example.com', emails: twoPrimaries });
      assert.deepEqual([created.status, created.body.scimType], [400, 'invalidValue']);
      assert.equal((await c.call('GET', `/Users?filter=${encodeURIComponent('userName eq "twoprimaries@example.com"')}`)).body.totalResults, 0);
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'oneprimary@example.com', emails: [twoPrimaries[0]] });
      const put = await c.call('PUT', `/Users/${user.body.id}`, { schemas: [USER], userName: 'oneprimary@example.com', emails: twoPrimaries });
      assert.deepEqual([put.status, put.body.scimType], [400, 'invalidValue']);
      const patched = await c.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'emails', value: twoPrimaries }] });
      assert.deepEqual([patched.status, patched.body.scimType], [400, 'invalidValue']);
      assert.deepEqual((await c.call('GET', `/Users/${user.body.id}`)).body.emails, [twoPrimaries[0]]);
      // One new primary beside a stored one is the PATCH's to settle: the new one wins.
      const moved = await c.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'emails', value: [twoPrimaries[1]] }] });
      assert.deepEqual(moved.body.emails.map((e: { primary?: boolean }) => e.primary), [false, true]);
    });

    it('a sync that sends what is stored writes nothing: same version, no audit record, for users and groups', async () => {
      const created = await c.call('POST', '/Users', { schemas: [USER], userName: 'steady@example.com', title: 'Clerk', active: true, emails: [{ value: 's@example.com', type: 'work', primary: true }] });
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Steady', members: [{ value: created.body.id }] });
      // Joining the group gave the person a version of their own.
      const user = await c.call('GET', `/Users/${created.body.id}`);
      const records = async (id: string) => (await t.gatehouse.database.db.selectFrom('audit_events').select('action').where('target_id', '=', id).execute()).map((r) => r.action);
      const [userRecords, groupRecords] = [await records(user.body.id), await records(group.body.id)];

      const same = await c.call('PATCH', `/Users/${user.body.id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'title', value: 'Clerk' },
          { op: 'Replace', path: 'active', value: 'True' },
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 's@example.com' },
        ],
      });
      assert.equal(same.status, 200);
      assert.equal(same.body.meta.version, user.body.meta.version);
      assert.equal(same.body.meta.lastModified, user.body.meta.lastModified);
      const put = await c.call('PUT', `/Users/${user.body.id}`, { schemas: [USER], userName: 'steady@example.com', title: 'Clerk', active: true, emails: [{ value: 's@example.com', type: 'work', primary: true }] });
      assert.equal(put.body.meta.version, user.body.meta.version);
      const groupSame = await c.call('PATCH', `/Groups/${group.body.id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'displayName', value: 'Steady' },
          { op: 'Add', path: 'members', value: [{ value: user.body.id }] },
        ],
      });
      assert.equal(groupSame.status, 204);
      assert.equal((await c.call('GET', `/Groups/${group.body.id}`)).body.meta.version, group.body.meta.version);
      assert.deepEqual([await records(user.body.id), await records(group.body.id)], [userRecords, groupRecords]);

      // A real change still is one.
      const changed = await c.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'title', value: 'Senior clerk' }] });
      assert.notEqual(changed.body.meta.version, user.body.meta.version);
      assert.deepEqual(await records(user.body.id), [...userRecords, 'scim.user.patched']);
    });

    it('a group PATCH replacing members with the same members, or a PUT of what is stored, writes nothing (Okta\'s group push)', async () => {
      const member = await c.call('POST', '/Users', { schemas: [USER], userName: 'pushed@example.com' });
      const body = { schemas: [GROUP], displayName: 'Pushed', externalId: 'okta-g1', members: [{ value: member.body.id }] };
      const group = await c.call('POST', '/Groups', body);
      assert.equal(group.status, 201);
      const id = group.body.id as string;
      const records = async () => (await t.gatehouse.database.db.selectFrom('audit_events').select('action').where('target_id', '=', id).execute()).map((r) => r.action);
      const userVersion = async () => (await t.gatehouse.database.db.selectFrom('users').select(['version', 'updated_at']).where('id', '=', member.body.id).executeTakeFirstOrThrow());
      const [storedBefore, recordsBefore, userBefore] = [await storedGroup(id), await records(), await userVersion()];
      t.clock.advance(5000);

      const patched = await c.call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'members', value: [{ value: member.body.id }] }] });
      assert.equal(patched.status, 204);
      const noPath = await c.call('PATCH', `/Groups/${id}?attributes=members`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { displayName: 'Pushed', members: [{ value: member.body.id }] } }] });
      assert.equal(noPath.status, 200);
      assert.equal(noPath.headers.get('etag'), 'W/"1"');
      assert.deepEqual(noPath.body.members.map((m: { value: string }) => m.value), [member.body.id]);
      for (let i = 0; i < 2; i++) {
        const put = await c.call('PUT', `/Groups/${id}`, body);
        assert.equal(put.status, 200);
        assert.equal(put.headers.get('etag'), 'W/"1"');
        assert.equal(put.body.meta.version, 'W/"1"');
        assert.equal(put.body.meta.lastModified, group.body.meta.lastModified);
        assert.deepEqual(put.body.members.map((m: { value: string }) => m.value), [member.body.id]);
      }
      assert.deepEqual(await storedGroup(id), storedBefore);
      assert.deepEqual(await records(), recordsBefore);
      assert.deepEqual(await userVersion(), userBefore);

      // A PUT that changes the members still writes, once.
      const emptied = await c.call('PUT', `/Groups/${id}`, { ...body, members: [] });
      assert.equal(emptied.status, 200);
      assert.equal(emptied.body.meta.version, 'W/"2"');
      assert.deepEqual(await records(), [...recordsBefore, 'scim.group.replaced']);
      assert.equal(Number((await storedGroup(id)).updated_at), t.clock.now());
    });

    it('RFC 7643 §2.4: a PATCH through a value filter that makes an element primary leaves it the one primary, by sub-attribute path or by value', async () => {
      const created = await c.call('POST', '/Users', {
        schemas: [USER],
        userName: 'primary@example.com',
        emails: [{ type: 'work', value: 'w@example.com' }, { type: 'home', value: 'h@example.com', primary: true }],
      });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const bySubPath = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'emails[type eq "work"].primary', value: 'True' }] });
      assert.equal(bySubPath.status, 200);
      assert.deepEqual(bySubPath.body.emails, [{ type: 'work', value: 'w@example.com', primary: true }, { type: 'home', value: 'h@example.com', primary: false }]);
      const byValue = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'emails[value eq "h@example.com"]', value: { primary: true } }] });
      assert.equal(byValue.status, 200);
      assert.deepEqual(byValue.body.emails, [{ type: 'work', value: 'w@example.com', primary: false }, { type: 'home', value: 'h@example.com', primary: true }]);
      const stored = await c.call('GET', `/Users/${id}`);
      assert.deepEqual(stored.body.emails, byValue.body.emails);
      const row = await t.gatehouse.database.db.selectFrom('users').select('attributes').where('id', '=', id).executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(row.attributes).emails, byValue.body.emails);
    });

    it('a trailing slash on /Users and /Groups is the collection: GET lists with its filter, POST creates', async () => {
      const user = await c.call('POST', '/Users/', { schemas: [USER], userName: 'slash@example.com' });
      assert.equal(user.status, 201);
      assert.equal(user.body.userName, 'slash@example.com');
      const group = await c.call('POST', '/Groups/', { schemas: [GROUP], displayName: 'Slashers', members: [{ value: user.body.id }] });
      assert.equal(group.status, 201);

      const users = await c.call('GET', `/Users/${q('userName eq "SLASH@example.com"')}`);
      assert.equal(users.status, 200);
      assert.deepEqual(users.body.schemas, [LIST]);
      assert.equal(users.body.totalResults, 1);
      assert.deepEqual(users.body.Resources.map((r: { id: string }) => r.id), [user.body.id]);
      assert.deepEqual(await c.call('GET', `/Users/${q('userName eq "slash@example.com"')}`).then((r) => r.body), await c.call('GET', `/Users${q('userName eq "slash@example.com"')}`).then((r) => r.body));
      const none = await c.call('GET', `/Users/${q('userName eq "x"')}`);
      assert.deepEqual(none.body, { schemas: [LIST], totalResults: 0, itemsPerPage: 0, startIndex: 1, Resources: [] });

      const groups = await c.call('GET', `/Groups/${q('displayName eq "slashers"')}`);
      assert.equal(groups.status, 200);
      assert.deepEqual(groups.body.Resources.map((r: { id: string }) => r.id), [group.body.id]);
      const all = await c.call('GET', '/Groups/?excludedAttributes=members');
      assert.equal(all.status, 200);
      assert.ok(all.body.Resources.some((r: { id: string }) => r.id === group.body.id));

      for (const path of ['/ResourceTypes/', '/Schemas/']) {
        const listed = await c.call('GET', path);
        assert.equal(listed.status, 200, path);
        assert.deepEqual(listed.body, (await c.call('GET', path.slice(0, -1))).body, path);
      }
    });

    it('an empty id never reaches a lookup: PUT, PATCH and DELETE on a collection path with a slash → 400, nothing changes', async () => {
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'untouched@example.com' });
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Untouched' });
      const writes: Array<[string, string, unknown]> = [
        ['PUT', '/Users/', { schemas: [USER], userName: 'untouched@example.com', active: false }],
        ['PATCH', '/Users/', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }],
        ['DELETE', '/Users/', undefined],
        ['PUT', '/Groups/', { schemas: [GROUP], displayName: 'Renamed' }],
        ['PATCH', '/Groups/', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Renamed' }] }],
        ['DELETE', '/Groups/', undefined],
      ];
      for (const [method, path, body] of writes) {
        const response = await c.call(method, path, body);
        assert.equal(response.status, 400, `${method} ${path}`);
        assert.deepEqual(response.body.schemas, [ERROR]);
        assert.equal(response.body.scimType, 'invalidValue');
        assert.doesNotMatch(response.body.detail, /not found/);
      }
      const stillUser = await c.call('GET', `/Users/${user.body.id}`);
      assert.equal(stillUser.body.active, true);
      assert.equal(stillUser.body.meta.version, 'W/"1"');
      const stillGroup = await c.call('GET', `/Groups/${group.body.id}`);
      assert.equal(stillGroup.body.displayName, 'Untouched');
      assert.equal(stillGroup.body.meta.version, 'W/"1"');
    });
  });
}
