/**
 * Back-Channel Logout 1.0 where the `serve` nodes run without in-process workers: the sign-out
 * is queued by `serve` in the transaction that ends the session, and the logout token is sent by
 * a separate `gatehouse worker` process (background.ts starts the delivery for both).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { scimClient, USER } from '../scim/scim-client.ts';
import { startLogoutReceiver } from './logout-receiver.ts';
import { Browser, authorizePath, basic, consent, postForm, redirectParams, registerClient, signIn } from './helpers.ts';

const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery';
const LOOPBACK = { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' };

for (const target of databaseTargets()) {
  describe(`Back-channel logout from a worker (${target.kind})`, () => {
    it('a logout queued by a serve node without workers is delivered by a worker-only node: the token as §2.4 says, the row delivered', async () => {
      const t = await startTestApp(target, { env: LOOPBACK });
      const receiver = await startLogoutReceiver();
      let worker: SpawnedGatehouse | undefined;
      try {
        const scim = await scimClient(t, 'Acme');
        const created = await scim.call('POST', '/Users', { schemas: [USER], userName: 'ada@example.com', password: PASSWORD, name: { givenName: 'Ada', familyName: 'Lovelace' } });
        assert.equal(created.status, 201);
        const client = (await registerClient(t, scim.accountId, {
          client_name: 'Web app',
          redirect_uris: [REDIRECT],
          backchannel_logout_uri: receiver.url,
          grant_types: ['authorization_code'],
          scope: 'openid',
        })) as { client_id: string; client_secret: string };

        const browser = new Browser(t.publicUrl);
        const signInPage = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's' }));
        const consentPage = await signIn(browser, signInPage, 'ada@example.com', PASSWORD);
        const code = redirectParams(await consent(browser, consentPage)).get('code')!;
        const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { authorization: basic(client.client_id, client.client_secret) });
        assert.equal(token.status, 200);
        const out = await browser.get(`/logout?${new URLSearchParams({ id_token_hint: token.body.id_token as string })}`);
        assert.equal(out.status, 200, 'signed out (no redirect asked for)');

        const deliveries = () => t.gatehouse.database.db.selectFrom('oidc_logout_deliveries').select(['state', 'claims']).where('account_id', '=', scim.accountId).execute();
        const [queued] = await deliveries();
        assert.equal(queued?.state, 'pending', 'queued by the serve node, which runs no workers');
        assert.equal(receiver.tokens.length, 0);

        worker = await spawnGatehouse({ databaseUrl: t.config.databaseUrl, command: 'worker', env: { ...LOOPBACK, GATEHOUSE_ISSUER: t.config.issuer } });
        await until(() => receiver.tokens.length === 1, 15_000, 'the logout token, sent by the worker');
        const jwks = createLocalJWKSet((await (await fetch(`${t.publicUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet);
        const { payload } = await jwtVerify(receiver.tokens[0]!, jwks, { issuer: t.config.issuer, audience: client.client_id });
        assert.equal(decodeProtectedHeader(receiver.tokens[0]!).typ, 'logout+jwt');
        assert.equal(payload.sub, created.body.id);
        assert.equal(payload.sid, (JSON.parse(queued.claims) as { sid: string }).sid);
        assert.deepEqual(payload.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
        await until(async () => (await deliveries())[0]?.state === 'delivered', 10_000, 'the delivery recorded as delivered');
      } finally {
        await worker?.stop();
        await receiver.close();
        await t.close();
      }
    });
  });
}
