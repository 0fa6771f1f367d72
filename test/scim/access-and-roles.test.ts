import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { scimClient, GROUP, PATCH, USER } from './scim-client.ts';

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
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${c.accountId}/roles`)).body.data.length, 2);
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
