/**
 * The walk-throughs of docs/ driven through the TypeScript client generated from the API
 * documents (clients/typescript): if a document and the server drift apart, this stops compiling
 * or fails. Admin API: an account, an OAuth client, a SCIM token; OAuth: a client-credentials
 * token; payments: an invoice settled and paid out, pages of payouts and the ledger; webhooks: an
 * endpoint registered; SCIM: a user provisioned, patched and deleted; idempotency: a payout retried
 * with its key is replayed, not made twice; and the documented error shapes. On SQLite, and on
 * PostgreSQL when GATEHOUSE_TEST_DATABASE_URL is set (reported as skipped otherwise).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets, describeIf, NEEDS_POSTGRES, type DatabaseTarget } from '../helpers/databases.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { createGatehouseAdminClient, createGatehouseClient } from '../../clients/typescript/index.ts';

const SCOPES = 'invoices:read invoices:write payouts:read payouts:write ledger:read webhooks:manage events:read';
const key = () => ({ 'Idempotency-Key': randomUUID() });

function throughTheWalkthroughs(target: DatabaseTarget): void {
  let t: TestApp;
  before(async () => {
    // The endpoint's name resolves to a public address; nothing is delivered in this test.
    t = await startTestApp(target, { deps: { webhookResolve: async () => [{ address: '93.184.215.14', family: 4 }] } });
  });
  after(() => t.close());

  it('admin API → token → invoice, settle, payout, pages, ledger, webhook endpoint, SCIM user', async () => {
    const admin = createGatehouseAdminClient({ baseUrl: t.adminUrl, token: TEST_ADMIN_TOKEN });
    const account = await admin.POST('/admin/v1/accounts', { body: { name: 'Acme' } });
    assert.equal(account.response.status, 201);
    const accountId = account.data!.id;

    const registered = await admin.POST('/admin/v1/accounts/{id}/clients', {
      params: { path: { id: accountId } },
      body: { client_name: 'Acme back office', grant_types: ['client_credentials'], scope: SCOPES },
    });
    assert.equal(registered.response.status, 201, JSON.stringify(registered.error));
    const { client_id, client_secret } = registered.data!;
    assert.ok(client_secret);

    // The token endpoint reads a form (RFC 6749 §4.4.2); the client sends what the document says.
    const open = createGatehouseClient({ baseUrl: t.publicUrl });
    const issued = await open.POST('/token', {
      body: { grant_type: 'client_credentials', scope: SCOPES },
      bodySerializer: (body) => new URLSearchParams(body as Record<string, string>),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(client_id)}:${encodeURIComponent(client_secret!)}`).toString('base64')}`,
      },
    });
    assert.equal(issued.response.status, 200, JSON.stringify(issued.error));
    const gatehouse = createGatehouseClient({ baseUrl: t.publicUrl, token: issued.data!.access_token });

    const invoice = await gatehouse.POST('/v1/invoices', { params: { header: key() }, body: { amount: 1250, currency: 'EUR', description: 'February retainer' } });
    assert.equal(invoice.response.status, 201);
    assert.equal(invoice.data!.state, 'open');
    const settled = await gatehouse.POST('/v1/invoices/{id}/settle', { params: { path: { id: invoice.data!.id }, header: key() } });
    assert.equal(settled.data!.state, 'settled');

    const payoutKey = key();
    const payout = await gatehouse.POST('/v1/payouts', { params: { header: payoutKey }, body: { amount: 1000, currency: 'EUR', destination: 'acct_demo_123' } });
    assert.equal(payout.response.status, 201);
    assert.equal(payout.data!.state, 'pending');
    // A retry with the same key: the first answer again, and no second payout.
    const retried = await gatehouse.POST('/v1/payouts', { params: { header: payoutKey }, body: { amount: 1000, currency: 'EUR', destination: 'acct_demo_123' } });
    assert.equal(retried.response.status, 201);
    assert.equal(retried.response.headers.get('idempotent-replay'), 'true');
    assert.deepEqual(retried.data, payout.data);
    const reused = await gatehouse.POST('/v1/payouts', { params: { header: payoutKey }, body: { amount: 999, currency: 'EUR', destination: 'acct_demo_123' } });
    assert.equal(reused.response.status, 409);
    assert.equal(reused.error!.code, 'idempotency_key_reused');
    const refused = await gatehouse.POST('/v1/payouts', { params: { header: key() }, body: { amount: 1000, currency: 'EUR', destination: 'acct_demo_123' } });
    assert.equal(refused.response.status, 422);
    assert.equal(refused.error!.code, 'insufficient_funds');

    const page = await gatehouse.GET('/v1/payouts', { params: { query: { limit: 1 } } });
    assert.deepEqual(page.data!.data.map((p) => p.id), [payout.data!.id]);
    assert.equal(page.data!.next_cursor, null);
    const ledger = await gatehouse.GET('/v1/ledger/entries', { params: { query: { currency: 'EUR', direction: 'credit' } } });
    assert.ok(ledger.data!.data.length > 0);
    assert.ok(ledger.data!.data.every((e) => e.direction === 'credit'));

    const invalid = await gatehouse.POST('/v1/payouts', { params: { header: key() }, body: { amount: -5, currency: 'EUR', destination: '' } });
    assert.equal(invalid.response.status, 400);
    assert.deepEqual(invalid.error!.errors!.map((e) => e.pointer).sort(), ['#/amount', '#/destination']);

    const endpoint = await gatehouse.POST('/v1/webhook_endpoints', {
      params: { header: key() },
      body: { url: 'https://hooks.acme.test/gatehouse', event_types: ['invoice.settled'] },
    });
    assert.equal(endpoint.response.status, 201, JSON.stringify(endpoint.error));
    assert.match(endpoint.data!.secret ?? '', /^whsec_/);
    const endpoints = await gatehouse.GET('/v1/webhook_endpoints');
    assert.deepEqual(endpoints.data!.data.map((e) => e.id), [endpoint.data!.id]);

    const scimToken = await admin.POST('/admin/v1/accounts/{id}/scim-tokens', { params: { path: { id: accountId } }, body: { description: 'IdP' } });
    assert.equal(scimToken.response.status, 201);
    const scim = createGatehouseClient({ baseUrl: t.publicUrl, token: scimToken.data!.token });
    const user = await scim.POST('/scim/v2/Users', { body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'ada' } });
    assert.equal(user.response.status, 201);
    assert.match(user.response.headers.get('content-type') ?? '', /^application\/scim\+json/);
    const userId = String(user.data!.id);
    const patched = await scim.PATCH('/scim/v2/Users/{id}', {
      params: { path: { id: userId } },
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [
          { op: 'replace', path: 'active', value: false },
          { op: 'add', path: 'name.givenName', value: 'Ada' },
        ],
      },
    });
    assert.equal(patched.response.status, 200, JSON.stringify(patched.error));
    const read = await scim.GET('/scim/v2/Users/{id}', { params: { path: { id: userId } } });
    assert.equal(read.data!.active, false);
    assert.equal((read.data!.name as { givenName?: string } | undefined)?.givenName, 'Ada');
    const deleted = await scim.DELETE('/scim/v2/Users/{id}', { params: { path: { id: userId } } });
    assert.equal(deleted.response.status, 204);
    const gone = await scim.GET('/scim/v2/Users/{id}', { params: { path: { id: userId } } });
    assert.equal(gone.response.status, 404);
  });
}

const [sqlite, postgres] = [databaseTargets().find((t) => t.kind === 'sqlite'), databaseTargets().find((t) => t.kind === 'postgres')];
describeIf(sqlite, 'always present', 'the generated TypeScript client through the walk-throughs (sqlite)', throughTheWalkthroughs);
describeIf(postgres, NEEDS_POSTGRES, 'the generated TypeScript client through the walk-throughs (postgres)', throughTheWalkthroughs);
