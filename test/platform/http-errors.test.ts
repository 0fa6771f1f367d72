import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';

const [sqlite] = databaseTargets();

async function post(t: TestApp, body: string | Buffer, contentType?: string) {
  const response = await fetch(`${t.adminUrl}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await json(response) };
}

describe('one error model: RFC 9457 problem+json, never a stack trace', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(sqlite!, { env: { GATEHOUSE_BODY_LIMIT: '2048' } });
  });
  after(() => t.close());

  const problemShape = (body: Record<string, unknown>, status: number, code: string) => {
    assert.equal(body.status, status);
    assert.equal(body.code, code);
    assert.equal(typeof body.title, 'string');
    assert.match(String(body.type), new RegExp(`/docs/errors#error-${code}$`));
    assert.doesNotMatch(JSON.stringify(body), /at .*\.ts:\d+|node_modules|stack/);
  };

  it('unknown route → 404 not_found', async () => {
    const response = await fetch(`${t.publicUrl}/no/such/route?x=1`);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    const body = await json(response);
    problemShape(body, 404, 'not_found');
    assert.equal(body.instance, '/no/such/route');
  });

  it('a route asked with a method it does not take → 405 with Allow (RFC 9110 §15.5.6), in the protocol of the path; escapes are decoded as routing decodes them', async () => {
    const invoices = await fetch(`${t.publicUrl}/v1/invoices`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(invoices.status, 405);
    assert.equal(invoices.headers.get('allow'), 'GET, HEAD, POST');
    const body = await json(invoices);
    problemShape(body, 405, 'method_not_allowed');
    assert.equal(body.detail, '/v1/invoices does not accept PUT; it accepts GET, HEAD, POST');
    const escaped = await fetch(`${t.publicUrl}/v1/invoice%73`, { method: 'DELETE' });
    assert.equal(escaped.status, 405);
    assert.equal(escaped.headers.get('allow'), 'GET, HEAD, POST');
    const token = await fetch(`${t.publicUrl}/token`);
    assert.equal(token.status, 405);
    // OPTIONS is its CORS preflight (platform/http/cors.ts).
    assert.equal(token.headers.get('allow'), 'OPTIONS, POST');
    assert.equal(token.headers.get('cache-control'), 'no-store');
    const tokenBody = await json(token);
    assert.equal(tokenBody.error, 'invalid_request', 'the token endpoint answers in RFC 6749 §5.2 shape');
    const scim = await fetch(`${t.publicUrl}/scim/v2/Users`, { method: 'DELETE' });
    assert.equal(scim.status, 405);
    assert.equal(scim.headers.get('allow'), 'GET, HEAD, POST');
    const scimBody = await json(scim);
    assert.deepEqual(scimBody.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
    assert.equal(scimBody.status, '405');
    const admin = await fetch(`${t.adminUrl}/admin/v1/accounts`, { method: 'PUT', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(admin.status, 405);
    assert.equal(admin.headers.get('allow'), 'GET, HEAD, POST');
    // A path with no route under any method stays 404.
    assert.equal((await fetch(`${t.publicUrl}/v1/invoices/inv_1/nothing`, { method: 'POST' })).status, 404);
  });

  it('malformed JSON → 400 malformed_json', async () => {
    const r = await post(t, '{"name":', 'application/json');
    assert.equal(r.status, 400);
    assert.match(r.type, /^application\/problem\+json/);
    problemShape(r.body, 400, 'malformed_json');
  });

  it('wrong content type → 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
      const r = await post(t, 'name=x', type);
      assert.equal(r.status, 415, type);
      problemShape(r.body, 415, 'unsupported_media_type');
    }
  });

  it('a body in a content coding → 415 unsupported_content_encoding with Accept-Encoding: identity, in each protocol\'s shape; nothing is stored', async () => {
    const gzipped = gzipSync(JSON.stringify({ name: 'Compressed' }));
    const accountsBefore = await t.gatehouse.database.db.selectFrom('accounts').select('id').execute();
    const admin = await fetch(`${t.adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipped,
    });
    assert.equal(admin.status, 415);
    assert.equal(admin.headers.get('accept-encoding'), 'identity');
    const problemBody = await json(admin);
    problemShape(problemBody, 415, 'unsupported_content_encoding');
    assert.equal(problemBody.detail, 'Content-Encoding gzip is not accepted: send the body without a content coding');
    assert.deepEqual(await t.gatehouse.database.db.selectFrom('accounts').select('id').execute(), accountsBefore);

    // `identity` is no coding at all.
    const plain = await fetch(`${t.adminUrl}/admin/v1/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', 'content-encoding': 'identity' },
      body: JSON.stringify({ name: 'Plain' }),
    });
    assert.equal(plain.status, 201);

    // RFC 6749 §5.2 at /token: invalid_request, never a problem document.
    const token = await fetch(`${t.publicUrl}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: gzipSync('grant_type=client_credentials'),
    });
    assert.equal(token.status, 400);
    assert.deepEqual(await json(token), { error: 'invalid_request', error_description: 'Content-Encoding gzip is not accepted: send the body without a content coding' });

    // RFC 7644 §3.12 at /scim/v2: a SCIM error with the status.
    const accountId = (await json(plain)).id as string;
    const issued = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'IdP' });
    const scim = await fetch(`${t.publicUrl}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued.body.token as string}`, 'content-type': 'application/scim+json', 'content-encoding': 'br' },
      body: gzipped,
    });
    assert.equal(scim.status, 415);
    const scimBody = await json(scim);
    assert.deepEqual(scimBody.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error']);
    assert.equal(scimBody.status, '415');
    assert.equal(await t.gatehouse.database.db.selectFrom('users').select('id').where('account_id', '=', accountId).executeTakeFirst(), undefined);
  });

  it('oversized body → 413 payload_too_large', async () => {
    const r = await post(t, JSON.stringify({ name: 'x'.repeat(5000) }), 'application/json');
    assert.equal(r.status, 413);
    problemShape(r.body, 413, 'payload_too_large');
  });

  it('schema violation → 400 validation_failed naming the field', async () => {
    const r = await post(t, JSON.stringify({ name: 42 }), 'application/json');
    assert.equal(r.status, 400);
    problemShape(r.body, 400, 'validation_failed');
    assert.equal(r.body.detail, 'name must be a string');
    assert.deepEqual(r.body.errors, [{ pointer: '#/name', in: 'body', detail: 'name must be a string' }]);
    const extra = await post(t, JSON.stringify({ name: 'ok', admin: true }), 'application/json');
    assert.equal(extra.status, 400);
    assert.match(extra.body.detail, /admin/);
  });

  it('prototype pollution keys are refused', async () => {
    const r = await post(t, '{"name":"x","__proto__":{"polluted":1}}', 'application/json');
    assert.equal(r.status, 400);
    assert.match(String(r.body.detail), /"__proto__" member/, 'said as what it is, not as broken JSON');
    const broken = await post(t, '{"name":', 'application/json');
    assert.equal(broken.body.detail, 'Body is not valid JSON');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('every response carries a request id and nosniff; a sane client id is echoed', async () => {
    const response = await fetch(`${t.publicUrl}/healthz`, { headers: { 'x-request-id': 'req-abc.123' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-request-id'), 'req-abc.123');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    const other = await fetch(`${t.publicUrl}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(other.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  it('/healthz and /readyz answer on both listeners', async () => {
    for (const base of [t.publicUrl, t.adminUrl]) {
      const health = await fetch(`${base}/healthz`);
      assert.deepEqual([health.status, await json(health)], [200, { status: 'ok' }]);
      const ready = await fetch(`${base}/readyz`);
      assert.deepEqual([ready.status, await json(ready)], [200, { status: 'ready' }]);
    }
  });

  it('/openapi.json is an OpenAPI 3.1 document generated from the routes; /docs renders it; /docs/errors lists the codes', async () => {
    const doc = await json(await fetch(`${t.publicUrl}/openapi.json`));
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/healthz']);
    const adminDoc = await json(await fetch(`${t.adminUrl}/openapi.json`));
    assert.ok(adminDoc.paths['/admin/v1/accounts'].post);
    const page = await fetch(`${t.publicUrl}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<script src="\/docs\/scalar.js"><\/script>/);
    const catalogue = await fetch(`${t.publicUrl}/docs/errors`);
    assert.match(await catalogue.text(), /id="error-not_found"/);
  });

  it('logs are JSON lines with a request id and never the admin token', async () => {
    await t.admin('GET', '/admin/v1/accounts');
    const lines = t.logs.join('').trim().split('\n').map((l) => JSON.parse(l));
    const request = lines.find((l) => l.msg === 'request' && l.route === '/admin/v1/accounts');
    assert.ok(request);
    assert.ok(request.reqId);
    assert.ok(!t.logs.join('').includes(TEST_ADMIN_TOKEN));
  });
});
