/**
 * Every status a route answers is in the API document, in the shape it is answered: the
 * answers the server gives itself (a body too large or of the wrong type, headers too large, the
 * API rate limit) are answered on sample routes of each protocol and looked up in /openapi.json.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { json, type Json } from '../helpers/http.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';

const [sqlite] = databaseTargets();

describe('the API documents name every status the routes answer, in the shape answered', () => {
  let t: TestApp;
  let doc: Json;
  let adminDoc: Json;
  let token: string;
  let scimToken: string;
  before(async () => {
    t = await startTestApp(sqlite!, { env: { GATEHOUSE_BODY_LIMIT: '2048', GATEHOUSE_RATE_LIMIT_API: '3/60' } });
    doc = await json(await fetch(`${t.publicUrl}/openapi.json`));
    adminDoc = await json(await fetch(`${t.adminUrl}/openapi.json`));
    const accountId = await createAccount(t);
    token = await mintAccessToken(t, { accountId, scopes: ['invoices:write', 'webhooks:manage', 'events:read'] });
    scimToken = (await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'IdP' })).body.token;
  });
  after(() => t.close());

  /** A response, or the shared one it refers to. */
  const resolve = (document: Json, response: Json) => (response?.$ref ? document.components.responses[response.$ref.replace('#/components/responses/', '')] : response);

  /** Asserts the answer's status and media type are documented for the operation. */
  async function documented(document: Json, method: string, route: string, response: Response): Promise<void> {
    const responses = document.paths[route][method].responses;
    const entry = resolve(document, responses[String(response.status)]);
    assert.ok(entry, `${method.toUpperCase()} ${route} answered ${response.status}, documented: ${Object.keys(responses).join(', ')}`);
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!;
    assert.ok(type in (entry.content ?? {}), `${method.toUpperCase()} ${route} ${response.status} is ${type}, documented as ${Object.keys(entry.content ?? {}).join(', ')}`);
    await response.arrayBuffer();
  }

  it('413 and 415 from the body parsers: problem+json on /v1 and the admin API, SCIM on /scim/v2, 400 invalid_request at /token', async () => {
    const bearer = { authorization: `Bearer ${token}` };
    const big = JSON.stringify({ amount: 1, currency: 'EUR', description: 'x'.repeat(4000) });
    const tooLarge = await fetch(`${t.publicUrl}/v1/invoices`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json', 'idempotency-key': 'k1' }, body: big });
    assert.equal(tooLarge.status, 413);
    await documented(doc, 'post', '/v1/invoices', tooLarge);
    const deletion = await fetch(`${t.publicUrl}/v1/webhook_endpoints/we_x`, { method: 'DELETE', headers: { ...bearer, 'content-type': 'text/plain' }, body: 'x' });
    assert.equal(deletion.status, 415);
    await documented(doc, 'delete', '/v1/webhook_endpoints/{id}', deletion);
    const scim = await fetch(`${t.publicUrl}/scim/v2/Users`, { method: 'POST', headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'text/plain' }, body: 'x' });
    assert.equal(scim.status, 415);
    await documented(doc, 'post', '/scim/v2/Users', scim);
    const admin = await fetch(`${t.adminUrl}/admin/v1/accounts`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'text/plain' }, body: 'x' });
    assert.equal(admin.status, 415);
    await documented(adminDoc, 'post', '/admin/v1/accounts', admin);

    // RFC 6749 has no 415: the token endpoint answers 400 invalid_request, and says so.
    const form = await fetch(`${t.publicUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(form.status, 400);
    await documented(doc, 'post', '/token', form);
    assert.equal(doc.paths['/token'].post.responses['415'], undefined);
    assert.equal(doc.paths['/token'].post.responses['413'], undefined);
  });

  it('431 before routing, in problem+json on every route', async () => {
    await documented(doc, 'get', '/v1/events', await fetch(`${t.publicUrl}/v1/events`, { headers: { authorization: `Bearer ${token}`, 'x-big': 'x'.repeat(20_000) } }));
    await documented(doc, 'get', '/authorize', await fetch(`${t.publicUrl}/authorize`, { headers: { 'x-big': 'x'.repeat(20_000) } }));
  });

  it('429 from the API rate limit on /v1 and /scim/v2 routes that declare nothing of it', async () => {
    let limited: Response | undefined;
    for (let i = 0; i < 5 && !limited; i++) {
      const response = await fetch(`${t.publicUrl}/v1/events`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status === 429) limited = response;
      else await response.arrayBuffer();
    }
    assert.ok(limited, 'the limit was reached');
    await documented(doc, 'get', '/v1/events', limited);
    assert.ok(resolve(doc, doc.paths['/v1/events/{id}/redeliver'].post.responses['429']).headers['Retry-After']);
    for (const [route, operations] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      if (!route.startsWith('/v1/') && !route.startsWith('/scim/v2/')) continue;
      for (const [method, operation] of Object.entries(operations)) assert.ok(operation.responses['429'], `${method} ${route} documents 429`);
    }
  });

  it('the JSON Web Key Set is documented as the media type it is sent as (RFC 7517 §8.5)', async () => {
    const jwks = await fetch(`${t.publicUrl}/.well-known/jwks.json`);
    assert.equal(jwks.status, 200);
    assert.equal((jwks.headers.get('content-type') ?? '').split(';')[0], 'application/jwk-set+json');
    await documented(doc, 'get', '/.well-known/jwks.json', jwks);
    assert.deepEqual(Object.keys(doc.paths['/.well-known/jwks.json'].get.responses['200'].content), ['application/jwk-set+json']);
  });

  it('every admin operation documents 429 with Retry-After: the limit on refusals of the admin token covers them all', () => {
    for (const [route, operations] of Object.entries(adminDoc.paths as Record<string, Record<string, Json>>)) {
      if (!route.startsWith('/admin/v1/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const limited = resolve(adminDoc, operation.responses['429']);
        assert.ok(limited?.headers?.['Retry-After'], `${method} ${route} documents 429`);
        assert.ok('application/problem+json' in limited.content, `${method} ${route}`);
      }
    }
  });

  it('every operation that needs a credential documents 401; /token, /revoke and /introspect describe client authentication', () => {
    for (const document of [doc, adminDoc]) {
      for (const [route, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
        for (const [method, operation] of Object.entries(operations)) {
          const needs = operation.security.length > 0 && operation.security.every((r: Json) => Object.keys(r).length > 0);
          if (needs) assert.ok(operation.responses['401'], `${method} ${route} documents 401`);
          for (const status of ['400', '408', '431']) assert.ok(operation.responses[status], `${method} ${route} documents ${status}`);
        }
      }
    }
    assert.equal(doc.components.securitySchemes.clientSecretBasic.scheme, 'basic');
    for (const route of ['/token', '/revoke', '/introspect']) {
      const operation = doc.paths[route].post;
      assert.deepEqual(operation.security, [{ clientSecretBasic: [] }, {}]);
      for (const method of ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none']) assert.match(operation.description, new RegExp(`\`${method}\``));
    }
  });

  it('every error example says the status it is documented under; only a 400 example lists invalid members', () => {
    for (const document of [doc, adminDoc]) {
      for (const [route, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
        for (const [method, operation] of Object.entries(operations)) {
          for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
            if (!/^[45]/.test(status)) continue;
            for (const [type, media] of Object.entries((resolve(document, response).content ?? {}) as Record<string, Json>)) {
              const example = media.example;
              if (!example || typeof example !== 'object' || !('status' in example)) continue;
              const where = `${method.toUpperCase()} ${route} ${status} ${type}`;
              assert.equal(String(example.status), status, where);
              if (type === 'application/scim+json') assert.deepEqual(example.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error'], where);
              if (status !== '400') assert.equal(example.errors, undefined, where);
            }
          }
        }
      }
    }
  });

  it('a refusal stored under an Idempotency-Key is replayed with Idempotent-Replay, and documented with it', async () => {
    const writer = await mintAccessToken(t, { accountId: await createAccount(t), scopes: ['invoices:write'] });
    const settle = () =>
      fetch(`${t.publicUrl}/v1/invoices/inv_missing/settle`, { method: 'POST', headers: { authorization: `Bearer ${writer}`, 'idempotency-key': 'settle-missing' } });
    const first = await settle();
    assert.equal(first.status, 404);
    assert.equal(first.headers.get('idempotent-replay'), null);
    const again = await settle();
    assert.equal(again.status, 404);
    assert.equal(again.headers.get('idempotent-replay'), 'true');
    assert.equal((await json(again.clone())).code, 'invoice_not_found');
    await documented(doc, 'post', '/v1/invoices/{id}/settle', again);
    const operation = doc.paths['/v1/invoices/{id}/settle'].post;
    for (const status of ['200', '404', '409']) assert.ok(resolve(doc, operation.responses[status]).headers?.['Idempotent-Replay'], `settle ${status} documents Idempotent-Replay`);
    assert.ok(resolve(doc, doc.paths['/v1/payouts'].post.responses['422']).headers?.['Idempotent-Replay'], 'a payout refused for funds is replayed too');
    // A key still in use answers 409 with Retry-After: 1 (docs/IDEMPOTENCY.md).
    assert.deepEqual(resolve(doc, operation.responses['409']).headers['Retry-After'].schema, { type: 'integer', minimum: 0 });
    // Refusals about the request or the credential are not stored: no replay header is promised for them.
    for (const status of ['400', '401', '403', '413', '415', '429']) {
      const entry = resolve(doc, operation.responses[status]);
      assert.ok(entry, status);
      assert.equal(entry.headers?.['Idempotent-Replay'], undefined, status);
    }
  });

  it('every collection documents the limit it takes, 1 to 100, as it answers: 101 is 400 limit_out_of_range, 100 is a page', async () => {
    for (const document of [doc, adminDoc]) {
      for (const [route, operations] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
        for (const [method, operation] of Object.entries(operations)) {
          const limit = (operation.parameters ?? []).find((p: Json) => p.in === 'query' && p.name === 'limit');
          if (limit && !route.startsWith('/scim/')) assert.deepEqual(limit.schema, { type: 'integer', minimum: 1, maximum: 100 }, `${method} ${route}`);
        }
      }
    }
    // A token of its own: this suite's API limit (3 a minute per token) is spent by the 429 test.
    const reader = await mintAccessToken(t, { accountId: await createAccount(t), scopes: ['invoices:read'] });
    const over = await fetch(`${t.publicUrl}/v1/invoices?limit=101`, { headers: { authorization: `Bearer ${reader}` } });
    const body = await json(over.clone());
    assert.equal(over.status, 400);
    assert.equal(body.code, 'limit_out_of_range');
    assert.deepEqual(body.errors, [{ pointer: '#/limit', in: 'query', detail: 'limit must be at most 100' }]);
    await documented(doc, 'get', '/v1/invoices', over);
    const full = await fetch(`${t.adminUrl}/admin/v1/accounts?limit=100`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(full.status, 200);
    const accounts = await json(full);
    assert.ok(accounts.data.length >= 2, 'the accounts of this suite, on one page');
    assert.equal(accounts.next_cursor, null);
  });
});
