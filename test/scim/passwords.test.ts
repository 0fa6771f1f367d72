/**
 * One password policy for every path that sets a password: the admin API (problem+json
 * weak_password) and SCIM POST, PUT and each PATCH form (400 invalidValue) accept and refuse the
 * same passwords (8 to 1024 characters, counted as code points), store only the argon2id hash,
 * and SCIM never returns the password (returned: never).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, ERROR, PATCH, USER, type ScimClient } from './scim-client.ts';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const ARGON2ID_OWASP = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/;

const REFUSED: Array<[string, string]> = [
  ['', 'password needs at least 8 characters'],
  ['a', 'password needs at least 8 characters'],
  ['1234567', 'password needs at least 8 characters'],
  // Seven characters, fourteen UTF-16 units: characters are what count.
  ['🔑🔑🔑🔑🔑🔑🔑', 'password needs at least 8 characters'],
  ['x'.repeat(1025), 'password has more than 1024 characters'],
];
const ACCEPTED = ['12345678', '🔑🔑🔑🔑🔑🔑🔑🔑', 'x'.repeat(1024)];

for (const target of databaseTargets()) {
  describe(`password policy on every path that sets a password (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t, 'Passwords');
    });
    after(() => t.close());

    const hashOf = async (id: string) =>
      (await t.gatehouse.database.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirstOrThrow()).password_hash;
    const userNamed = (userName: string) =>
      t.gatehouse.database.db.selectFrom('users').select('id').where('account_id', '=', c.accountId).where('user_name_lower', '=', userName.toLowerCase()).executeTakeFirst();

    it('the admin API and SCIM POST refuse the same passwords, each in its own error shape, and store nothing', async () => {
      for (const [index, [password, detail]] of REFUSED.entries()) {
        const admin = await t.admin('POST', `/admin/v1/accounts/${c.accountId}/users`, { userName: `admin-refused-${index}`, password });
        assert.equal(admin.status, 400, `admin ${detail}`);
        assert.match(admin.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(admin.body.code, 'weak_password');
        assert.equal(admin.body.detail, detail);
        const scim = await c.call('POST', '/Users', { schemas: [USER], userName: `scim-refused-${index}`, password });
        assert.equal(scim.status, 400, `scim ${detail}`);
        assert.match(scim.headers.get('content-type') ?? '', /^application\/scim\+json/);
        assert.deepEqual(scim.body, { schemas: [ERROR], status: '400', scimType: 'invalidValue', detail });
        assert.equal(await userNamed(`admin-refused-${index}`), undefined);
        assert.equal(await userNamed(`scim-refused-${index}`), undefined);
      }
    });

    it('the admin API and SCIM POST accept the same passwords, store the argon2id hash, and the person can sign in with it', async () => {
      for (const [index, password] of ACCEPTED.entries()) {
        const admin = await t.admin('POST', `/admin/v1/accounts/${c.accountId}/users`, { userName: `admin-ok-${index}`, password });
        assert.equal(admin.status, 201);
        const scim = await c.call('POST', '/Users', { schemas: [USER], userName: `scim-ok-${index}`, password });
        assert.equal(scim.status, 201);
        assert.equal(scim.body.password, undefined);
        for (const [id, userName] of [[admin.body.id, `admin-ok-${index}`], [scim.body.id, `scim-ok-${index}`]] as const) {
          assert.match((await hashOf(id)) ?? '', ARGON2ID_OWASP);
          assert.equal((await t.gatehouse.services.userAccounts.verifySignIn(c.accountId, userName, password)).user?.id, id);
        }
      }
    });

    it('SCIM PUT and every PATCH form (path, URN path, no path, Bulk) refuse a weak password and keep the stored hash', async () => {
      const created = await c.call('POST', '/Users', { schemas: [USER], userName: 'changer@example.com', password: 'first password' });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const stored = await hashOf(id);
      const weak = 'short';
      const detail = 'password needs at least 8 characters';
      const writes: Array<[string, unknown]> = [
        ['PUT', { schemas: [USER], userName: 'changer@example.com', password: weak }],
        ['PATCH', { schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: weak }] }],
        ['PATCH', { schemas: [PATCH], Operations: [{ op: 'Replace', path: `${USER}:password`, value: weak }] }],
        ['PATCH', { schemas: [PATCH], Operations: [{ op: 'Add', path: 'password', value: weak }] }],
        ['PATCH', { schemas: [PATCH], Operations: [{ op: 'Replace', value: { password: weak } }] }],
        ['PATCH', { schemas: [PATCH], Operations: [{ op: 'replace', value: { [`${USER}:password`]: weak, active: 'True' } }] }],
      ];
      for (const [method, body] of writes) {
        const response = await c.call(method, `/Users/${id}`, body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.deepEqual(response.body, { schemas: [ERROR], status: '400', scimType: 'invalidValue', detail }, JSON.stringify(body));
      }
      const bulk = await c.call('POST', '/Bulk', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
        Operations: [{ method: 'PATCH', path: `/Users/${id}`, data: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: weak }] } }],
      });
      assert.equal(bulk.status, 200);
      assert.equal(bulk.body.Operations[0].status, '400');
      assert.equal(bulk.body.Operations[0].response.scimType, 'invalidValue');
      assert.equal(await hashOf(id), stored);
      assert.equal((await c.call('GET', `/Users/${id}`)).body.meta.version, 'W/"1"');
      assert.ok((await t.gatehouse.services.userAccounts.verifySignIn(c.accountId, 'changer@example.com', 'first password')).user);

      // A password that meets the policy, sent by no-path PATCH, replaces the hash.
      const changed = await c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'Replace', value: { password: 'second password' } }] });
      assert.equal(changed.status, 200);
      assert.notEqual(await hashOf(id), stored);
      assert.equal((await t.gatehouse.services.userAccounts.verifySignIn(c.accountId, 'changer@example.com', 'first password')).user, undefined);
      assert.ok((await t.gatehouse.services.userAccounts.verifySignIn(c.accountId, 'changer@example.com', 'second password')).user);
    });

    it('a directory that syncs passwords resends the stored one with every PUT or PATCH: no new hash, version or record; a new one is a change', async () => {
      const body = (password: string) => ({ schemas: [USER], userName: 'synced@example.com', active: true, password });
      const created = await c.call('POST', '/Users', body('Spring-2026!'));
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const first = await hashOf(id);
      const records = async () =>
        (await t.gatehouse.database.db.selectFrom('audit_events').select('action').where('target_id', '=', id).execute()).map((r) => r.action);
      for (const send of [() => c.call('PUT', `/Users/${id}`, body('Spring-2026!')), () => c.call('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: 'Spring-2026!' }] })]) {
        const again = await send();
        assert.equal(again.status, 200);
        assert.equal(again.body.meta.version, 'W/"1"');
        assert.equal(await hashOf(id), first, 'the stored hash stays');
      }
      assert.deepEqual(await records(), ['scim.user.created']);
      const changed = await c.call('PUT', `/Users/${id}`, body('Summer-2026!'));
      assert.equal(changed.body.meta.version, 'W/"2"');
      assert.notEqual(await hashOf(id), first);
      assert.match((await hashOf(id))!, ARGON2ID_OWASP);
      assert.deepEqual(await records(), ['scim.user.created', 'scim.user.replaced']);
    });

    it('RFC 7643 §4.1.1: the password is returned never, not even when asked for by name', async () => {
      const created = await c.call('POST', '/Users?attributes=password', { schemas: [USER], userName: 'secret@example.com', password: 'the secret password' });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      const responses = [
        created,
        await c.call('GET', `/Users/${id}`),
        await c.call('GET', `/Users/${id}?attributes=password`),
        await c.call('GET', `/Users/${id}?attributes=userName,password`),
        await c.call('GET', `/Users?filter=${encodeURIComponent('userName eq "secret@example.com"')}&attributes=password`),
        await c.call('POST', '/Users/.search', { schemas: [SEARCH], filter: 'userName eq "secret@example.com"', attributes: ['password'] }),
        await c.call('PUT', `/Users/${id}`, { schemas: [USER], userName: 'secret@example.com', password: 'another secret password' }),
        await c.call('PATCH', `/Users/${id}?attributes=password`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: 'third secret password' }] }),
      ];
      for (const response of responses) {
        assert.ok(response.status === 200 || response.status === 201, String(response.status));
        assert.doesNotMatch(JSON.stringify(response.body), /password/i);
      }
      // Nor can a filter test it, nor is it kept where filters look.
      const probe = await c.call('GET', `/Users?filter=${encodeURIComponent('password eq "third secret password"')}`);
      assert.deepEqual(probe.body, { schemas: [ERROR], status: '400', scimType: 'invalidFilter', detail: 'password cannot be filtered' });
      const values = await t.gatehouse.database.db.selectFrom('scim_user_values').select('attr').where('user_id', '=', id).execute();
      assert.deepEqual(values, []);
      const row = await t.gatehouse.database.db.selectFrom('users').select('attributes').where('id', '=', id).executeTakeFirstOrThrow();
      assert.doesNotMatch(row.attributes, /secret/);
    });
  });
}
