import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { toRfc3339 } from '../../src/platform/clock.ts';
import { scimClient, GROUP, PATCH, USER, type ScimClient } from './scim-client.ts';

/** Stored [version, updated_at] of users or groups, by id. */
type Versions = Record<string, [number, number]>;

for (const target of databaseTargets()) {
  describe(`SCIM: deactivation, roles, bulk, PATCH paths (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('active=false revokes the user’s access tokens at once; the record stays; reactivation restores sign-in state', async () => {
      const c = await scimClient(t);
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'leaver@example.com', password: 'correct horse' });
      const token = await mintAccessToken(t, { accountId: c.accountId, userId: user.body.id, scopes: ['invoices:read'] });
      assert.ok(await t.gatehouse.services.accessTokens.verify(token));
      const off = await c.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      assert.equal(off.status, 200);
      assert.equal(off.body.active, false);
      assert.equal(await t.gatehouse.services.accessTokens.verify(token), undefined);
      const revoked = await t.gatehouse.database.db.selectFrom('access_tokens').select('revoked_at').where('user_id', '=', user.body.id).executeTakeFirstOrThrow();
      assert.equal(revoked.revoked_at, t.clock.now());
      const row = await t.gatehouse.services.users.find(c.accountId, user.body.id);
      assert.equal(row?.active, 0);
      assert.match(row?.password_hash ?? '', /^\$argon2id\$/);
      const on = await c.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] });
      assert.equal(on.body.active, true);
      assert.equal((await t.gatehouse.services.users.find(c.accountId, user.body.id))?.active, 1);
    });

    it('DELETE revokes access and removes the person; their tokens no longer verify', async () => {
      const c = await scimClient(t);
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'gone@example.com' });
      const token = await mintAccessToken(t, { accountId: c.accountId, userId: user.body.id, scopes: ['invoices:read'] });
      assert.equal((await c.call('DELETE', `/Users/${user.body.id}`)).status, 204);
      assert.equal(await t.gatehouse.services.accessTokens.verify(token), undefined);
      assert.equal((await c.call('DELETE', `/Users/${user.body.id}`)).status, 404);
    });

    it('roles from membership: no mapping → null; mapped by displayName or externalId → union of scopes; changes apply at once', async () => {
      const c = await scimClient(t);
      const bound = t.gatehouse.services.userScopeBound;
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'clerk@example.com' });
      assert.equal(await bound(c.accountId, user.body.id), null);
      const readers = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Invoice Readers', members: [{ value: user.body.id }] });
      const payers = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Payers', externalId: 'aad-payers' });
      const role = await t.admin('POST', `/admin/v1/accounts/${c.accountId}/roles`, { name: 'reader', scopes: ['invoices:read', 'ledger:read'], groups: [{ displayName: 'invoice readers' }] });
      assert.equal(role.status, 201);
      assert.deepEqual(role.body.groups, [{ displayName: 'invoice readers' }]);
      const payer = await t.admin('POST', `/admin/v1/accounts/${c.accountId}/roles`, { name: 'payer', scopes: ['payouts:write'], groups: [{ externalId: 'aad-payers' }] });
      assert.equal(payer.status, 201);
      assert.deepEqual([...((await bound(c.accountId, user.body.id)) ?? [])].sort(), ['invoices:read', 'ledger:read']);
      await c.call('PATCH', `/Groups/${payers.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: user.body.id }] }] });
      assert.deepEqual([...((await bound(c.accountId, user.body.id)) ?? [])].sort(), ['invoices:read', 'ledger:read', 'payouts:write']);
      await c.call('PATCH', `/Groups/${readers.body.id}`, { schemas: [PATCH], Operations: [{ op: 'remove', path: 'members' }] });
      assert.deepEqual([...((await bound(c.accountId, user.body.id)) ?? [])], ['payouts:write']);
      const outsider = await c.call('POST', '/Users', { schemas: [USER], userName: 'outsider@example.com' });
      assert.deepEqual(await bound(c.accountId, outsider.body.id), new Set());
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${c.accountId}/roles`, { name: 'reader', scopes: [], groups: [] })).status, 409);
      // A misspelt scope would grant nothing, silently; a blank name names nothing.
      for (const bad of [{ name: 'typo', scopes: ['invoice:write'], groups: [] }, { name: '   ', scopes: [], groups: [] }]) {
        const refused = await t.admin('POST', `/admin/v1/accounts/${c.accountId}/roles`, bad);
        assert.equal(refused.status, 400, JSON.stringify(bad));
        assert.equal(refused.body.code, 'validation_failed');
      }
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${c.accountId}/roles`)).body.data.length, 2);
    });

    it('replacing a role records what it replaced: name, scopes and groups before and after, only those that changed; a role gone → 404', async () => {
      const accountId = (await scimClient(t)).accountId;
      const roles = `/admin/v1/accounts/${accountId}/roles`;
      const role = await t.admin('POST', roles, { name: 'reader', scopes: ['invoices:read'], groups: [{ externalId: 'aad-readers' }, { displayName: 'Readers' }] });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      // A millisecond between the changes, so that their records read back in order.
      t.clock.advance(1);
      const replaced = await t.admin('PUT', `${roles}/${role.body.id}`, { name: 'reader', scopes: ['invoices:read', 'ledger:read'], groups: [{ displayName: 'READERS' }, { externalId: 'aad-readers' }] });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.deepEqual(replaced.body.scopes, ['invoices:read', 'ledger:read']);
      t.clock.advance(1);
      const renamed = await t.admin('PUT', `${roles}/${role.body.id}`, { name: 'ledger reader', scopes: ['ledger:read'], groups: [] });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      const records = await t.gatehouse.database.db
        .selectFrom('audit_events')
        .select(['action', 'changes'])
        .where('target_id', '=', role.body.id)
        .orderBy('occurred_at')
        .execute();
      assert.deepEqual(
        records.map((r) => [r.action, JSON.parse(r.changes!)]),
        [
          ['role.created', { name: { after: 'reader' }, scopes: { after: 'invoices:read' }, groups: { after: [{ displayName: 'readers' }, { externalId: 'aad-readers' }] } }],
          // The same groups in another order and case: not a change.
          ['role.updated', { scopes: { before: 'invoices:read', after: 'invoices:read ledger:read' } }],
          [
            'role.updated',
            {
              name: { before: 'reader', after: 'ledger reader' },
              scopes: { before: 'invoices:read ledger:read', after: 'ledger:read' },
              groups: { before: [{ displayName: 'readers' }, { externalId: 'aad-readers' }], after: [] },
            },
          ],
        ],
      );
      assert.equal((await t.admin('DELETE', `${roles}/${role.body.id}`)).status, 204);
      const gone = await t.admin('PUT', `${roles}/${role.body.id}`, { name: 'reader', scopes: [], groups: [] });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 'role_not_found');
      assert.equal((await t.gatehouse.database.db.selectFrom('audit_events').select('id').where('target_id', '=', role.body.id).execute()).length, 4);
    });

    it('RFC 7644 §3.7: bulk with bulkId references and failOnErrors', async () => {
      const c = await scimClient(t);
      const response = await c.call('POST', '/Bulk', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
        failOnErrors: 1,
        Operations: [
          { method: 'POST', path: '/Users', bulkId: 'u1', data: { schemas: [USER], userName: 'bulk-1' } },
          { method: 'POST', path: '/Groups', bulkId: 'g1', data: { schemas: [GROUP], displayName: 'Bulk', members: [{ value: 'bulkId:u1' }] } },
          { method: 'PATCH', path: '/Users/bulkId:u1', data: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'Lead' }] } },
          { method: 'POST', path: '/Users', bulkId: 'u2', data: { schemas: [USER], userName: 'BULK-1' } },
          { method: 'POST', path: '/Users', bulkId: 'u3', data: { schemas: [USER], userName: 'never-attempted' } },
        ],
      });
      assert.equal(response.status, 200);
      const ops = response.body.Operations;
      assert.deepEqual(ops.map((o: { status: string }) => o.status), ['201', '201', '200', '409']);
      assert.equal(ops[3].response.scimType, 'uniqueness');
      const group = await c.call('GET', ops[1].location.replace(/^.*\/scim\/v2/, ''));
      assert.equal(group.body.members[0].value, ops[0].location.split('/').pop());
      assert.equal((await c.call('GET', `/Users?filter=${encodeURIComponent('userName eq "never-attempted"')}`)).body.totalResults, 0);
    });

    it('RFC 7644 §3.7: a bulkId reference is a whole value or part of a path; text holding one is stored as sent', async () => {
      const c = await scimClient(t);
      const bulk = (Operations: unknown[], extra: Record<string, unknown> = {}) => c.call('POST', '/Bulk', { schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], ...extra, Operations });
      const response = await bulk([
        { method: 'POST', path: '/Users', bulkId: 'ann', data: { schemas: [USER], userName: 'ann-bulk', title: 'Reports to bulkId:ann' } },
        { method: 'POST', path: '/Users', bulkId: 'bob', data: { schemas: [USER], userName: 'bob-bulk', title: 'bulkId:nobody, in a sentence' } },
        { method: 'POST', path: '/Groups', bulkId: 'team', data: { schemas: [GROUP], displayName: 'Bulk team', members: [{ value: 'bulkId:ann' }, { value: 'bulkId:bob' }] } },
        { method: 'PATCH', path: '/Groups/bulkId:team', data: { schemas: [PATCH], Operations: [{ op: 'remove', path: 'members[value eq "bulkId:bob"]' }] } },
      ]);
      assert.equal(response.status, 200);
      const ops = response.body.Operations;
      assert.deepEqual(ops.map((o: { status: string }) => o.status), ['201', '201', '201', '204'], JSON.stringify(ops));
      const [ann, bob] = [0, 1].map((i) => ops[i].location.split('/').pop() as string);
      assert.equal((await c.call('GET', `/Users/${ann}`)).body.title, 'Reports to bulkId:ann');
      assert.equal((await c.call('GET', `/Users/${bob}`)).body.title, 'bulkId:nobody, in a sentence');
      const team = await c.call('GET', ops[2].location.replace(/^.*\/scim\/v2/, ''));
      assert.deepEqual(team.body.members.map((m: { value: string }) => m.value), [ann]);

      const repeated = await bulk([
        { method: 'POST', path: '/Users', bulkId: 'same', data: { schemas: [USER], userName: 'first-same' } },
        { method: 'POST', path: '/Users', bulkId: 'same', data: { schemas: [USER], userName: 'second-same' } },
      ]);
      assert.equal(repeated.status, 400);
      assert.equal(repeated.body.scimType, 'invalidValue');
      assert.match(repeated.body.detail, /bulkId same names more than one operation/);
      assert.equal((await c.call('GET', `/Users?filter=${encodeURIComponent('userName eq "first-same"')}`)).body.totalResults, 0, 'nothing of it ran');
      for (const failOnErrors of ['1', 1.5, 0, -1]) {
        const refused = await bulk([{ method: 'POST', path: '/Users', bulkId: 'x', data: { schemas: [USER], userName: `never-${String(failOnErrors)}` } }], { failOnErrors });
        assert.equal(refused.status, 400, JSON.stringify(failOnErrors));
        assert.equal(refused.body.scimType, 'invalidValue');
      }
    });

    it('RFC 7644 §3.5.2: bad path → invalidPath, wrong type → invalidValue, read-only → mutability; If-Match mismatch → 412', async () => {
      const c = await scimClient(t);
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'paths@example.com', emails: [{ value: 'a@x.com', type: 'work' }] });
      const patch = (Operations: unknown[], headers?: Record<string, string>) => c.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations }, headers);
      assert.equal((await patch([{ op: 'replace', path: 'nosuch', value: 1 }])).body.scimType, 'invalidPath');
      assert.equal((await patch([{ op: 'replace', path: 'emails[type eq', value: 'x' }])).body.scimType, 'invalidPath');
      assert.equal((await patch([{ op: 'replace', path: 'active', value: 'maybe' }])).body.scimType, 'invalidValue');
      assert.equal((await patch([{ op: 'replace', path: 'id', value: 'x' }])).body.scimType, 'mutability');
      assert.equal((await patch([{ op: 'move', path: 'title', value: 'x' }])).body.scimType, 'invalidSyntax');
      assert.equal((await c.call('POST', '/Users', { schemas: [USER], userName: 7 })).body.scimType, 'invalidValue');
      const bad = await fetch(`${t.publicUrl}/scim/v2/Users`, { method: 'POST', headers: { authorization: `Bearer ${c.token}`, 'content-type': 'application/scim+json' }, body: '{"userName":' });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { scimType: string }).scimType, 'invalidSyntax');
      assert.equal((await patch([{ op: 'add', path: 'title', value: 'x' }], { 'if-match': 'W/"9"' })).status, 412);
      const ok = await patch([
        { op: 'add', path: 'emails', value: [{ value: 'b@x.com', type: 'home', primary: true }] },
        { op: 'remove', path: 'emails[type eq "work"]' },
        { op: 'add', path: 'name.givenName', value: 'Pat' },
      ], { 'if-match': 'W/"1"' });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body.emails, [{ value: 'b@x.com', type: 'home', primary: true }]);
      assert.equal(ok.body.name.givenName, 'Pat');
      const unchanged = await c.call('GET', `/Users/${user.body.id}`, undefined, { 'if-none-match': ok.body.meta.version });
      assert.equal(unchanged.status, 304);
      // RFC 7232 §3.2: a list of tags, compared weakly, or * (any current representation).
      const strong = (ok.body.meta.version as string).slice(2);
      for (const header of [`"other", ${ok.body.meta.version}`, strong, `W/"0",${strong}`, '*']) {
        const listed = await c.call('GET', `/Users/${user.body.id}`, undefined, { 'if-none-match': header });
        assert.equal(listed.status, 304, header);
        assert.equal(listed.body, undefined, header);
        assert.equal(listed.headers.get('etag'), ok.body.meta.version, header);
      }
      const stale = await c.call('GET', `/Users/${user.body.id}`, undefined, { 'if-none-match': 'W/"1", "1"' });
      assert.equal(stale.status, 200);
      assert.equal(stale.body.meta.version, ok.body.meta.version);
    });

    const createUsers = async (c: ScimClient, ...userNames: string[]): Promise<string[]> => {
      const ids: string[] = [];
      for (const userName of userNames) {
        const created = await c.call('POST', '/Users', { schemas: [USER], userName });
        assert.equal(created.status, 201);
        ids.push(created.body.id);
      }
      return ids;
    };
    const storedVersions = async (ids: string[]): Promise<Versions> => {
      const rows = await t.gatehouse.database.db.selectFrom('users').select(['id', 'version', 'updated_at']).where('id', 'in', ids).execute();
      return Object.fromEntries(rows.map((r) => [r.id, [Number(r.version), Number(r.updated_at)]]));
    };
    const storedGroupVersions = async (ids: string[]): Promise<Versions> => {
      const rows = await t.gatehouse.database.db.selectFrom('scim_groups').select(['id', 'version', 'updated_at']).where('id', 'in', ids).execute();
      return Object.fromEntries(rows.map((r) => [r.id, [Number(r.version), Number(r.updated_at)]]));
    };
    const createGroup = async (c: ScimClient, displayName: string, members: string[]): Promise<string> => {
      const created = await c.call('POST', '/Groups', { schemas: [GROUP], displayName, members: members.map((value) => ({ value })) });
      assert.equal(created.status, 201);
      return created.body.id;
    };
    /** A group's members as {id: display}: members added together have no set order. */
    const membersOf = (group: { body: { members: Array<{ value: string; display: string }> } }) => Object.fromEntries(group.body.members.map((m) => [m.value, m.display]));
    /** `before` with the users or groups named in `bumped` one version on, last modified now. */
    const bumpedOnce = (before: Versions, bumped: string[], now: number): Versions =>
      Object.fromEntries(Object.entries(before).map(([id, [version, at]]) => [id, bumped.includes(id) ? [version + 1, now] : [version, at]]));
    const groupsOf = (user: { body: { groups: Array<{ value: string; display: string }> } }) => user.body.groups.map((g) => [g.value, g.display]);
    const patchGroup = (c: ScimClient, id: string, Operations: unknown[]) => c.call('PATCH', `/Groups/${id}`, { schemas: [PATCH], Operations });

    it('RFC 7643 §3.1: joining or leaving a group gives exactly that user a new version and lastModified; the old ETag → 412', async () => {
      const c = await scimClient(t);
      const [ann, bob, cy] = await createUsers(c, 'ann@example.com', 'bob@example.com', 'cy@example.com');
      const others = await createUsers(c, ...Array.from({ length: 20 }, (_, i) => `member-${i}@example.com`));
      const everyone = [ann!, bob!, cy!, ...others];

      // Created with members: the members' groups changed, nobody else's.
      const initial = await storedVersions(everyone);
      t.clock.advance(1000);
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Approvers', members: [bob, ...others].map((value) => ({ value })) });
      assert.equal(group.status, 201);
      const afterCreate = await storedVersions(everyone);
      assert.deepEqual(afterCreate, bumpedOnce(initial, [bob!, ...others], t.clock.now()));

      // Add one member to the group: only that user changes.
      const before = await c.call('GET', `/Users/${ann}`);
      assert.equal(before.body.meta.version, 'W/"1"');
      t.clock.advance(1000);
      const added = await patchGroup(c, group.body.id, [{ op: 'add', path: 'members', value: [{ value: ann }] }]);
      assert.equal(added.status, 204);
      const joined = await c.call('GET', `/Users/${ann}`);
      assert.equal(joined.status, 200);
      assert.deepEqual(groupsOf(joined), [[group.body.id, 'Approvers']]);
      assert.equal(joined.body.meta.version, 'W/"2"');
      assert.equal(joined.headers.get('etag'), 'W/"2"');
      assert.equal(joined.body.meta.lastModified, toRfc3339(t.clock.now()));
      assert.ok(joined.body.meta.lastModified > before.body.meta.lastModified);
      const afterAdd = await storedVersions(everyone);
      assert.deepEqual(afterAdd, bumpedOnce(afterCreate, [ann!], t.clock.now()));

      // A client holding the old ETag learns the user changed.
      assert.equal((await c.call('GET', `/Users/${ann}`, undefined, { 'if-none-match': before.body.meta.version })).status, 200);
      assert.equal((await c.call('GET', `/Users/${ann}`, undefined, { 'if-none-match': joined.body.meta.version })).status, 304);
      const stale = await c.call('PATCH', `/Users/${ann}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'title', value: 'Stale' }] }, { 'if-match': before.body.meta.version });
      assert.equal(stale.status, 412);
      assert.equal(stale.body.status, '412');
      assert.equal((await c.call('GET', `/Users/${ann}`)).body.title, undefined);
      assert.deepEqual(await storedVersions(everyone), afterAdd);

      // Adding a member again changes nothing, so no version moves.
      t.clock.advance(1000);
      assert.equal((await patchGroup(c, group.body.id, [{ op: 'add', path: 'members', value: [{ value: ann }, { value: bob }] }])).status, 204);
      assert.deepEqual(await storedVersions(everyone), afterAdd);

      // Remove the member by a value filter: again only that user changes.
      t.clock.advance(1000);
      const removed = await patchGroup(c, group.body.id, [{ op: 'remove', path: `members[value eq "${ann}"]` }]);
      assert.equal(removed.status, 204);
      const left = await c.call('GET', `/Users/${ann}`);
      assert.deepEqual(left.body.groups, []);
      assert.equal(left.body.meta.version, 'W/"3"');
      assert.equal(left.body.meta.lastModified, toRfc3339(t.clock.now()));
      assert.ok(left.body.meta.lastModified > joined.body.meta.lastModified);
      const afterRemove = await storedVersions(everyone);
      assert.deepEqual(afterRemove, bumpedOnce(afterAdd, [ann!], t.clock.now()));
      const staleDelete = await c.call('DELETE', `/Users/${ann}`, undefined, { 'if-match': joined.body.meta.version });
      assert.equal(staleDelete.status, 412);
      assert.equal((await c.call('GET', `/Users/${ann}`)).status, 200);

      // Entra's removal with a value list, and a value that is no member: only the member changes.
      t.clock.advance(1000);
      assert.equal((await patchGroup(c, group.body.id, [{ op: 'Remove', path: 'members', value: [{ value: bob }, { value: cy }] }])).status, 204);
      assert.deepEqual(await storedVersions(everyone), bumpedOnce(afterRemove, [bob!], t.clock.now()));
      assert.deepEqual((await c.call('GET', `/Users/${bob}`)).body.groups, []);
      assert.equal((await c.call('GET', `/Groups/${group.body.id}`)).body.members.length, others.length);
    });

    it('RFC 7643 §3.1: a rename touches every member once; PUT, replace and DELETE of a group touch only the users whose groups changed', async () => {
      const c = await scimClient(t);
      const [m1, m2, m3, m4, outsider] = await createUsers(c, 'm1@example.com', 'm2@example.com', 'm3@example.com', 'm4@example.com', 'outsider@example.com');
      const everyone = [m1!, m2!, m3!, m4!, outsider!];
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Ops', members: [m1, m2, m3].map((value) => ({ value })) });
      const other = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Other', members: [m3, m4].map((value) => ({ value })) });
      assert.equal(other.status, 201);
      const initial = await storedVersions(everyone);

      // Rename: each member's groups[].display changed.
      t.clock.advance(1000);
      assert.equal((await patchGroup(c, group.body.id, [{ op: 'replace', path: 'displayName', value: 'Operations' }])).status, 204);
      const afterRename = await storedVersions(everyone);
      assert.deepEqual(afterRename, bumpedOnce(initial, [m1!, m2!, m3!], t.clock.now()));
      const m3Now = await c.call('GET', `/Users/${m3}`);
      assert.deepEqual(groupsOf(m3Now), [[group.body.id, 'Operations'], [other.body.id, 'Other']]);
      assert.equal(m3Now.body.meta.lastModified, toRfc3339(t.clock.now()));

      // Rename, add and remove in one request: every user whose groups changed moves one version.
      t.clock.advance(1000);
      const mixed = await patchGroup(c, group.body.id, [
        { op: 'replace', value: { displayName: 'Operations Team' } },
        { op: 'add', path: 'members', value: [{ value: outsider }] },
        { op: 'remove', path: 'members', value: [{ value: m1 }] },
      ]);
      assert.equal(mixed.status, 204);
      const afterMixed = await storedVersions(everyone);
      assert.deepEqual(afterMixed, bumpedOnce(afterRename, [m1!, m2!, m3!, outsider!], t.clock.now()));

      // PATCH replace of the member list: m2 stays and is not touched.
      t.clock.advance(1000);
      assert.equal((await patchGroup(c, group.body.id, [{ op: 'replace', path: 'members', value: [{ value: m2 }, { value: m4 }] }])).status, 204);
      const afterReplace = await storedVersions(everyone);
      assert.deepEqual(afterReplace, bumpedOnce(afterMixed, [m3!, m4!, outsider!], t.clock.now()));

      // PUT with the same name: m4 leaves, m1 joins, m2 stays.
      t.clock.advance(1000);
      const put = await c.call('PUT', `/Groups/${group.body.id}`, { schemas: [GROUP], displayName: 'Operations Team', members: [{ value: m2 }, { value: m1 }] });
      assert.equal(put.status, 200);
      assert.deepEqual(put.body.members.map((m: { value: string }) => m.value), [m2, m1]);
      const afterPut = await storedVersions(everyone);
      assert.deepEqual(afterPut, bumpedOnce(afterReplace, [m1!, m4!], t.clock.now()));

      // DELETE of the group: its members lose it.
      t.clock.advance(1000);
      assert.equal((await c.call('DELETE', `/Groups/${group.body.id}`)).status, 204);
      const afterDelete = await storedVersions(everyone);
      assert.deepEqual(afterDelete, bumpedOnce(afterPut, [m1!, m2!], t.clock.now()));
      assert.deepEqual(groupsOf(await c.call('GET', `/Users/${m1}`)), []);

      // Deleting a member user changes no other user's representation.
      t.clock.advance(1000);
      assert.equal((await c.call('DELETE', `/Users/${m4}`)).status, 204);
      const { [m4!]: _gone, ...rest } = afterDelete;
      assert.deepEqual(await storedVersions(everyone), rest);
      assert.deepEqual((await c.call('GET', `/Groups/${other.body.id}`)).body.members.map((m: { value: string }) => m.value), [m3]);
    });

    it('RFC 7643 §3.1: deleting a user gives each of its groups a new version and lastModified; the old group ETag → 412', async () => {
      const c = await scimClient(t);
      const [leaver, stayer] = await createUsers(c, 'leaver@example.com', 'stayer@example.com');
      const shared = await createGroup(c, 'Shared', [leaver!, stayer!]);
      const own = await createGroup(c, 'Own', [leaver!]);
      const without = await createGroup(c, 'Without', [stayer!]);
      const empty = await createGroup(c, 'Empty', []);
      const groups = [shared, own, without, empty];
      const initial = await storedGroupVersions(groups);
      const before = await c.call('GET', `/Groups/${shared}`);
      assert.equal(before.body.meta.version, 'W/"1"');
      const oldOwnEtag = (await c.call('GET', `/Groups/${own}`)).headers.get('etag')!;
      assert.equal(oldOwnEtag, 'W/"1"');

      t.clock.advance(1000);
      assert.equal((await c.call('DELETE', `/Users/${leaver}`)).status, 204);
      const afterDelete = await storedGroupVersions(groups);
      assert.deepEqual(afterDelete, bumpedOnce(initial, [shared, own], t.clock.now()));
      const deletedAt = toRfc3339(t.clock.now());

      const sharedNow = await c.call('GET', `/Groups/${shared}`);
      assert.equal(sharedNow.status, 200);
      assert.deepEqual(membersOf(sharedNow), { [stayer!]: 'stayer@example.com' });
      assert.equal(sharedNow.body.meta.version, 'W/"2"');
      assert.equal(sharedNow.headers.get('etag'), 'W/"2"');
      assert.equal(sharedNow.body.meta.lastModified, deletedAt);
      assert.ok(sharedNow.body.meta.lastModified > before.body.meta.lastModified);
      const ownNow = await c.call('GET', `/Groups/${own}`);
      assert.deepEqual(ownNow.body.members, []);
      assert.equal(ownNow.body.meta.version, 'W/"2"');
      assert.equal(ownNow.body.meta.lastModified, deletedAt);
      for (const id of [without, empty]) assert.equal((await c.call('GET', `/Groups/${id}`)).body.meta.version, 'W/"1"');

      // A client holding the old ETag learns the group changed, and cannot write over it.
      assert.equal((await c.call('GET', `/Groups/${shared}`, undefined, { 'if-none-match': before.body.meta.version })).status, 200);
      assert.equal((await c.call('GET', `/Groups/${shared}`, undefined, { 'if-none-match': sharedNow.body.meta.version })).status, 304);
      t.clock.advance(1000);
      const unconditional = await patchGroup(c, shared, [{ op: 'replace', path: 'displayName', value: 'Shared, renamed' }]);
      assert.equal(unconditional.status, 204, 'no If-Match: the write goes ahead');
      assert.equal(unconditional.headers.get('etag'), 'W/"3"');
      const staleRename = await c.call('PATCH', `/Groups/${own}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Stale' }] }, { 'if-match': oldOwnEtag });
      assert.equal(staleRename.status, 412);
      assert.equal(staleRename.body.status, '412');
      const stalePut = await c.call('PUT', `/Groups/${own}`, { schemas: [GROUP], displayName: 'Stale', members: [{ value: stayer }] }, { 'if-match': oldOwnEtag });
      assert.equal(stalePut.status, 412);
      const staleDelete = await c.call('DELETE', `/Groups/${own}`, undefined, { 'if-match': oldOwnEtag });
      assert.equal(staleDelete.status, 412);
      const ownAfter = await c.call('GET', `/Groups/${own}`);
      assert.equal(ownAfter.body.displayName, 'Own');
      assert.deepEqual(ownAfter.body.members, []);
      assert.deepEqual((await storedGroupVersions([own]))[own], afterDelete[own]);

      // The current ETag is accepted.
      const fresh = await c.call('PATCH', `/Groups/${own}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Own, renamed' }] }, { 'if-match': ownNow.body.meta.version });
      assert.equal(fresh.status, 204);
      assert.equal(fresh.headers.get('etag'), 'W/"3"');
      assert.deepEqual(await storedGroupVersions(groups), bumpedOnce(afterDelete, [shared, own], t.clock.now()));
    });

    it('RFC 7643 §3.1: a change of what a user shows as members[].display gives its groups a new version; lastModified never goes back', async () => {
      const c = await scimClient(t);
      const ann = (await c.call('POST', '/Users', { schemas: [USER], userName: 'ann@example.com', displayName: 'Ann' })).body.id as string;
      const [bob, cy] = await createUsers(c, 'bob@example.com', 'cy@example.com');
      const both = await createGroup(c, 'Both', [ann, bob!]);
      const annOnly = await createGroup(c, 'Ann only', [ann]);
      const bobOnly = await createGroup(c, 'Bob only', [bob!]);
      const neither = await createGroup(c, 'Neither', [cy!]);
      const groups = [both, annOnly, bobOnly, neither];
      const users = [ann, bob!, cy!];
      const initial = await storedGroupVersions(groups);
      const initialUsers = await storedVersions(users);

      // displayName is what a group shows: its groups move, and no other user does.
      t.clock.advance(1000);
      const renamed = await c.call('PATCH', `/Users/${ann}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Ann Smith' }] });
      assert.equal(renamed.status, 200);
      assert.equal(renamed.body.displayName, 'Ann Smith');
      const afterRename = await storedGroupVersions(groups);
      assert.deepEqual(afterRename, bumpedOnce(initial, [both, annOnly], t.clock.now()));
      assert.deepEqual(await storedVersions(users), bumpedOnce(initialUsers, [ann], t.clock.now()));
      const bothNow = await c.call('GET', `/Groups/${both}`);
      assert.deepEqual(membersOf(bothNow), { [ann]: 'Ann Smith', [bob!]: 'bob@example.com' });
      assert.equal(bothNow.body.meta.version, 'W/"2"');
      assert.equal(bothNow.body.meta.lastModified, toRfc3339(t.clock.now()));

      // Without a displayName a group shows the userName: a new userName moves bob's groups.
      t.clock.advance(1000);
      const put = await c.call('PUT', `/Users/${bob}`, { schemas: [USER], userName: 'robert@example.com' });
      assert.equal(put.status, 200);
      assert.equal(put.body.userName, 'robert@example.com');
      const afterUserName = await storedGroupVersions(groups);
      assert.deepEqual(afterUserName, bumpedOnce(afterRename, [both, bobOnly], t.clock.now()));
      assert.deepEqual(membersOf(await c.call('GET', `/Groups/${bobOnly}`)), { [bob!]: 'robert@example.com' });

      // A displayName equal to the userName it replaces shows the same: no group moves.
      t.clock.advance(1000);
      const same = await c.call('PUT', `/Users/${bob}`, { schemas: [USER], userName: 'robert@example.com', displayName: 'robert@example.com' });
      assert.equal(same.status, 200);
      assert.equal(same.body.meta.version, 'W/"5"', 'created, joined two groups, two PUTs');
      assert.deepEqual(await storedGroupVersions(groups), afterUserName);

      // With the clock set back, the groups still move on, and their lastModified stays.
      const later = t.clock.now();
      t.clock.set(later - 60_000);
      try {
        const back = await c.call('PATCH', `/Users/${ann}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Ann S.' }] });
        assert.equal(back.status, 200);
        assert.deepEqual(await storedGroupVersions(groups), {
          ...afterUserName,
          [both]: [afterUserName[both]![0] + 1, afterUserName[both]![1]],
          [annOnly]: [afterUserName[annOnly]![0] + 1, afterUserName[annOnly]![1]],
        });
      } finally {
        t.clock.set(later);
      }
    });

    it('RFC 7643 §3.1: user edits that leave members[].display alone (active=false, title, name parts) touch no group', async () => {
      const c = await scimClient(t);
      const dee = (await c.call('POST', '/Users', { schemas: [USER], userName: 'dee@example.com', displayName: 'Dee' })).body.id as string;
      const group = await createGroup(c, 'Staff', [dee]);
      const other = await createGroup(c, 'Other', [dee]);
      const initial = await storedGroupVersions([group, other]);

      t.clock.advance(1000);
      const off = await c.call('PATCH', `/Users/${dee}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      assert.equal(off.status, 200);
      assert.equal(off.body.active, false);
      assert.equal(off.body.displayName, 'Dee');
      assert.equal(off.body.meta.version, 'W/"4"', 'created, joined two groups, deactivated');
      assert.deepEqual(await storedGroupVersions([group, other]), initial);

      t.clock.advance(1000);
      const edited = await c.call('PATCH', `/Users/${dee}`, { schemas: [PATCH], Operations: [
        { op: 'add', path: 'title', value: 'Lead' },
        { op: 'add', path: 'name.givenName', value: 'Deirdre' },
        { op: 'replace', path: 'userName', value: 'deirdre@example.com' },
      ] });
      assert.equal(edited.status, 200);
      assert.equal(edited.body.title, 'Lead');
      assert.equal(edited.body.userName, 'deirdre@example.com');
      assert.deepEqual(await storedGroupVersions([group, other]), initial);
      const staff = await c.call('GET', `/Groups/${group}`);
      assert.equal(staff.body.meta.version, 'W/"1"');
      assert.deepEqual(membersOf(staff), { [dee]: 'Dee' });
    });

    it('discovery reports what is supported', async () => {
      const c = await scimClient(t);
      const config = await c.call('GET', '/ServiceProviderConfig');
      assert.equal(config.status, 200);
      assert.deepEqual([config.body.patch.supported, config.body.bulk.supported, config.body.filter.supported, config.body.sort.supported, config.body.etag.supported, config.body.changePassword.supported], [true, true, true, true, true, true]);
      const types = await c.call('GET', '/ResourceTypes');
      assert.deepEqual(types.body.Resources.map((r: { id: string }) => r.id), ['User', 'Group']);
      const schemas = await c.call('GET', '/Schemas');
      assert.equal(schemas.body.totalResults, 3);
      const group = await c.call('GET', `/Schemas/${GROUP}`);
      const members = group.body.attributes.find((a: { name: string }) => a.name === 'members');
      assert.deepEqual(members.subAttributes.find((s: { name: string }) => s.name === 'type').canonicalValues, ['User']);
    });
  });
}
