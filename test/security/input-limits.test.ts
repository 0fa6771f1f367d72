/**
 * Limits every request's input meets before validation (src/platform/http/input-guard.ts),
 * each answered in the protocol of the route: nesting deeper than 32 levels, and NUL
 * characters, which PostgreSQL text cannot hold. Both were found by fuzzing: a deep body
 * overflowed the recursion of the request fingerprint, and a NUL client_id failed the
 * PostgreSQL query; each answered 500. And lone UTF-16 surrogates (`"\ud800"` in JSON), which
 * no UTF-8 store holds: they were stored as U+FFFD, so the answer to a write and a later read
 * of the same object disagreed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { ERROR, USER, scimClient, type ScimClient } from '../scim/scim-client.ts';
import { MAX_JSON_DEPTH, inspectInput } from '../../src/platform/http/input-guard.ts';
import { firstRepeatedMember } from '../../src/platform/http/json-body.ts';

const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('input guard: depth and NUL', () => {
  it(`accepts exactly ${MAX_JSON_DEPTH} levels, refuses ${MAX_JSON_DEPTH + 1}; finds NUL in values and member names`, () => {
    assert.equal(inspectInput(JSON.parse(nested(MAX_JSON_DEPTH))), undefined);
    assert.equal(inspectInput(JSON.parse(nested(MAX_JSON_DEPTH + 1))), 'too_deep');
    assert.equal(inspectInput(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))), 'too_deep');
    assert.equal(inspectInput({ a: ['x', { b: 'y\u0000' }] }), 'nul');
    assert.equal(inspectInput({ 'k\u0000': 1 }), 'nul');
    assert.equal(inspectInput({ a: 'ok', n: 1e308, b: [true, null] }), undefined);
  });
});

describe('input guard: lone surrogates', () => {
  it('finds an unpaired high or low surrogate in values and member names; a pair is text', () => {
    assert.equal(inspectInput(JSON.parse('"\\ud800"')), 'lone_surrogate');
    assert.equal(inspectInput(JSON.parse('{"a":["x",{"b":"y\\udc00"}]}')), 'lone_surrogate');
    assert.equal(inspectInput(JSON.parse('{"\\udbff":1}')), 'lone_surrogate');
    assert.equal(inspectInput(JSON.parse('{"a":"\\ude00\\ud83d"}')), 'lone_surrogate');
    assert.equal(inspectInput(JSON.parse('{"a":"\\ud83d\\ude00","b":"é"}')), undefined);
  });
});

describe('JSON bodies: a member name given twice (RFC 7493 §2.3)', () => {
  it('is found in any object, nested or in arrays, with its object\'s pointer; escapes are read as JSON reads them', () => {
    assert.deepEqual(firstRepeatedMember('{"amount":1,"amount":2}'), { name: 'amount', pointer: '' });
    assert.deepEqual(firstRepeatedMember('{"a":[{"x":1},{"x":1,"y":{"z":"}","z":2}}]}'), { name: 'z', pointer: '/a/1/y' });
    assert.deepEqual(firstRepeatedMember('{"a/b~":{"k":1,"\\u006b":2}}'), { name: 'k', pointer: '/a~1b~0' });
    assert.deepEqual(firstRepeatedMember('{"a":"\\",","b":"x","a\\"":1}'), undefined);
    assert.equal(firstRepeatedMember('{"a":{"x":1},"b":{"x":1},"s":"{\\"a\\":1,\\"a\\":2}"}'), undefined, 'the same name in two objects, or inside a string, is no repeat');
    assert.equal(firstRepeatedMember('[1,2,{"a":1}]'), undefined);
    assert.equal(firstRepeatedMember('{"amount":1}'), undefined);
  });
});

for (const target of databaseTargets()) {
  describe(`input limits answered in each protocol's shape (${target.kind})`, () => {
    let t: TestApp;
    let token: string;
    let scim: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      token = await mintAccessToken(t, { accountId: await createAccount(t), scopes: ['invoices:write', 'invoices:read', 'payouts:write', 'payouts:read'] });
      scim = await scimClient(t);
    });
    after(() => t.close());

    const v1 = (path: string, body: string, method = 'POST') =>
      fetch(`${t.publicUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: method === 'GET' ? undefined : body });

    it('/v1: a body nested too deep → 400 malformed_json; a NUL in the body, query or path → 400 malformed_request; nothing stored', async () => {
      const deep = await v1('/v1/invoices', `{"amount":1,"currency":"EUR","metadata":${nested(MAX_JSON_DEPTH + 5)}}`);
      assert.equal(deep.status, 400);
      assert.equal(((await deep.json()) as { code: string }).code, 'malformed_json');
      const veryDeep = await v1('/v1/invoices', '['.repeat(50_000) + ']'.repeat(50_000));
      assert.equal(veryDeep.status, 400);
      for (const [path, body, method] of [['/v1/invoices', '{"amount":1,"currency":"EUR","description":"a\\u0000b"}', 'POST'], ['/v1/invoices?limit=1&after=%00', '', 'GET'], ['/v1/invoices/inv_%00', '', 'GET']] as const) {
        const response = await v1(path, body, method);
        assert.equal(response.status, 400, path);
        assert.equal(((await response.json()) as { code: string }).code, 'malformed_request', path);
      }
      const list = await v1('/v1/invoices?limit=100', '', 'GET');
      assert.deepEqual(((await list.json()) as { data: unknown[] }).data, []);
    });

    it('SCIM: too deep → 400 invalidSyntax; NUL in a filter, an id or a body → 400 in the SCIM Error shape', async () => {
      const deep = await scim.call('POST', '/Users', JSON.parse(`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"x","name":${nested(MAX_JSON_DEPTH + 1)}}`));
      assert.equal(deep.status, 400);
      assert.equal(deep.body.scimType, 'invalidSyntax');
      for (const [method, path, body] of [['GET', `/Users?filter=${encodeURIComponent('userName eq "a\u0000"')}`], ['GET', '/Users/%00'], ['POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'nul\u0000@example.com' }]] as const) {
        const response = await scim.call(method, path, body);
        assert.equal(response.status, 400, path);
        assert.deepEqual(response.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error'], path);
      }
      assert.equal((await scim.call('GET', '/Users')).body.totalResults, 0);
    });

    it('/token and /authorize: a NUL client_id → invalid_request, and the error page (never a 500)', async () => {
      const tokenResponse = await fetch(`${t.publicUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=%00&client_secret=x' });
      assert.equal(tokenResponse.status, 400);
      assert.equal(((await tokenResponse.json()) as { error: string }).error, 'invalid_request');
      const page = await fetch(`${t.publicUrl}/authorize?response_type=code&client_id=%00&redirect_uri=https://evil.example/`, { redirect: 'manual' });
      assert.equal(page.status, 400);
      assert.equal(page.headers.get('location'), null);
      assert.match(await page.text(), /This request cannot be completed/);
    });

    it('/v1: a lone surrogate in a JSON string or member name → 400 malformed_request; nothing stored', async () => {
      for (const [path, body] of [
        ['/v1/invoices', '{"amount":100,"currency":"EUR","description":"a\\ud800b"}'],
        ['/v1/invoices', '{"amount":100,"currency":"EUR","description":"trailing \\udfff"}'],
        ['/v1/invoices', '{"amount":100,"currency":"EUR","metadata":{"\\udc00":"x"}}'],
        ['/v1/payouts', '{"amount":1,"currency":"EUR","destination":"\\ud800"}'],
      ] as const) {
        const response = await v1(path, body);
        assert.equal(response.status, 400, body);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, body);
        const problem = (await response.json()) as { code: string; detail: string };
        assert.equal(problem.code, 'malformed_request', body);
        assert.match(problem.detail, /lone UTF-16 surrogate/, body);
      }
      for (const path of ['/v1/invoices?limit=100', '/v1/payouts?limit=100']) {
        assert.deepEqual(((await (await v1(path, '', 'GET')).json()) as { data: unknown[] }).data, [], path);
      }
    });

    it('/v1: a repeated member, a body that is not UTF-8 → 400 malformed_json, a charset other than UTF-8 → 415; nothing stored, and the key is free for the corrected request', async () => {
      const key = randomUUID();
      const send = (body: string | Buffer, contentType = 'application/json') =>
        fetch(`${t.publicUrl}/v1/payouts`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'idempotency-key': key }, body });
      const cases: Array<[string | Buffer, string, number, string, RegExp]> = [
        ['{"amount":1,"amount":2,"currency":"EUR","destination":"acct-1"}', 'application/json', 400, 'malformed_json', /"amount" is given twice/],
        [Buffer.from('{"amount":1,"currency":"EUR","destination":"caf\xe9"}', 'latin1'), 'application/json', 400, 'malformed_json', /not valid UTF-8/],
        [Buffer.from('{"amount":1,"currency":"EUR","destination":"caf\xe9"}', 'latin1'), 'application/json; charset=iso-8859-1', 415, 'unsupported_media_type', /charset=iso-8859-1/],
        ['{"amount":1,"currency":"EUR","destination":"acct-1"}', 'application/json; charset="UTF-16"', 415, 'unsupported_media_type', /charset=utf-16/],
      ];
      for (const [body, contentType, status, code, detail] of cases) {
        const response = await send(body, contentType);
        assert.equal(response.status, status, contentType);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
        const problem = (await response.json()) as { code: string; detail: string };
        assert.equal(problem.code, code);
        assert.match(problem.detail, detail);
      }
      assert.deepEqual(((await (await v1('/v1/payouts?limit=100', '', 'GET')).json()) as { data: unknown[] }).data, []);
      assert.equal((await t.gatehouse.database.db.selectFrom('idempotency_keys').select('idempotency_key').where('idempotency_key', '=', key).execute()).length, 0);
      // The same key, the body as meant, charset=utf-8 named: performed (422: the account holds nothing yet).
      const corrected = await send('{"amount":1,"currency":"EUR","destination":"acct-1"}', 'application/json; charset=UTF-8');
      assert.equal(corrected.status, 422);
      assert.equal(((await corrected.json()) as { code: string }).code, 'insufficient_funds');
    });

    it('SCIM: a repeated member → 400 SCIM Error invalidSyntax; nothing stored', async () => {
      const response = await fetch(`${t.publicUrl}/scim/v2/Users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${scim.token}`, 'content-type': 'application/scim+json' },
        body: `{"schemas":["${USER}"],"userName":"ada@example.com","active":true,"active":false}`,
      });
      assert.equal(response.status, 400);
      const body = (await response.json()) as { schemas: string[]; scimType: string; detail: string };
      assert.deepEqual(body.schemas, [ERROR]);
      assert.equal(body.scimType, 'invalidSyntax');
      assert.match(body.detail, /"active" is given twice/);
      assert.equal((await scim.call('GET', '/Users')).body.totalResults, 0);
    });

    it('/v1: a surrogate pair (an emoji) is text: stored and read back exactly as sent', async () => {
      const created = await v1('/v1/invoices', '{"amount":100,"currency":"EUR","description":"paid \\ud83d\\ude00"}');
      assert.equal(created.status, 201);
      const invoice = (await created.json()) as { id: string; description: string };
      assert.equal(invoice.description, 'paid 😀');
      const read = (await (await v1(`/v1/invoices/${invoice.id}`, '', 'GET')).json()) as { description: string };
      assert.equal(read.description, 'paid 😀');
    });

    it('SCIM: a lone surrogate in an application/scim+json body → 400 SCIM Error invalidSyntax; nothing stored', async () => {
      const response = await scim.call('POST', '/Users', { schemas: [USER], userName: 'ada\ud800@example.com', externalId: 'ext-1' });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body.schemas, [ERROR]);
      assert.equal(response.body.scimType, 'invalidSyntax');
      assert.equal((await scim.call('GET', '/Users')).body.totalResults, 0);
    });

    it('forms cannot carry a lone surrogate: %ED%A0%80 is not UTF-8 and stays literal text, so /token answers an ordinary OAuth error', async () => {
      const response = await fetch(`${t.publicUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&client_id=%ED%A0%80&client_secret=x',
      });
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
    });
  });
}
