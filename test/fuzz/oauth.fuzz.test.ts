/**
 * Fuzzing the authorization server's parsers: the /authorize query, /token, /revoke and
 * /introspect forms, HTTP Basic headers and JWT client assertions. Properties: never a 5xx,
 * the server still answers, every error in its protocol's shape (OAuth JSON with a registered
 * `error`; the /authorize error page, or a redirect only to a registered URI), nothing stored
 * by a refused request. Runs on both databases: client lookups with odd ids (NUL bytes,
 * invalid text) reach the database, where PostgreSQL and SQLite differ.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { databaseTargets } from '../helpers/databases.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { REDIRECT_URI, registerClient } from '../oauth/helpers.ts';
import { JWT_BEARER_ASSERTION } from '../../src/oauth/client-auth.ts';
import {
  assertAlive, assertOAuthError, assertUnchanged, formEncode, formOf, formValue, fuzz, nastyString, rawRequest, stateDigest, type RawResponse,
} from './support.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const QUERY_REDIRECT = 'https://app.example.com/cb?tenant=1';
const AUTHORIZE_NAMES = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'prompt'] as const;
const TOKEN_NAMES = ['grant_type', 'code', 'client_id', 'redirect_uri', 'code_verifier', 'client_secret', 'client_assertion', 'client_assertion_type', 'scope', 'refresh_token'] as const;

for (const target of databaseTargets()) {
  const runs = target.kind === 'sqlite' ? 1 : 0.5;
  describe(`fuzz: OAuth parsers (${target.kind})`, () => {
    let t: TestApp;
    let basicClient: { client_id: string; client_secret: string };
    let postClient: { client_id: string; client_secret: string };
    let publicClient: { client_id: string };
    let jwtClient: { client_id: string };
    let privateKey: PrivateKey;
    let registered: string[];

    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'warn' } });
      const accountId = await createAccount(t);
      registered = [REDIRECT_URI, QUERY_REDIRECT];
      basicClient = await registerClient(t, accountId, { redirect_uris: registered, grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], scope: 'invoices:read ledger:read' });
      postClient = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post', scope: 'invoices:read' });
      publicClient = await registerClient(t, accountId, { redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', scope: 'invoices:read' });
      const pair = await generateKeyPair('ES256', { extractable: true });
      privateKey = pair.privateKey;
      const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
      jwtClient = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, scope: 'invoices:read' });
    });
    after(() => t.close());

    const clientIds = () => fc.constantFrom(basicClient.client_id, postClient.client_id, publicClient.client_id, jwtClient.client_id);

    /** The /authorize answer is a page or a redirect to a registered URI, never anything else. */
    function checkAuthorizeAnswer(response: RawResponse, context: string) {
      if (response.status === 302 || response.status === 303) {
        const location = response.headers.location ?? '';
        const base = registered.find((uri) => location.startsWith(uri) && ['?', '&'].includes(location[uri.length]!));
        assert.ok(base, `${context}: redirect to an unregistered URI: ${location}`);
        return;
      }
      assert.ok([200, 400].includes(response.status), `${context}: status ${response.status}`);
      assert.match(response.headers['content-type'] ?? '', /^text\/html/, `${context}: not a page`);
      assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.match(response.headers['content-security-policy'] ?? '', /frame-ancestors 'none'/);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.ok(!/<script/i.test(response.text), `${context}: a script reached the page`);
    }

    it('GET /authorize: any query → the sign-in page, the error page, or a redirect only to a registered URI; nothing stored', async () => {
      const fixedish = fc.record({
        client_id: fc.oneof(clientIds(), nastyString),
        redirect_uri: fc.oneof(fc.constantFrom(...registered, REDIRECT_URI.toUpperCase(), `${REDIRECT_URI}/`, `${REDIRECT_URI}x`, 'http://evil.example/cb', `http://127.0.0.1:9@evil.example/callback`, `${REDIRECT_URI}#frag`, encodeURI(REDIRECT_URI).replace('/callback', '/%63allback')), nastyString),
        response_type: fc.constantFrom('code', 'token', 'code token', '', 'CODE'),
        scope: fc.oneof(fc.constantFrom('invoices:read', 'invoices:read ledger:read', 'scim', ''), nastyString),
      });
      const query = fc.tuple(fixedish, formOf(AUTHORIZE_NAMES)).chain(([fixed, extra]) => formOf([], fixed).map((q) => [q, extra].filter(Boolean).join('&')));
      const before = await stateDigest(t.gatehouse.database.db);
      await fuzz(query, 100 * runs, async (q) => {
        const response = await rawRequest(t.publicUrl, { method: 'GET', target: `/authorize?${q}` });
        await assertAlive(t, response, `GET /authorize?${q}`);
        checkAuthorizeAnswer(response, `GET /authorize?${q}`);
      });
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db), 'GET /authorize');
    });

    it('POST /authorize/login and /consent: any form, no session or CSRF → a page or a registered redirect; nothing granted', async () => {
      const form = fc.tuple(formOf([...AUTHORIZE_NAMES, 'csrf_token', 'username', 'password', 'decision'], { client_id: basicClient.client_id, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'invoices:read', state: 's' }), fc.constantFrom('/authorize/login', '/authorize/consent'), fc.option(formValue));
      const before = await stateDigest(t.gatehouse.database.db);
      await fuzz(form, 60 * runs, async ([body, path, cookie]) => {
        const headers: Array<[string, string]> = [['content-type', 'application/x-www-form-urlencoded']];
        if (cookie !== null) headers.push(['cookie', `gh_csrf=${cookie}; gh_session=${cookie}`]);
        const response = await rawRequest(t.publicUrl, { method: 'POST', target: path, headers, body });
        await assertAlive(t, response, `POST ${path} ${body}`);
        if (response.status === 403 || response.status === 401 || response.status === 429) {
          assert.match(response.headers['content-type'] ?? '', /^text\/html/);
          return;
        }
        checkAuthorizeAnswer(response, `POST ${path} ${body}`);
        if (response.status === 302 || response.status === 303) assert.doesNotMatch(response.headers.location!, /[?&]code=/, 'a code was issued without a session');
      });
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db), 'POST /authorize/*');
    });

    const basicHeader = () => fc.oneof(
      // Malformed base64, missing colon, percent-encoding that does not decode, odd schemes.
      fc.tuple(fc.constantFrom('Basic ', 'basic ', 'BASIC  ', 'Basic', 'Bearer ', 'Digest '), fc.string({ maxLength: 80 })).map(([s, v]) => s + v.replace(/[\r\n\0]/g, '')),
      fc.tuple(nastyString, nastyString).map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`),
      nastyString.map((s) => `Basic ${Buffer.from(s.replace(/:/g, '')).toString('base64')}`),
      fc.tuple(clientIds(), fc.constantFrom('%', '%zz', '%E0%A4', '%C0%80', '')).map(([id, bad]) => `Basic ${Buffer.from(`${id}:${bad}`).toString('base64')}`),
      fc.tuple(clientIds(), nastyString).map(([id, secret]) => `Basic ${Buffer.from(`${formEncode(id)}:${formEncode(secret)}`).toString('base64')}`),
      clientIds().map((id) => `Basic ${Buffer.from(`${id}:${basicClient.client_secret.slice(0, -1)}x`).toString('base64')}`),
      fc.constantFrom('Basic ====', 'Basic a', 'Basic YQ', 'Basic Og==', 'Basic ' + 'A'.repeat(6000), 'Basic \u00ff\u00fe'),
    );

    it('POST /token, /revoke, /introspect: any form and Basic header → an OAuth error with a registered code; nothing stored', async () => {
      const request = fc.record({
        path: fc.constantFrom('/token', '/token', '/revoke', '/introspect'),
        body: formOf([...TOKEN_NAMES, 'token', 'token_type_hint'], { grant_type: 'client_credentials', client_id: postClient.client_id }),
        authorization: fc.option(basicHeader(), { freq: 2 }),
        contentType: fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8', 'application/json', 'text/plain', 'multipart/form-data; boundary=x', ''),
      });
      const before = await stateDigest(t.gatehouse.database.db);
      await fuzz(request, 120 * runs, async ({ path, body, authorization, contentType }) => {
        const headers: Array<[string, string]> = [];
        if (contentType) headers.push(['content-type', contentType]);
        if (authorization !== null) headers.push(['authorization', authorization]);
        const response = await rawRequest(t.publicUrl, { method: 'POST', target: path, headers, body });
        const context = `POST ${path} [${authorization}] ${body}`;
        await assertAlive(t, response, context);
        if (response.status === 200) {
          // Only a real client authentication gets this far; it never happens with fuzzed secrets.
          assert.ok(path !== '/token', `${context}: a token was issued`);
          return;
        }
        assertOAuthError(response, context);
      });
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db), '/token');
    });

    it('private_key_jwt: garbage, alg none, HS256 with the public key, foreign keys, bad signatures, huge or expired assertions → invalid_client; no jti stored', async () => {
      const now = () => Math.floor(t.clock.now() / 1000);
      const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      const claims = () => ({ iss: jwtClient.client_id, sub: jwtClient.client_id, aud: t.config.issuer, exp: now() + 60, iat: now(), jti: `j${Math.random()}` });
      const foreign = await generateKeyPair('ES256');
      const rsa = await generateKeyPair('RS256');
      const kinds = fc.oneof(
        nastyString,
        fc.tuple(nastyString, nastyString, nastyString).map((p) => p.map((s) => Buffer.from(s).toString('base64url')).join('.')),
        fc.constant('none').map(() => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`),
        fc.constantFrom('HS256', 'HS512').map((alg) => ({ alg })),
        fc.constantFrom('foreign', 'rsa', 'flipped', 'truncated', 'wrong-aud', 'expired', 'too-long', 'no-jti', 'wrong-iss', 'huge', 'kid-injection'),
        fc.tuple(nastyJsonClaims(), fc.constant(0)).map(([c]) => ({ claims: c })),
      );
      const before = await stateDigest(t.gatehouse.database.db);
      await fuzz(fc.tuple(kinds, fc.option(clientIds())), 60 * runs, async ([kind, bodyClientId]) => {
        const assertion = await buildAssertion(kind);
        const form: Record<string, string> = { grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: assertion };
        if (bodyClientId !== null) form.client_id = bodyClientId;
        const body = Object.entries(form).map(([k, v]) => `${k}=${formEncode(v)}`).join('&');
        const response = await rawRequest(t.publicUrl, { method: 'POST', target: '/token', headers: [['content-type', 'application/x-www-form-urlencoded']], body });
        const context = `assertion ${JSON.stringify(kind).slice(0, 200)}`;
        await assertAlive(t, response, context);
        const error = assertOAuthError(response, context);
        assert.ok(['invalid_client', 'invalid_request'].includes(String(error.error)), `${context}: ${String(error.error)}`);
      });
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db), 'private_key_jwt');

      async function buildAssertion(kind: unknown): Promise<string> {
        if (typeof kind === 'string' && !['foreign', 'rsa', 'flipped', 'truncated', 'wrong-aud', 'expired', 'too-long', 'no-jti', 'wrong-iss', 'huge', 'kid-injection'].includes(kind)) return kind;
        if (typeof kind === 'object' && kind !== null && 'alg' in kind) {
          // Alg confusion: an HMAC keyed with the registered public key's JSON.
          const alg = (kind as { alg: string }).alg;
          return new SignJWT(claims()).setProtectedHeader({ alg }).sign(new TextEncoder().encode(JSON.stringify(await exportJWK(privateKey))));
        }
        if (typeof kind === 'object' && kind !== null && 'claims' in kind) {
          return new SignJWT((kind as { claims: Record<string, unknown> }).claims).setProtectedHeader({ alg: 'ES256' }).sign(privateKey);
        }
        const sign = (c: Record<string, unknown>, key: PrivateKey = privateKey, header: Record<string, unknown> = { alg: 'ES256' }) =>
          new SignJWT(c).setProtectedHeader(header as { alg: string }).sign(key);
        switch (kind) {
          case 'foreign': return sign(claims(), foreign.privateKey);
          case 'rsa': return sign(claims(), rsa.privateKey, { alg: 'RS256' });
          case 'flipped': {
            const jwt = await sign(claims());
            const [h, p, s] = jwt.split('.') as [string, string, string];
            const bytes = Buffer.from(s, 'base64url');
            bytes[5] = bytes[5]! ^ 0xff;
            return `${h}.${p}.${bytes.toString('base64url')}`;
          }
          case 'truncated': return (await sign(claims())).slice(0, -10);
          case 'wrong-aud': return sign({ ...claims(), aud: 'https://elsewhere.example' });
          case 'expired': return sign({ ...claims(), exp: now() - 3600 });
          case 'too-long': return sign({ ...claims(), exp: now() + 86_400 });
          case 'no-jti': { const { jti: _j, ...rest } = claims(); return sign(rest); }
          case 'wrong-iss': return sign({ ...claims(), iss: basicClient.client_id });
          case 'huge': return sign({ ...claims(), pad: 'x'.repeat(70_000) });
          default: return sign(claims(), privateKey, { alg: 'ES256', kid: "../../k1' or '1'='1", jku: 'http://evil.example/jwks' });
        }
      }
    });

    function nastyJsonClaims(): fc.Arbitrary<Record<string, unknown>> {
      return fc.record(
        { iss: fc.oneof(fc.constant(jwtClient.client_id), fc.jsonValue()), sub: fc.oneof(fc.constant(jwtClient.client_id), fc.jsonValue()), aud: fc.oneof(fc.constant(t.config.issuer), fc.jsonValue()), exp: fc.oneof(fc.constant(Math.floor(t.clock.now() / 1000) + 60), fc.jsonValue()), jti: fc.jsonValue() },
        { requiredKeys: [] },
      ).filter((c) => c.iss !== jwtClient.client_id || c.sub !== jwtClient.client_id || c.aud !== t.config.issuer || typeof c.exp !== 'number' || typeof c.jti !== 'string');
    }
  });
}
