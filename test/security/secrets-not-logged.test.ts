/**
 * Secrets never reach a log line. A full run at the most verbose level (trace) issues every kind
 * of secret the service has, uses each one, and sends some of them where they do not belong
 * (wrong endpoints, malformed requests, failures); then no captured line may contain any of
 * them, raw, percent-encoded or inside a Basic header.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { databaseTargets } from '../helpers/databases.ts';
import { TEST_ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { basic, postForm, registerClient } from '../oauth/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { createTenant } from './flows.ts';
import { codeFlow } from './flows.ts';

for (const target of databaseTargets()) {
  describe(`security: secrets are never logged (${target.kind})`, () => {
    let t: TestApp;
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'trace', GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
    });
    after(async () => {
      await t.close();
      await receiver.close();
    });

    it('a full run (code flow, refresh, client credentials, private_key_jwt, SCIM, webhooks, rotations, failures) logs none of its secrets', async () => {
      const secrets = new Map<string, string>([['admin token', TEST_ADMIN_TOKEN]]);
      const tenant = await createTenant(t, 'Logged', receiver.url);
      receiver.secrets.push(tenant.endpoint.secret);
      secrets.set('client secret', tenant.client.client_secret);
      secrets.set('password', tenant.password);
      secrets.set('authorization code', tenant.userTokens.code);
      secrets.set('access token (code flow)', tenant.userTokens.access_token);
      secrets.set('refresh token', tenant.userTokens.refresh_token);
      secrets.set('access token (client credentials)', tenant.clientToken);
      secrets.set('access token (minted)', tenant.token);
      secrets.set('SCIM token', tenant.scimToken);
      secrets.set('webhook secret', tenant.endpoint.secret);
      secrets.set('CSRF token', tenant.csrf);
      secrets.set('session cookie', tenant.session);

      // Refresh rotation, then a replay of the rotated refresh token (which revokes the grant).
      const auth = { authorization: basic(tenant.client.client_id, tenant.client.client_secret) };
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tenant.userTokens.refresh_token }, auth);
      assert.equal(refreshed.status, 200);
      secrets.set('rotated access token', refreshed.body.access_token);
      secrets.set('rotated refresh token', refreshed.body.refresh_token);
      assert.equal((await postForm(`${t.publicUrl}/introspect`, { token: refreshed.body.access_token }, auth)).body.active, true);
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tenant.userTokens.refresh_token }, auth)).status, 400);
      // A replayed code; introspection and revocation; secrets in the body beside Basic; a JSON body.
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: tenant.userTokens.code, redirect_uri: 'https://app.example/callback' }, auth)).status, 400);
      assert.equal((await postForm(`${t.publicUrl}/introspect`, { token: refreshed.body.access_token }, auth)).body.active, false);
      assert.equal((await postForm(`${t.publicUrl}/revoke`, { token: tenant.clientToken }, auth)).status, 200);
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_secret: tenant.client.client_secret }, auth)).status, 400);
      const json = await fetch(`${t.publicUrl}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: tenant.client.client_id, client_secret: tenant.client.client_secret }) });
      assert.equal(json.status, 400);
      // A wrong password and a wrong secret are secrets too (often a typo of the real one).
      const wrongPassword = `${tenant.password}-typo`;
      secrets.set('wrong password', wrongPassword);
      const flowAgain = await fetch(`${t.publicUrl}/authorize/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username: tenant.userName, password: wrongPassword }).toString() });
      assert.ok(flowAgain.status >= 400);
      const wrongSecret = `${tenant.client.client_secret.slice(0, -2)}zz`;
      secrets.set('wrong client secret', wrongSecret);
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(tenant.client.client_id, wrongSecret) })).status, 401);
      // A second code flow where the password travels with a failing first attempt.
      const second = await codeFlow(t, tenant.client, tenant.userName, tenant.password, 'invoices:read ledger:read');
      secrets.set('second access token', second.access_token);
      secrets.set('second code', second.code);

      // Client secret rotation through the admin API.
      const rotated = await t.admin('POST', `/admin/v1/accounts/${tenant.accountId}/clients/${tenant.client.client_id}/secret`);
      if (rotated.status < 300 && rotated.body?.client_secret) secrets.set('rotated client secret', rotated.body.client_secret);

      // private_key_jwt: the assertion is a credential.
      const pair = await generateKeyPair('ES256', { extractable: true });
      const jwtClient = await registerClient(t, tenant.accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k', alg: 'ES256' }] }, scope: 'invoices:read' });
      const now = Math.floor(t.clock.now() / 1000);
      const assertion = await new SignJWT({ jti: randomUUID() }).setProtectedHeader({ alg: 'ES256', kid: 'k' }).setIssuer(jwtClient.client_id).setSubject(jwtClient.client_id).setAudience(t.config.issuer).setExpirationTime(now + 60).sign(pair.privateKey);
      secrets.set('client assertion', assertion);
      const viaJwt = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
      assert.equal(viaJwt.status, 200, JSON.stringify(viaJwt.body));
      secrets.set('access token (private_key_jwt)', viaJwt.body.access_token);
      assert.equal((await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion })).status, 401);

      // SCIM with a user password attribute, and SCIM tokens where they are not accepted.
      const scimPassword = `scim-pw-${randomUUID()}`;
      secrets.set('SCIM password attribute', scimPassword);
      const provisioned = await tenant.scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'pw@example.com', password: scimPassword });
      assert.ok(provisioned.status < 500);
      assert.equal((await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${tenant.scimToken}` } })).status, 401);
      assert.equal((await fetch(`${t.publicUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${tenant.scimToken}x` } })).status, 401);

      // Webhooks: rotate the secret, deliver signed events, fail one delivery.
      const rotation = await tenant.api('POST', `/v1/webhook_endpoints/${tenant.endpoint.id}/rotate_secret`, { overlap_seconds: 60 });
      assert.equal(rotation.status, 200, JSON.stringify(rotation.body));
      secrets.set('rotated webhook secret', rotation.body.secret);
      receiver.secrets.push(rotation.body.secret);
      receiver.answer = (r) => (r.body.event === 'payout.created' ? 500 : 204);
      await t.gatehouse.services.webhooks.dispatcher.runDue();
      assert.ok(receiver.received.length > 0);
      for (const r of receiver.received) secrets.set(`signature ${r.headers['delivery-id']}`, String(r.headers.signature).replace(/^sha256=/, ''));

      // Admin token misuse on the public listener, and a bad admin token.
      assert.equal((await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status, 401);
      assert.equal((await fetch(`${t.adminUrl}/admin/v1/accounts`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` } })).status, 401);

      const logs = t.logs.join('');
      const lines = logs.split('\n').filter(Boolean);
      assert.ok(lines.length >= 40, `the run was logged (${lines.length} lines)`);
      for (const [name, secret] of secrets) {
        assert.ok(secret && secret.length >= 8, `${name} is a real value`);
        for (const form of [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64').slice(0, 16)]) {
          const line = lines.find((l) => l.includes(form));
          assert.equal(line, undefined, `the ${name} appears in a log line: ${line?.slice(0, 400)}`);
        }
      }
      assert.ok(!logs.includes(basic(tenant.client.client_id, tenant.client.client_secret).slice(6)), 'a Basic credential appears in the logs');
    });
  });
}
