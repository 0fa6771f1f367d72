/**
 * Every answer of the business API (/v1) and SCIM (/scim/v2) carries `Cache-Control: no-store`:
 * per-account financial, personal and audit data, errors included, is never kept by a cache on the
 * way. What is public and meant to be cached (the JWKS) keeps its own header.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { ALL_SCOPES, api, fund, newTenant } from '../payments/api.ts';
import { scimClient, USER } from '../scim/scim-client.ts';

for (const target of databaseTargets()) {
  describe(`Cache-Control on the business API and SCIM (${target.kind})`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await startTestApp(target);
      const tenant = await newTenant(t);
      await fund(t, tenant.token, 1_000);
      token = await mintAccessToken(t, { accountId: tenant.accountId, scopes: [...ALL_SCOPES, 'events:read', 'audit:read', 'webhooks:manage'] });
    });
    after(() => t.close());

    it('every /v1 read, write and error answers no-store', async () => {
      const reads = ['/v1/invoices', '/v1/payouts', '/v1/ledger/entries', '/v1/balance', '/v1/audit-events', '/v1/events', '/v1/webhook_endpoints'];
      for (const path of reads) {
        const read = await api(t, token, 'GET', path);
        assert.equal(read.status, 200, `${path}: ${JSON.stringify(read.body)}`);
        assert.equal(read.headers.get('cache-control'), 'no-store', path);
      }
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 250, currency: 'EUR' });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('cache-control'), 'no-store', 'a write');
      const stored = await api(t, token, 'GET', `/v1/invoices/${created.body.id}`);
      assert.deepEqual([stored.status, stored.body.amount], [200, 250]);

      const errors: Array<[number, string, Promise<{ status: number; headers: Headers; body: { code?: string } }>]> = [
        [401, 'unauthorized', fetch(`${t.publicUrl}/v1/invoices`).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }))],
        [400, 'limit_out_of_range', api(t, token, 'GET', '/v1/invoices?limit=0')],
        [400, 'validation_failed', api(t, token, 'GET', '/v1/payouts?since=yesterday')],
        [404, 'invoice_not_found', api(t, token, 'GET', '/v1/invoices/inv_00000000000000000000')],
      ];
      for (const [status, code, answer] of errors) {
        const refused = await answer;
        assert.deepEqual([refused.status, refused.body.code], [status, code]);
        assert.equal(refused.headers.get('cache-control'), 'no-store', code);
      }
    });

    it('SCIM answers no-store, errors included; the JWKS keeps its own caching', async () => {
      const scim = await scimClient(t);
      const created = await scim.call('POST', '/Users', { schemas: [USER], userName: 'cache@example.com' });
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('cache-control'), 'no-store');
      const listed = await scim.call('GET', '/Users');
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.Resources.map((u: { userName: string }) => u.userName), ['cache@example.com']);
      assert.equal(listed.headers.get('cache-control'), 'no-store');
      const missing = await scim.call('GET', '/Users/00000000-0000-0000-0000-000000000000');
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.get('cache-control'), 'no-store');
      const unauthenticated = await fetch(`${t.publicUrl}/scim/v2/Users`);
      assert.equal(unauthenticated.status, 401);
      assert.equal(unauthenticated.headers.get('cache-control'), 'no-store');

      const jwks = await fetch(`${t.publicUrl}/.well-known/jwks.json`);
      assert.equal(jwks.status, 200);
      assert.match(jwks.headers.get('cache-control') ?? '', /^public, max-age=\d+$/);
    });
  });
}
