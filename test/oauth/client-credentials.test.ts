import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as oauth from 'oauth4webapi';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { basic, countRows, postForm, registerClient } from './helpers.ts';

for (const target of databaseTargets()) {
  describe(`OAuth client credentials (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let as: oauth.AuthorizationServer;
    const options = { [oauth.allowInsecureRequests]: true };

    before(async () => {
      t = await startTestApp(target);
      accountId = await createAccount(t);
      const issuer = new URL(t.config.issuer);
      as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }));
    });
    after(() => t.close());

    it('RFC 8414: metadata names the issuer the client reached and every endpoint', async () => {
      assert.equal(as.issuer, t.publicUrl);
      assert.equal(as.token_endpoint, `${t.publicUrl}/token`);
      assert.equal(as.authorization_endpoint, `${t.publicUrl}/authorize`);
      assert.deepEqual(as.code_challenge_methods_supported, ['S256']);
      assert.equal(as.authorization_response_iss_parameter_supported, true);
      const jwks = await json(await fetch(as.jwks_uri!));
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0].kty, 'EC');
      assert.equal(jwks.keys[0].d, undefined);
    });

    it('client_secret_basic: oauth4webapi gets a token the API accepts; no refresh token; Cache-Control no-store', async () => {
      const reg = await registerClient(t, accountId, { client_name: 'Back end', grant_types: ['client_credentials'], scope: 'invoices:read ledger:read' });
      assert.match(reg.client_secret, /^gh_cs_/);
      const client: oauth.Client = { client_id: reg.client_id };
      const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretBasic(reg.client_secret), { scope: 'invoices:read' }, options);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const result = await oauth.processClientCredentialsResponse(as, client, response);
      assert.equal(result.token_type, 'bearer');
      assert.equal(result.scope, 'invoices:read');
      assert.equal(result.expires_in, 3600);
      assert.equal(result.refresh_token, undefined);
      const principal = await t.gatehouse.services.accessTokens.verify(result.access_token);
      assert.equal(principal?.accountId, accountId);
      assert.equal(principal?.clientId, reg.client_id);
      assert.equal(principal?.userId, null);
      assert.deepEqual([...principal!.scopes], ['invoices:read']);
    });

    it('client_secret_post: the registered scope is granted when none is asked for', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post', scope: 'payouts:read payouts:write' });
      const client: oauth.Client = { client_id: reg.client_id };
      const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.ClientSecretPost(reg.client_secret), {}, options);
      const result = await oauth.processClientCredentialsResponse(as, client, response);
      assert.equal(result.scope, 'payouts:read payouts:write');
    });

    it('private_key_jwt (RFC 7523): oauth4webapi signs the assertion; a replayed jti is refused', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, scope: 'events:read' });
      assert.equal(reg.client_secret, undefined);
      const client: oauth.Client = { client_id: reg.client_id };
      // oauth4webapi dates its assertion by the real clock; the server judges it by the test clock.
      t.clock.set(Date.now());
      const response = await oauth.clientCredentialsGrantRequest(as, client, oauth.PrivateKeyJwt({ key: privateKey, kid: 'k1' }), { scope: 'events:read' }, options);
      const result = await oauth.processClientCredentialsResponse(as, client, response);
      assert.equal(result.scope, 'events:read');

      const now = Math.floor(t.clock.now() / 1000);
      const assertion = await new SignJWT({ jti: 'once' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(reg.client_id).setSubject(reg.client_id).setAudience(t.publicUrl).setIssuedAt(now).setExpirationTime(now + 60)
        .sign(privateKey);
      const form = { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion };
      assert.equal((await postForm(`${t.publicUrl}/token`, form)).status, 200);
      const before = await countRows(t, 'access_tokens');
      const replay = await postForm(`${t.publicUrl}/token`, form);
      assert.equal(replay.status, 401);
      assert.equal(replay.body.error, 'invalid_client');
      assert.equal(await countRows(t, 'access_tokens'), before);

      const wrongAudience = await new SignJWT({ jti: 'aud' })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(reg.client_id).setSubject(reg.client_id).setAudience('https://elsewhere.example').setExpirationTime(now + 60)
        .sign(privateKey);
      const refused = await postForm(`${t.publicUrl}/token`, { ...form, client_assertion: wrongAudience });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error, 'invalid_client');

      // RFC 7523bis: an assertion addressed to this server and another could be replayed at either.
      const audienceList = (jti: string, aud: string[]) =>
        new SignJWT({ jti }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(reg.client_id).setSubject(reg.client_id).setAudience(aud).setExpirationTime(now + 60).sign(privateKey);
      const injected = await postForm(`${t.publicUrl}/token`, { ...form, client_assertion: await audienceList('two', [t.publicUrl, 'https://elsewhere.example']) });
      assert.equal(injected.status, 401);
      assert.deepEqual(injected.body, { error: 'invalid_client', error_description: 'client_assertion aud must name this server alone (the issuer or the token endpoint)' });
      assert.equal(await countRows(t, 'access_tokens'), before);
      const alone = await postForm(`${t.publicUrl}/token`, { ...form, client_assertion: await audienceList('one', [`${t.publicUrl}/token`]) });
      assert.equal(alone.status, 200, 'a list naming the token endpoint alone');
    });

    it('RFC 7523 §3: a jti is remembered until exp plus the clock tolerance, so a captured assertion is refused while it would still pass; an iat in the future beyond the tolerance → invalid_client', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, scope: 'events:read' });
      const db = t.gatehouse.database.db;
      const { sweepExpiredOAuthState } = await import('../../src/oauth/sweeper.ts');
      const sign = (jti: string, iat: number, exp: number) =>
        new SignJWT({ jti })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer(reg.client_id).setSubject(reg.client_id).setAudience(t.publicUrl).setIssuedAt(iat).setExpirationTime(exp)
          .sign(privateKey);
      const present = (assertion: string) =>
        postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
      const storedJtis = async () => (await db.selectFrom('oauth_assertion_jtis').select(['jti', 'expires_at']).where('client_id', '=', reg.client_id).orderBy('jti').execute()).map((r) => [r.jti, Number(r.expires_at)]);

      const start = Math.floor(Date.now() / 1000);
      t.clock.set(start * 1000);
      const exp = start + 30;
      const captured = await sign('captured', start, exp);
      assert.equal((await present(captured)).status, 200);
      assert.deepEqual(await storedJtis(), [['captured', (exp + 5) * 1000]]);

      // Past exp but inside the tolerance the signature still verifies: the jti must still be known.
      t.clock.set(exp * 1000 + 3000);
      await sweepExpiredOAuthState({ db, keys: t.gatehouse.services.oauth.keys }, t.clock.now());
      const replay = await present(captured);
      assert.equal(replay.status, 401);
      assert.equal(replay.body.error, 'invalid_client');
      assert.match(replay.body.error_description, /already used/);
      assert.equal(replay.body.access_token, undefined);
      assert.deepEqual(await storedJtis(), [['captured', (exp + 5) * 1000]]);

      // Once the tolerance has passed too, the row may go: the assertion itself has expired.
      t.clock.set((exp + 5) * 1000 + 1);
      await sweepExpiredOAuthState({ db, keys: t.gatehouse.services.oauth.keys }, t.clock.now());
      assert.deepEqual(await storedJtis(), []);
      const expired = await present(captured);
      assert.equal(expired.status, 401);
      assert.equal(expired.body.error, 'invalid_client');

      const now = Math.floor(t.clock.now() / 1000);
      const future = await present(await sign('future', now + 6, now + 60));
      assert.equal(future.status, 401);
      assert.equal(future.body.error, 'invalid_client');
      assert.match(future.body.error_description, /iat/);
      assert.deepEqual(await storedJtis(), [], 'a refused assertion spends no jti');
      const skewed = await present(await sign('skewed', now + 5, now + 60));
      assert.equal(skewed.status, 200, 'an iat within the tolerance is accepted');
      assert.deepEqual(await storedJtis(), [['skewed', (now + 65) * 1000]]);
    });

    it('RFC 7523 §3: a jti longer than the server remembers is invalid_client, not a failed write; nothing is issued or stored', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, scope: 'events:read' });
      const db = t.gatehouse.database.db;
      const now = Math.floor(t.clock.now() / 1000);
      const sign = (jti: string) =>
        new SignJWT({ jti })
          .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
          .setIssuer(reg.client_id).setSubject(reg.client_id).setAudience(t.publicUrl).setIssuedAt(now).setExpirationTime(now + 60)
          .sign(privateKey);
      const present = async (jti: string) =>
        postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: await sign(jti) });
      const before = await countRows(t, 'access_tokens');
      // Random text does not compress, so a PostgreSQL index row would exceed its 2704 bytes.
      const long = await present(randomBytes(3000).toString('base64url'));
      assert.equal(long.status, 401, JSON.stringify(long.body));
      assert.equal(long.body.error, 'invalid_client');
      assert.match(long.body.error_description, /jti/);
      assert.equal(long.headers.get('cache-control'), 'no-store');
      assert.equal(await countRows(t, 'access_tokens'), before);
      assert.deepEqual(await db.selectFrom('oauth_assertion_jtis').select('jti').where('client_id', '=', reg.client_id).execute(), []);
      const longest = 'j'.repeat(256);
      assert.equal((await present(longest)).status, 200, 'a jti of 256 characters is accepted');
      assert.deepEqual((await db.selectFrom('oauth_assertion_jtis').select('jti').where('client_id', '=', reg.client_id).execute()).map((r) => r.jti), [longest]);
    });

    it('RFC 6749 §5.2: wrong Basic secret → 401 invalid_client with WWW-Authenticate: Basic, nothing issued', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const before = await countRows(t, 'access_tokens');
      const response = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id, 'gh_cs_wrong') });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm="gatehouse"/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.body.error, 'invalid_client');
      assert.equal(typeof response.body.error_description, 'string');
      assert.equal(await countRows(t, 'access_tokens'), before);
    });

    it('RFC 6749 §5.2: each error of the client credentials grant, nothing issued', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const codeOnly = await registerClient(t, accountId, { redirect_uris: ['https://app.example/cb'], scope: 'invoices:read' });
      const auth = { authorization: basic(reg.client_id, reg.client_secret) };
      const cases: Array<[string, Record<string, string>, Record<string, string>, number, string]> = [
        ['scope beyond the registration', { grant_type: 'client_credentials', scope: 'payouts:write' }, auth, 400, 'invalid_scope'],
        ['unknown grant type', { grant_type: 'password' }, auth, 400, 'unsupported_grant_type'],
        ['an unknown grant type of any characters', { grant_type: 'pä"ss\\x\n<b>' }, auth, 400, 'unsupported_grant_type'],
        ['missing grant_type', {}, auth, 400, 'invalid_request'],
        ['client not registered for the grant', { grant_type: 'client_credentials' }, { authorization: basic(codeOnly.client_id, codeOnly.client_secret) }, 400, 'unauthorized_client'],
        ['two authentication methods', { grant_type: 'client_credentials', client_id: reg.client_id, client_secret: reg.client_secret }, auth, 400, 'invalid_request'],
        ['secret of a basic client sent in the body', { grant_type: 'client_credentials', client_id: reg.client_id, client_secret: reg.client_secret }, {}, 401, 'invalid_client'],
        ['unknown client', { grant_type: 'client_credentials', client_id: 'client_nope', client_secret: 'x' }, {}, 401, 'invalid_client'],
        ['no client authentication', { grant_type: 'client_credentials' }, {}, 401, 'invalid_client'],
      ];
      const before = await countRows(t, 'access_tokens');
      for (const [name, form, headers, status, error] of cases) {
        const response = await postForm(`${t.publicUrl}/token`, form, headers);
        assert.equal(response.status, status, name);
        assert.equal(response.body.error, error, name);
        assert.equal(response.headers.get('cache-control'), 'no-store', name);
        assert.equal(response.body.access_token, undefined, name);
        // RFC 6749 §5.2: error_description holds only %x20-21 / %x23-5B / %x5D-7E.
        assert.match(response.body.error_description, /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/, `${name}: ${response.body.error_description}`);
        // Every 401 names a scheme (RFC 9110 §15.5.2), whichever method the client tried.
        if (status === 401) assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm="gatehouse"/, name);
      }
      const asJson = await fetch(`${t.publicUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: '{"grant_type":"client_credentials"}' });
      assert.equal(asJson.status, 400);
      assert.equal((await json(asJson)).error, 'invalid_request');
      assert.equal(await countRows(t, 'access_tokens'), before);
    });

    it('revocation (RFC 7009) takes effect on the next request; introspection (RFC 7662) reports it; other accounts see nothing', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const client: oauth.Client = { client_id: reg.client_id };
      const auth = oauth.ClientSecretBasic(reg.client_secret);
      const token = (await oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, auth, {}, options))).access_token;

      const active = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, token, options));
      assert.equal(active.active, true);
      assert.equal(active.client_id, reg.client_id);
      assert.equal(active.scope, 'invoices:read');
      assert.equal(active.iss, t.publicUrl);

      const otherAccount = await createAccount(t, 'Other');
      const foreign = await registerClient(t, otherAccount, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const seen = await oauth.processIntrospectionResponse(as, { client_id: foreign.client_id }, await oauth.introspectionRequest(as, { client_id: foreign.client_id }, oauth.ClientSecretBasic(foreign.client_secret), token, options));
      assert.deepEqual(seen, { active: false });
      // A foreign client cannot revoke it either (200, nothing happens).
      await oauth.processRevocationResponse(await oauth.revocationRequest(as, { client_id: foreign.client_id }, oauth.ClientSecretBasic(foreign.client_secret), token, options));
      assert.ok(await t.gatehouse.services.accessTokens.verify(token));

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, token, options));
      assert.equal(await t.gatehouse.services.accessTokens.verify(token), undefined);
      const after = await oauth.processIntrospectionResponse(as, client, await oauth.introspectionRequest(as, client, auth, token, options));
      assert.deepEqual(after, { active: false });
    });

    it('deleting a client revokes its tokens at once; rotating the secret retires the old one', async () => {
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const issue = (secret: string) => postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(reg.client_id, secret) });
      const first = await issue(reg.client_secret);
      assert.equal(first.status, 200);
      const rotated = await t.admin('POST', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}/secret`);
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.client_secret, reg.client_secret);
      assert.equal((await issue(reg.client_secret)).status, 401);
      assert.equal((await issue(rotated.body.client_secret)).status, 200);
      const deleted = await t.admin('DELETE', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`);
      assert.equal(deleted.status, 204);
      assert.equal(await t.gatehouse.services.accessTokens.verify(first.body.access_token), undefined);
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`)).status, 404);
    });

    it('cross-account: a client of account B is 404 under account A', async () => {
      const other = await createAccount(t, 'B');
      const reg = await registerClient(t, other, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const response = await t.admin('GET', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`);
      assert.equal(response.status, 404);
      assert.equal(response.body.code, 'client_not_found');
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/clients/${reg.client_id}`)).status, 404);
    });
  });
}
