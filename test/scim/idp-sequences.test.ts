import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { scimClient, ENTERPRISE, ERROR, GROUP, LIST, PATCH, USER } from './scim-client.ts';

const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;

for (const target of databaseTargets()) {
  describe(`SCIM: Entra ID and Okta provisioning sequences (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('Entra ID: match by filter, create, update, group membership, deactivate, reactivate, delete', async () => {
      const c = await scimClient(t, 'Contoso');
      // 1. Entra probes for a non-existent user with a random filter first.
      const probe = await c.call('GET', `/Users${q('userName eq "7f1c2a0e-probe"')}`);
      assert.equal(probe.status, 200);
      assert.deepEqual(probe.body, { schemas: [LIST], totalResults: 0, itemsPerPage: 0, startIndex: 1, Resources: [] });
      // 2. Create, as Entra sends it (enterprise extension, "True" string active, externalId).
      const created = await c.call('POST', '/Users', {
        schemas: [USER, ENTERPRISE],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7d2c4e0c1a11',
        userName: 'Test_User_ab6490ee@contoso.com',
        active: 'True',
        displayName: 'Test User',
        emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b@contoso.com' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
        [ENTERPRISE]: { employeeNumber: '1234', department: 'Finance' },
      });
      assert.equal(created.status, 201);
      assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
      assert.equal(created.headers.get('location'), created.body.meta.location);
      assert.equal(created.headers.get('etag'), 'W/"1"');
      const id = created.body.id as string;
      assert.deepEqual(created.body.schemas, [USER, ENTERPRISE]);
      assert.equal(created.body.active, true);
      assert.equal(created.body.userName, 'Test_User_ab6490ee@contoso.com');
      assert.deepEqual(created.body.name, { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' });
      assert.deepEqual(created.body[ENTERPRISE], { employeeNumber: '1234', department: 'Finance' });
      assert.deepEqual(created.body.groups, []);
      assert.equal(created.body.password, undefined);
      // 3. Match by filter (Entra matches on userName, case-insensitively, and on externalId).
      const matched = await c.call('GET', `/Users${q('userName eq "test_user_AB6490EE@contoso.com"')}`);
      assert.equal(matched.body.totalResults, 1);
      assert.equal(matched.body.Resources[0].id, id);
      const byExternal = await c.call('GET', `/Users${q('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7d2c4e0c1a11"')}`);
      assert.equal(byExternal.body.Resources[0].id, id);
      // A second create with the same userName in another case → 409 uniqueness.
      const duplicate = await c.call('POST', '/Users', { schemas: [USER], userName: 'TEST_USER_AB6490EE@contoso.com' });
      assert.equal(duplicate.status, 409);
      assert.deepEqual(duplicate.body.schemas, [ERROR]);
      assert.equal(duplicate.body.status, '409');
      assert.equal(duplicate.body.scimType, 'uniqueness');
      // 4. Update: Entra's PATCH with capitalised ops, filtered email path, URN path, manager as id.
      const manager = await c.call('POST', '/Users', { schemas: [USER], userName: 'boss@contoso.com' });
      const updated = await c.call('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
          { op: 'Add', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0100' },
          { op: 'Add', path: `${ENTERPRISE}:manager`, value: manager.body.id },
          { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Treasury' },
        ],
      });
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.body.emails, [{ primary: true, type: 'work', value: 'updatedEmail@microsoft.com' }]);
      assert.equal(updated.body.name.familyName, 'updatedFamilyName');
      assert.deepEqual(updated.body.phoneNumbers, [{ type: 'mobile', value: '+1 555 0100' }]);
      assert.deepEqual(updated.body[ENTERPRISE], { employeeNumber: '1234', department: 'Treasury', manager: { value: manager.body.id } });
      assert.equal(updated.body.meta.version, 'W/"2"');
      assert.equal((await c.call('GET', `/Users${q('emails.value eq "UPDATEDEMAIL@microsoft.com"')}`)).body.totalResults, 1);
      // 5. Group: create, then add the member (Entra: PATCH add members).
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], externalId: 'e6d8a3c6', displayName: 'Finance Approvers', members: [] });
      assert.equal(group.status, 201);
      const groupMatch = await c.call('GET', `/Groups${q('displayName eq "finance approvers"')}&excludedAttributes=members`);
      assert.equal(groupMatch.body.totalResults, 1);
      assert.equal(groupMatch.body.Resources[0].members, undefined);
      const added = await c.call('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }] });
      assert.equal(added.status, 204);
      const withMember = await c.call('GET', `/Users/${id}`);
      assert.deepEqual(withMember.body.groups.map((g: { value: string; display: string }) => [g.value, g.display]), [[group.body.id, 'Finance Approvers']]);
      assert.equal((await c.call('GET', `/Groups${q(`members[value eq "${id}"]`)}`)).body.totalResults, 1);
      // Entra removes with a value list.
      const removed = await c.call('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ value: id }] }] });
      assert.equal(removed.status, 204);
      assert.equal((await c.call('GET', `/Groups/${group.body.id}`)).body.members.length, 0);
      // 6. Deactivate: no-path replace with "False".
      const deactivated = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', value: { active: 'False' } }] });
      assert.equal(deactivated.status, 200);
      assert.equal(deactivated.body.active, false);
      assert.equal((await c.call('GET', `/Users${q('active eq false')}`)).body.Resources[0].id, id);
      const stored = await t.gatehouse.services.users.find(c.accountId, id);
      assert.equal(stored?.active, 0);
      // 7. Reactivate.
      const reactivated = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'active', value: 'True' }] });
      assert.equal(reactivated.body.active, true);
      // 8. Delete → 204, then 404 as a SCIM Error.
      const deleted = await c.call('DELETE', `/Users/${id}`);
      assert.equal(deleted.status, 204);
      assert.equal(deleted.body, undefined);
      const gone = await c.call('GET', `/Users/${id}`);
      assert.equal(gone.status, 404);
      assert.deepEqual(gone.body.schemas, [ERROR]);
      assert.equal(gone.body.status, '404');
      assert.equal(await t.gatehouse.services.users.find(c.accountId, id), undefined);
    });

    it('Okta: create, match, PUT update, group push with rename and member patch, deactivate by PATCH, reactivate', async () => {
      const c = await scimClient(t, 'Okta tenant');
      const miss = await c.call('GET', `/Users${q('userName eq "dade.murphy@example.com"')}&startIndex=1&count=100`);
      assert.equal(miss.body.totalResults, 0);
      const created = await c.call('POST', '/Users', {
        schemas: [USER],
        userName: 'dade.murphy@example.com',
        name: { givenName: 'Dade', familyName: 'Murphy' },
        emails: [{ primary: true, value: 'dade.murphy@example.com', type: 'work' }],
        displayName: 'Dade Murphy',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: 'tXF9zv!n-Okta',
        active: true,
      });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const row = await t.gatehouse.services.users.find(c.accountId, id);
      assert.match(row?.password_hash ?? '', /^\$argon2id\$/);
      assert.equal(created.body.password, undefined);
      // Okta's PUT replaces the whole user; externalId cannot change.
      const put = await c.call('PUT', `/Users/${id}`, {
        schemas: [USER],
        id,
        userName: 'dade.murphy@example.com',
        name: { givenName: 'Dade', familyName: 'Murphy-Okta' },
        emails: [{ primary: true, value: 'dade@example.com', type: 'work' }],
        displayName: 'Dade Murphy',
        externalId: '00ujl29u0le5T6Aj10h7',
        active: true,
      }, { 'if-match': 'W/"1"' });
      assert.equal(put.status, 200);
      assert.equal(put.body.name.familyName, 'Murphy-Okta');
      assert.equal(put.body.locale, undefined);
      const stale = await c.call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'x@example.com' }, { 'if-match': 'W/"1"' });
      assert.equal(stale.status, 412);
      assert.equal(stale.body.status, '412');
      // externalId is the directory's (RFC 7643 §3.1, readWrite): a PUT may change it.
      const renamed = await c.call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'dade.murphy@example.com', externalId: 'other', active: true });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.externalId, 'other');
      // Group push: create with members, rename, add and remove by patch.
      const other = await c.call('POST', '/Users', { schemas: [USER], userName: 'kate.libby@example.com' });
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Elite', members: [{ value: id, display: 'dade.murphy@example.com' }] });
      assert.equal(group.status, 201);
      assert.deepEqual(group.body.members.map((m: { value: string }) => m.value), [id]);
      const taken = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'ELITE' });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.scimType, 'uniqueness');
      const patched = await c.call('PATCH', `/Groups/${group.body.id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'replace', value: { id: group.body.id, displayName: 'Elite Hackers' } },
          { op: 'add', path: 'members', value: [{ value: other.body.id, display: 'kate.libby@example.com' }] },
          { op: 'remove', path: `members[value eq "${id}"]` },
        ],
      });
      assert.equal(patched.status, 204);
      const fetched = await c.call('GET', `/Groups/${group.body.id}`);
      assert.equal(fetched.body.displayName, 'Elite Hackers');
      assert.deepEqual(fetched.body.members.map((m: { value: string }) => m.value), [other.body.id]);
      assert.equal(fetched.body.meta.version, 'W/"2"');
      // Okta deactivates by PATCH replace active false, and reactivates the same way.
      const off = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] });
      assert.equal(off.status, 200);
      assert.equal(off.body.active, false);
      assert.equal((await c.call('GET', `/Users/${id}`)).body.active, false);
      const on = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] });
      assert.equal(on.body.active, true);
      const deletedGroup = await c.call('DELETE', `/Groups/${group.body.id}`);
      assert.equal(deletedGroup.status, 204);
      assert.equal((await c.call('GET', `/Groups/${group.body.id}`)).status, 404);
    });

    it('Entra: an attribute of its own extension rides along ignored; null and "" clear, filtered paths too; a batch naming a deleted person adds the rest', async () => {
      const c = await scimClient(t, 'Fabrikam');
      const CUSTOM = 'urn:ietf:params:scim:schemas:extension:CustomExtensionName:2.0:User';
      const created = await c.call('POST', '/Users', {
        schemas: [USER, ENTERPRISE],
        userName: 'leaver@fabrikam.example',
        displayName: 'Lea Ver',
        title: 'Analyst',
        emails: [{ type: 'work', primary: true, value: 'lea@fabrikam.example' }],
        phoneNumbers: [{ type: 'mobile', value: '+44 20 7946 0000' }, { type: 'work', value: '+44 20 7946 0001' }],
        addresses: [{ type: 'work', streetAddress: '1 Dock Road' }],
        [ENTERPRISE]: { department: 'Ops' },
        [`${CUSTOM}:costCenter`]: 'CC-1',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      const manager = await c.call('POST', '/Users', { schemas: [USER], userName: 'boss@fabrikam.example' });
      assert.equal((await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: manager.body.id }] })).status, 200);

      // The leaver: the disable travels with the custom attribute, in one PATCH.
      const disabled = await c.call('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'Add', path: `${CUSTOM}:costCenter`, value: 'CC-2' },
        ],
      });
      assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
      assert.equal(disabled.body.active, false);
      assert.equal(disabled.body[CUSTOM], undefined);
      assert.equal((await t.gatehouse.services.users.find(c.accountId, id))?.active, 0);

      // An extension's schema URN names all of it in attributes and excludedAttributes.
      const without = await c.call('GET', `/Users/${id}?excludedAttributes=groups,${ENTERPRISE}`);
      assert.equal(without.status, 200, JSON.stringify(without.body));
      assert.equal(without.body[ENTERPRISE], undefined);
      assert.equal(without.body.groups, undefined);
      assert.equal(without.body.userName, 'leaver@fabrikam.example');
      const only = await c.call('GET', `/Users/${id}?attributes=${ENTERPRISE}`);
      assert.deepEqual(Object.keys(only.body).sort(), [ENTERPRISE, 'id', 'schemas'].sort());
      assert.equal(only.body[ENTERPRISE].department, 'Ops');

      // Entra's validator clears with null, then with "": filtered paths and the manager too.
      const nulls = await c.call('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'replace', path: 'title', value: null },
          { op: 'replace', path: 'emails[type eq "work"].value', value: null },
          { op: 'replace', path: 'phoneNumbers[type eq "mobile"].value', value: null },
          { op: 'replace', path: 'addresses[type eq "work"].streetAddress', value: null },
        ],
      });
      assert.equal(nulls.status, 200, JSON.stringify(nulls.body));
      assert.equal(nulls.body.title, undefined);
      assert.equal(nulls.body.emails, undefined, 'the work e-mail, its value gone, goes');
      assert.deepEqual(nulls.body.phoneNumbers, [{ type: 'work', value: '+44 20 7946 0001' }]);
      assert.equal(nulls.body.addresses, undefined);
      const empties = await c.call('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'displayName', value: '' },
          { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '' },
          { op: 'Replace', path: `${ENTERPRISE}:manager`, value: '' },
          { op: 'Replace', path: `${ENTERPRISE}:department`, value: '' },
        ],
      });
      assert.equal(empties.status, 200, JSON.stringify(empties.body));
      assert.equal(empties.body.displayName, undefined);
      assert.equal(empties.body.phoneNumbers, undefined);
      assert.equal(empties.body[ENTERPRISE], undefined);
      assert.deepEqual(empties.body.schemas, [USER], 'an extension left empty is no longer listed');
      const stored = await t.gatehouse.database.db.selectFrom('users').select(['display_name']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(stored.display_name, null);
      const refused = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', path: 'userName', value: '' }] });
      assert.equal(refused.status, 400, 'a required attribute is not cleared');

      // Group membership in a batch that names someone deleted meanwhile: the others join.
      const gone = await c.call('POST', '/Users', { schemas: [USER], userName: 'gone@fabrikam.example' });
      assert.equal((await c.call('DELETE', `/Users/${gone.body.id}`)).status, 204);
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Ops', members: [{ value: gone.body.id }] });
      assert.equal(group.status, 201, JSON.stringify(group.body));
      assert.deepEqual(group.body.members, []);
      const batch = await c.call('PATCH', `/Groups/${group.body.id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: id }, { value: gone.body.id }, { value: manager.body.id }] }],
      });
      assert.equal(batch.status, 204, JSON.stringify(batch.body));
      const members = (await c.call('GET', `/Groups/${group.body.id}`)).body.members as Array<{ value: string; display: string }>;
      assert.deepEqual(members.map((m) => [m.value, m.display]).sort(), [[id, 'leaver@fabrikam.example'], [manager.body.id, 'boss@fabrikam.example']].sort());
    });

    it('RFC 7643 §2.5: an element, a complex value, a list or an extension left with no value is not stored, on POST, PUT and PATCH', async () => {
      const c = await scimClient(t, 'Northwind');
      const db = t.gatehouse.database.db;
      const stored = async (id: string) => {
        const row = await db.selectFrom('users').select('attributes').where('id', '=', id).executeTakeFirstOrThrow();
        const values = await db.selectFrom('scim_user_values').select(['attr', 'sub']).where('user_id', '=', id).orderBy('attr').orderBy('sub').execute();
        return { attributes: JSON.parse(row.attributes), values: values.map((v) => `${v.attr}.${v.sub}`) };
      };
      const created = await c.call('POST', '/Users', {
        schemas: [USER, ENTERPRISE],
        userName: 'empty@northwind.example',
        roles: [],
        emails: [],
        phoneNumbers: [{ type: 'work', value: '' }, { type: 'mobile', value: '+1 555 0100' }],
        name: { givenName: '' },
        [ENTERPRISE]: { manager: { value: '' } },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id = created.body.id as string;
      for (const attribute of ['roles', 'emails', 'name', ENTERPRISE]) assert.equal(created.body[attribute], undefined, attribute);
      assert.deepEqual(created.body.schemas, [USER]);
      assert.deepEqual(created.body.phoneNumbers, [{ type: 'mobile', value: '+1 555 0100' }]);
      assert.deepEqual(await stored(id), { attributes: { phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }] }, values: ['phonenumbers.type', 'phonenumbers.value'] });

      const manager = await c.call('POST', '/Users', { schemas: [USER], userName: 'boss@northwind.example' });
      const managed = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Add', path: `${ENTERPRISE}:manager`, value: manager.body.id }] });
      assert.deepEqual(managed.body[ENTERPRISE], { manager: { value: manager.body.id } });
      const patched = await c.call('PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'replace', path: `${ENTERPRISE}:manager`, value: { value: '' } },
          { op: 'add', path: 'emails', value: [{ value: '', type: 'work' }] },
          { op: 'add', path: 'roles', value: [] },
          { op: 'replace', path: 'name', value: { familyName: '' } },
        ],
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      for (const attribute of ['roles', 'emails', 'name', ENTERPRISE]) assert.equal(patched.body[attribute], undefined, attribute);
      assert.deepEqual(patched.body.schemas, [USER], 'an extension left empty is no longer listed');
      assert.deepEqual(await stored(id), { attributes: { phoneNumbers: [{ type: 'mobile', value: '+1 555 0100' }] }, values: ['phonenumbers.type', 'phonenumbers.value'] });
      // Nothing was left to change: the manager's removal was the one change.
      assert.equal(patched.body.meta.version, 'W/"3"');

      const replaced = await c.call('PUT', `/Users/${id}`, { schemas: [USER, ENTERPRISE], userName: 'empty@northwind.example', phoneNumbers: [], [ENTERPRISE]: { department: '' } });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.equal(replaced.body.phoneNumbers, undefined);
      assert.deepEqual(replaced.body.schemas, [USER]);
      assert.deepEqual(await stored(id), { attributes: {}, values: [] });
    });

    it('RFC 7644 §2: no or bad credential → 401 SCIM Error; OAuth token needs scope scim; accounts are isolated', async () => {
      const a = await scimClient(t, 'A');
      const b = await scimClient(t, 'B');
      const user = await a.call('POST', '/Users', { schemas: [USER], userName: 'only-in-a' });
      for (const authorization of [undefined, 'Bearer gh_scim_not-a-token', 'Basic Zm9vOmJhcg==']) {
        const response = await fetch(`${t.publicUrl}/scim/v2/Users`, { headers: authorization ? { authorization } : {} });
        assert.equal(response.status, 401);
        const body = (await response.json()) as { schemas: string[]; status: string };
        assert.deepEqual(body.schemas, [ERROR]);
        assert.equal(body.status, '401');
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="scim"/);
      }
      assert.equal((await b.call('GET', `/Users/${user.body.id}`)).status, 404);
      assert.equal((await b.call('PATCH', `/Users/${user.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).status, 404);
      assert.equal((await b.call('DELETE', `/Users/${user.body.id}`)).status, 404);
      assert.equal((await b.call('GET', `/Users${q('userName eq "only-in-a"')}`)).body.totalResults, 0);
      assert.equal((await a.call('GET', `/Users/${user.body.id}`)).body.active, true);

      const withScope = await mintAccessToken(t, { accountId: a.accountId, scopes: ['scim'] });
      const ok = await fetch(`${t.publicUrl}/scim/v2/Users/${user.body.id}`, { headers: { authorization: `Bearer ${withScope}` } });
      assert.equal(ok.status, 200);
      const withoutScope = await mintAccessToken(t, { accountId: a.accountId, scopes: ['invoices:read'] });
      const forbidden = await fetch(`${t.publicUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${withoutScope}` } });
      assert.equal(forbidden.status, 403);
      assert.equal(((await forbidden.json()) as { status: string }).status, '403');

      // Revoking the SCIM token ends it.
      const tokens = await t.admin('GET', `/admin/v1/accounts/${a.accountId}/scim-tokens`);
      assert.equal(tokens.status, 200);
      assert.equal(tokens.body.data.length, 1);
      assert.equal(tokens.body.data[0].token, undefined);
      const revoked = await t.admin('DELETE', `/admin/v1/accounts/${a.accountId}/scim-tokens/${tokens.body.data[0].id}`);
      assert.equal(revoked.status, 204);
      assert.equal((await a.call('GET', '/Users')).status, 401);
    });
  });
}
