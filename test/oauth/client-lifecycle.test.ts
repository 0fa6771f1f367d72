/**
 * Clients updated in place (PATCH), a private_key_jwt client's keys from its jwks_uri (rotated
 * without a new client_id, fetched through the outbound guard), and "PKCE required".
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { createTestClock } from '../../src/platform/clock.ts';
import { Browser, authorizePath, basic, postForm, redirectParams, registerClient } from './helpers.ts';

const ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

async function keyPair(kid: string) {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } as JWK };
}

for (const target of databaseTargets()) {
  describe(`Client lifecycle (${target.kind})`, () => {
    const clock = createTestClock(Date.now());
    let t: TestApp;
    let accountId: string;
    let served: JWK[] = [];
    let fetches = 0;
    let jwksServer: http.Server;
    let jwksUri: string;
    before(async () => {
      t = await startTestApp(target, { clock, env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
      accountId = await createAccount(t);
      jwksServer = http.createServer((_request, response) => {
        fetches++;
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
      });
      await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
      jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
    });
    after(async () => {
      await new Promise<void>((resolve) => jwksServer?.close(() => resolve()));
      await t?.close();
    });

    async function assertion(clientId: string, key: Awaited<ReturnType<typeof keyPair>>) {
      return new SignJWT({ jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: key.kid })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(t.config.issuer)
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .setExpirationTime(Math.floor(clock.now() / 1000) + 60)
        .sign(key.privateKey);
    }

    it('PATCH replaces the fields given, re-checks the whole registration, and answers 400 in RFC 7591 terms', async () => {
      const reg = await registerClient(t, accountId, { client_name: 'Before', redirect_uris: ['https://app.example/cb'], scope: 'invoices:read' });
      const path = `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`;
      const patched = await t.admin('PATCH', path, {
        client_name: 'After',
        redirect_uris: ['https://app.example/cb2'],
        post_logout_redirect_uris: ['https://app.example/bye'],
        scope: 'openid invoices:read ledger:read',
        grant_types: ['authorization_code', 'refresh_token'],
        require_pkce: true,
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.client_name, 'After');
      assert.deepEqual(patched.body.redirect_uris, ['https://app.example/cb2']);
      assert.deepEqual(patched.body.post_logout_redirect_uris, ['https://app.example/bye']);
      assert.equal(patched.body.scope, 'invoices:read ledger:read openid');
      assert.equal(patched.body.require_pkce, true);
      assert.equal(patched.body.client_secret, undefined, 'the secret stays and is not shown');
      const stored = await t.gatehouse.database.db.selectFrom('oauth_clients').selectAll().where('id', '=', reg.client_id as string).executeTakeFirstOrThrow();
      assert.equal(stored.client_name, 'After');
      assert.equal(stored.require_pkce, 1);

      const bad = await t.admin('PATCH', path, { redirect_uris: ['http://evil.example/cb'] });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'invalid_redirect_uri');
      // Metadata that could never work is refused when registered, not at the first token request.
      const unusable = [
        [{ grant_types: [] }, /grant_types must name at least one grant type/],
        [{ token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'bad', y: 'bad', kid: 'k1' }] } }, /jwks: key "k1" is not a usable public key/],
      ] as const;
      for (const [patch, why] of unusable) {
        const refused = await t.admin('PATCH', path, patch);
        assert.equal(refused.status, 400, JSON.stringify(patch));
        assert.equal(refused.body.code, 'invalid_client_metadata');
        assert.match(refused.body.detail, why);
      }
      const missing = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/client_nope`, { client_name: 'x' });
      assert.equal(missing.status, 404);

      // "PKCE required": an authorization request without a challenge is refused at the redirect.
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: reg.client_id as string, redirect_uri: 'https://app.example/cb2', scope: 'invoices:read', state: 'z' }));
      assert.equal(redirectParams(page).get('error'), 'invalid_request');
      assert.match(redirectParams(page).get('error_description')!, /PKCE is required/);
    });

    it('PATCH {} → 400 naming nothing to change; a PATCH that changes nothing → 200 with no client.updated record; a change is recorded once', async () => {
      const reg = await registerClient(t, accountId, { client_name: 'Steady', redirect_uris: ['https://app.example/cb'], scope: 'invoices:read ledger:read' });
      const path = `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`;
      const db = t.gatehouse.database.db;
      const stored = () => db.selectFrom('oauth_clients').selectAll().where('id', '=', reg.client_id as string).executeTakeFirstOrThrow();
      const updates = async () =>
        (await db.selectFrom('audit_events').select('changes').where('target_id', '=', reg.client_id as string).where('action', '=', 'client.updated').execute()).map((r) => JSON.parse(r.changes ?? 'null'));
      const registered = await stored();

      const empty = await t.admin('PATCH', path, {});
      assert.equal(empty.status, 400);
      assert.equal(empty.body.code, 'validation_failed');
      assert.deepEqual(empty.body.errors, [{ pointer: '#', in: 'body', detail: 'The body must name at least one member' }]);

      // The registration as it stands, sent back (a configuration tool applying its desired state), scopes in another order.
      const same = await t.admin('PATCH', path, { client_name: 'Steady', redirect_uris: ['https://app.example/cb'], scope: 'ledger:read invoices:read', grant_types: ['authorization_code'] });
      assert.equal(same.status, 200, JSON.stringify(same.body));
      assert.equal(same.body.client_name, 'Steady');
      assert.equal(same.body.client_secret, undefined);
      assert.deepEqual(await stored(), registered);
      assert.deepEqual(await updates(), [], 'what changes nothing records nothing');

      const renamed = await t.admin('PATCH', path, { client_name: 'Renamed' });
      assert.equal(renamed.status, 200);
      assert.equal((await stored()).client_name, 'Renamed');
      assert.deepEqual(await updates(), [{ client_name: { before: 'Steady', after: 'Renamed' } }]);
    });

    it('narrowing a client narrows the client-credentials tokens it already holds, at their next use; taking client_credentials away ends them', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read ledger:read' });
      const auth = { authorization: basic(reg.client_id, reg.client_secret) };
      const token = (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read ledger:read' }, auth)).body.access_token as string;
      const introspect = async () => (await postForm(`${t.publicUrl}/introspect`, { token }, auth)).body;
      const get = (path: string) => fetch(`${t.publicUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal((await get('/v1/invoices')).status, 200);

      assert.equal((await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`, { scope: 'ledger:read' })).status, 200);
      assert.equal((await introspect()).scope, 'ledger:read');
      assert.equal((await get('/v1/invoices')).status, 403, 'the scope the operator removed is gone from the token');
      assert.equal((await get('/v1/ledger/entries')).status, 200);

      const recast = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`, { grant_types: ['authorization_code'], response_types: ['code'], redirect_uris: ['https://app.example/cb'] });
      assert.equal(recast.status, 200, JSON.stringify(recast.body));
      assert.equal((await get('/v1/ledger/entries')).status, 401);
      assert.equal((await introspect()).active, false);
    });

    it('PATCH to client_secret_basic generates a secret, shown once, that authenticates', async () => {
      const key = await keyPair('k0');
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [key.jwk] }, scope: 'invoices:read' });
      const changed = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`, { token_endpoint_auth_method: 'client_secret_basic' });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.jwks, undefined);
      const secret = changed.body.client_secret as string;
      assert.match(secret, /^gh_cs_/);
      const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id as string, secret) });
      assert.equal(token.status, 200);
    });

    it('private_key_jwt with jwks_uri: the keys are fetched, cached, and refetched for an unknown kid, so rotation needs no new client_id', async () => {
      const first = await keyPair('k1');
      served = [first.jwk];
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks_uri: jwksUri, scope: 'invoices:read' });
      assert.equal(reg.jwks_uri, jwksUri);
      const clientId = reg.client_id as string;
      const ask = async (key: Awaited<ReturnType<typeof keyPair>>) =>
        postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_assertion_type: ASSERTION, client_assertion: await assertion(clientId, key) });
      const before = fetches;
      assert.equal((await ask(first)).status, 200);
      assert.equal((await ask(first)).status, 200);
      assert.equal(fetches, before + 1, 'cached');
      const second = await keyPair('k2');
      served = [second.jwk];
      // An unknown kid refetches, but not more often than every 10 s per URI.
      assert.equal((await ask(second)).status, 401);
      assert.equal(fetches, before + 1);
      clock.advance(11_000);
      const rotated = await ask(second);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.equal(fetches, before + 2, 'refetched for the unknown kid');
      const stranger = await keyPair('k3');
      assert.equal((await ask(stranger)).status, 401);
      assert.equal(fetches, before + 2, 'a stranger kid right after a fetch fetches nothing');
    });

    it('jwks_uri goes through the outbound guard: an address outside the allowed networks is refused at registration', async () => {
      const refused = await t.admin('POST', `/admin/v1/accounts/${accountId}/clients`, {
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks_uri: 'https://10.0.0.8/jwks.json',
        scope: 'invoices:read',
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'invalid_client_metadata');
      assert.match(refused.body.detail as string, /jwks_uri/);
    });
  });
}
