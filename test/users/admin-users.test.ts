import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';

for (const target of databaseTargets()) {
  describe(`admin API: users (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    before(async () => {
      t = await startTestApp(target);
      accountId = await createAccount(t);
    });
    after(() => t.close());

    it('POST /admin/v1/accounts/{id}/users → 201; the password is stored only as an argon2id hash', async () => {
      const created = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName: 'Ada@Example.com', password: 'correct horse battery', name: { givenName: 'Ada', familyName: 'Lovelace' } });
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^usr_[0-9A-Za-z]{20}$/);
      assert.equal(created.body.userName, 'Ada@Example.com');
      assert.deepEqual(created.body.name, { givenName: 'Ada', familyName: 'Lovelace' });
      assert.equal(created.body.active, true);
      assert.equal(created.body.password, undefined);
      const row = await t.gatehouse.database.db.selectFrom('users').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.match(row.password_hash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const fetched = await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${created.body.id}`);
      assert.deepEqual(fetched.body, created.body);
    });

    it('userName is unique per account, case-insensitively → 409; a short password → 400; another account → 404', async () => {
      const dup = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName: 'ada@example.COM', password: 'another long one' });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.code, 'user_name_taken');
      const weak = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName: 'weak', password: 'short' });
      assert.equal(weak.status, 400);
      assert.equal(weak.body.code, 'weak_password');
      const other = await createAccount(t, 'Other');
      const mine = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName: 'grace', password: 'long enough pass' });
      const foreign = await t.admin('GET', `/admin/v1/accounts/${other}/users/${mine.body.id}`);
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.code, 'user_not_found');
      const missing = await t.admin('POST', '/admin/v1/accounts/acct_00000000000000000000/users', { userName: 'x', password: 'long enough pass' });
      assert.equal(missing.status, 404);
    });

    it('client registration refuses unsafe metadata (RFC 7591 §3.2.2)', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ redirect_uris: ['http://app.example/cb'], scope: 'invoices:read' }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['https://app.example/cb#frag'], scope: 'invoices:read' }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['/relative'], scope: 'invoices:read' }, 'invalid_redirect_uri'],
        [{ scope: 'invoices:read' }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['https://app.example/cb'], scope: 'admin:all' }, 'invalid_client_metadata'],
        [{ grant_types: ['client_credentials'], token_endpoint_auth_method: 'none', scope: 'invoices:read' }, 'invalid_client_metadata'],
        [{ grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', scope: 'invoices:read' }, 'invalid_client_metadata'],
        [{ grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, scope: 'invoices:read' }, 'invalid_client_metadata'],
      ];
      for (const [metadata, code] of cases) {
        const response = await t.admin('POST', `/admin/v1/accounts/${accountId}/clients`, metadata);
        assert.equal(response.status, 400, JSON.stringify(metadata));
        assert.equal(response.body.code, code, JSON.stringify(metadata));
      }
      const listed = await t.admin('GET', `/admin/v1/accounts/${accountId}/clients`);
      assert.deepEqual(listed.body.data, []);
    });
  });
}
