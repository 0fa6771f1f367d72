/**
 * People on the admin API: list with cursors, deactivate and reactivate (access ends at once),
 * reset password (sessions and tokens end), grants and sessions listed and revoked, delete (the
 * person's consents forgotten; deactivation keeps them).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { Browser, authorizePath, basic, consent, createUser, postForm, redirectParams, registerClient, signIn } from '../oauth/helpers.ts';

const REDIRECT = 'https://app.example/cb';

for (const target of databaseTargets()) {
  describe(`People on the admin API (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let client: { client_id: string; client_secret: string };
    before(async () => {
      t = await startTestApp(target);
      accountId = await createAccount(t);
      client = (await registerClient(t, accountId, { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid invoices:read' })) as { client_id: string; client_secret: string };
    });
    after(() => t?.close());

    async function signedIn(userName: string, password = 'correct horse battery') {
      const browser = new Browser(t.publicUrl);
      let page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid invoices:read', state: 's' }));
      page = await signIn(browser, page, userName, password);
      if (page.status === 200) page = await consent(browser, page);
      assert.equal(page.status, 303, page.html);
      const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: redirectParams(page).get('code')!, redirect_uri: REDIRECT }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(token.status, 200);
      return { browser, accessToken: token.body.access_token as string };
    }

    it('lists people page by page with an opaque cursor until next_cursor is null', async () => {
      const other = await createAccount(t, 'Other');
      const ids: string[] = [];
      for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) ids.push((await createUser(t, other, name)).id as string);
      const seen: string[] = [];
      let after: string | null | undefined;
      do {
        const page = await t.admin('GET', `/admin/v1/accounts/${other}/users?limit=2${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        assert.equal(page.status, 200);
        seen.push(...(page.body.data as Array<{ id: string }>).map((u) => u.id));
        after = page.body.next_cursor as string | null;
      } while (after);
      assert.equal(new Set(seen).size, seen.length, 'no row twice');
      assert.deepEqual([...seen].sort(), [...ids].sort());
      const bad = await t.admin('GET', `/admin/v1/accounts/${other}/users?limit=500`);
      assert.equal(bad.status, 400);
    });

    it('deactivate ends every token and session at once; reactivate lets the person sign in again', async () => {
      const user = await createUser(t, accountId, 'dora');
      const { accessToken } = await signedIn('dora');
      const sessions = await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${user.id}/sessions`);
      assert.equal((sessions.body.data as unknown[]).length, 1);
      const off = await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${user.id}/deactivate`);
      assert.equal(off.status, 200);
      assert.equal(off.body.active, false);
      assert.equal(await t.gatehouse.services.accessTokens.verify(accessToken), undefined);
      assert.deepEqual((await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${user.id}/sessions`)).body.data, []);
      const consents = () => t.gatehouse.database.db.selectFrom('oauth_consents').select('scope').where('user_id', '=', user.id).execute();
      assert.deepEqual(await consents(), [{ scope: 'invoices:read openid' }], 'deactivation keeps what the person consented to');
      const on = await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${user.id}/reactivate`);
      assert.equal(on.body.active, true);
      assert.equal(await t.gatehouse.services.accessTokens.verify(accessToken), undefined, 'nothing that ended comes back');
      await signedIn('dora');
    });

    it('reset password: the policy applies; the old password stops working and every session and token ends', async () => {
      const user = await createUser(t, accountId, 'eve');
      const { accessToken } = await signedIn('eve');
      const weak = await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${user.id}/password`, { password: 'short' });
      assert.equal(weak.status, 400);
      assert.equal(weak.body.code, 'weak_password');
      const reset = await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${user.id}/password`, { password: 'a much better passphrase' });
      assert.equal(reset.status, 200);
      assert.equal(await t.gatehouse.services.accessTokens.verify(accessToken), undefined);
      await signedIn('eve', 'a much better passphrase');
    });

    it("a person's grants and sessions are listed and revoked one by one", async () => {
      const user = await createUser(t, accountId, 'fay');
      const first = await signedIn('fay');
      const second = await signedIn('fay');
      const grants = await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${user.id}/grants`);
      assert.equal((grants.body.data as unknown[]).length, 2);
      const listed = grants.body.data as Array<{ id: string; client_id: string }>;
      assert.ok(listed.every((g) => g.client_id === client.client_id));
      const firstGrant = await t.gatehouse.database.db.selectFrom('access_tokens').select('grant_id').where('token_digest', '=', sha256Hex(first.accessToken)).executeTakeFirstOrThrow();
      assert.ok(listed.some((g) => g.id === firstGrant.grant_id));
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${user.id}/grants/${firstGrant.grant_id}`)).status, 204);
      assert.equal(await t.gatehouse.services.accessTokens.verify(first.accessToken), undefined);
      assert.ok(await t.gatehouse.services.accessTokens.verify(second.accessToken));
      const sessions = (await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${user.id}/sessions`)).body.data as Array<{ id: string }>;
      assert.equal(sessions.length, 2);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${user.id}/sessions/${sessions[0]!.id}`)).status, 204);
      assert.equal(((await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${user.id}/sessions`)).body.data as unknown[]).length, 1);
      const noGrant = await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${user.id}/grants/grant_nope`);
      assert.equal(noGrant.status, 404);
      assert.equal(noGrant.body.code, 'grant_not_found');
      const noSession = await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${user.id}/sessions/sess_nope`);
      assert.equal(noSession.status, 404);
      assert.equal(noSession.body.code, 'session_not_found');
      // A person who is not there is said as every route of a person says it.
      for (const path of ['grants/grant_nope', 'sessions/sess_nope']) {
        const noPerson = await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/user_nope/${path}`);
        assert.equal(noPerson.status, 404, path);
        assert.equal(noPerson.body.code, 'user_not_found', path);
      }
    });

    it('delete removes the person and ends their access; another account cannot reach them', async () => {
      const user = await createUser(t, accountId, 'gus');
      const { accessToken } = await signedIn('gus');
      const stranger = await createAccount(t, 'Stranger');
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${stranger}/users/${user.id}`)).status, 404);
      const consents = () => t.gatehouse.database.db.selectFrom('oauth_consents').select('scope').where('user_id', '=', user.id).execute();
      assert.equal((await consents()).length, 1);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${user.id}`)).status, 204);
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${user.id}`)).status, 404);
      assert.equal(await t.gatehouse.services.accessTokens.verify(accessToken), undefined);
      assert.deepEqual(await consents(), [], 'the consents the person gave go with them');
      const login = new Browser(t.publicUrl);
      const page = await login.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's' }));
      assert.equal((await signIn(login, page, 'gus', 'correct horse battery')).status, 401);
    });
  });
}
