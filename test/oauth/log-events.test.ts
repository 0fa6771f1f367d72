/**
 * What operators see of failed authentication. A client authentication that fails answers only
 * invalid_client, and the log says which client (as claimed), by which method and why; a failed
 * sign-in shows "Wrong username or password", and the log says why and whose account it was
 * when the name is known. Neither ever logs a secret, a password or the userName as typed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { eventLines } from '../helpers/logs.ts';
import { Browser, authorizePath, basic, createUser, postForm, registerClient, signIn } from './helpers.ts';

const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery staple';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

for (const target of databaseTargets()) {
  describe(`OAuth log events (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let confidential: { client_id: string; client_secret: string };
    let postClient: { client_id: string; client_secret: string };
    let webClient: { client_id: string; client_secret: string };
    before(async () => {
      // Sign-in attempts per userName: few, so that the limit is reached within a test.
      t = await startTestApp(target, { env: { GATEHOUSE_RATE_LIMIT_SIGNIN: '3/300' } });
      accountId = await createAccount(t);
      confidential = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      postClient = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read', token_endpoint_auth_method: 'client_secret_post' });
      webClient = await registerClient(t, accountId, { client_name: 'Ledger App', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], scope: 'invoices:read' });
    });
    after(() => t.close());

    const tokenUrl = () => `${t.publicUrl}/token`;
    const failuresOf = (clientId: string | null) => eventLines(t, 'oauth.client_authentication_failed').filter((l) => l.client_id === clientId);

    it('a wrong secret: 401 invalid_client, and oauth.client_authentication_failed (warn) names the client, its account, the method and wrong_secret', async () => {
      const wrong = `${confidential.client_secret.slice(0, -4)}zzzz`;
      const response = await postForm(tokenUrl(), { grant_type: 'client_credentials' }, { authorization: basic(confidential.client_id, wrong) });
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, { error: 'invalid_client', error_description: 'Client authentication failed' });
      const [line] = failuresOf(confidential.client_id);
      assert.ok(line);
      assert.equal(line.level, 'warn');
      assert.deepEqual(
        { account_id: line.account_id, method: line.method, reason: line.reason, route: line.route, ip: line.ip },
        { account_id: accountId, method: 'client_secret_basic', reason: 'wrong_secret', route: '/token', ip: '127.0.0.1' },
      );
      assert.ok(line.reqId, 'the line carries the request id');
      assert.equal((await t.gatehouse.database.db.selectFrom('access_tokens').selectAll().where('client_id', '=', confidential.client_id).execute()).length, 0);
      const all = t.logs.join('');
      assert.ok(!all.includes(wrong) && !all.includes(confidential.client_secret), 'no secret, right or wrong, is logged');
    });

    it('each reason is told apart in the log, never in the answer: unknown client, method not registered, malformed Basic, no credentials', async () => {
      const cases: Array<{ name: string; form: Record<string, string>; headers: Record<string, string>; clientId: string | null; method: string | null; reason: string; account: string | null }> = [
        { name: 'unknown client', form: { grant_type: 'client_credentials', client_id: 'cl_doesnotexist', client_secret: 'whatever-secret-0001' }, headers: {}, clientId: 'cl_doesnotexist', method: 'client_secret_post', reason: 'unknown_client', account: null },
        { name: 'Basic client in the body', form: { grant_type: 'client_credentials', client_id: confidential.client_id, client_secret: confidential.client_secret }, headers: {}, clientId: confidential.client_id, method: 'client_secret_post', reason: 'method_not_registered', account: accountId },
        { name: 'post client by Basic', form: { grant_type: 'client_credentials' }, headers: { authorization: basic(postClient.client_id, postClient.client_secret) }, clientId: postClient.client_id, method: 'client_secret_basic', reason: 'method_not_registered', account: accountId },
        { name: 'malformed Basic', form: { grant_type: 'client_credentials' }, headers: { authorization: 'Basic %%%' }, clientId: null, method: 'client_secret_basic', reason: 'malformed_credentials', account: null },
        { name: 'no credentials', form: { grant_type: 'client_credentials' }, headers: {}, clientId: null, method: null, reason: 'no_credentials', account: null },
      ];
      for (const c of cases) {
        const seen = eventLines(t, 'oauth.client_authentication_failed').length;
        const response = await postForm(tokenUrl(), c.form, c.headers);
        assert.equal(response.status, 401, c.name);
        assert.equal(response.body.error, 'invalid_client', c.name);
        const lines = eventLines(t, 'oauth.client_authentication_failed').slice(seen);
        assert.equal(lines.length, 1, `${c.name}: one line`);
        assert.deepEqual(
          { client_id: lines[0].client_id, method: lines[0].method, reason: lines[0].reason, account_id: lines[0].account_id },
          { client_id: c.clientId, method: c.method, reason: c.reason, account_id: c.account },
          c.name,
        );
      }
      assert.ok(!t.logs.join('').includes(postClient.client_secret));
      assert.ok(!t.logs.join('').includes('whatever-secret-0001'));
    });

    it('revocation and introspection log their failures too, by route; a successful authentication logs none', async () => {
      const seen = eventLines(t, 'oauth.client_authentication_failed').length;
      const ok = await postForm(tokenUrl(), { grant_type: 'client_credentials' }, { authorization: basic(confidential.client_id, confidential.client_secret) });
      assert.equal(ok.status, 200);
      assert.equal(eventLines(t, 'oauth.client_authentication_failed').length, seen);
      for (const route of ['/revoke', '/introspect']) {
        const response = await postForm(`${t.publicUrl}${route}`, { token: ok.body.access_token }, { authorization: basic(confidential.client_id, 'not-the-secret') });
        assert.equal(response.status, 401);
      }
      const lines = eventLines(t, 'oauth.client_authentication_failed').slice(seen);
      assert.deepEqual(lines.map((l) => [l.route, l.reason]), [['/revoke', 'wrong_secret'], ['/introspect', 'wrong_secret']]);
      assert.ok(!t.logs.join('').includes(ok.body.access_token), 'the token is never logged');
    });

    it('private_key_jwt: a replayed assertion is assertion_replayed, one signed by another key assertion_invalid; the assertion is never logged', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const other = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [jwk] }, scope: 'invoices:read' });
      const now = Math.floor(t.clock.now() / 1000);
      const sign = (jti: string, key: typeof privateKey) =>
        new SignJWT({ jti }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer(reg.client_id).setSubject(reg.client_id).setAudience(t.publicUrl).setIssuedAt(now).setExpirationTime(now + 60).sign(key);
      const assertion = await sign('once', privateKey);
      const form = { grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: assertion };
      assert.equal((await postForm(tokenUrl(), form)).status, 200);
      assert.equal((await postForm(tokenUrl(), form)).status, 401);
      const forged = await sign('forged', other.privateKey);
      assert.equal((await postForm(tokenUrl(), { ...form, client_assertion: forged })).status, 401);
      assert.deepEqual(
        failuresOf(reg.client_id).map((l) => [l.method, l.reason, l.account_id]),
        [
          ['private_key_jwt', 'assertion_replayed', accountId],
          ['private_key_jwt', 'assertion_invalid', accountId],
        ],
      );
      const all = t.logs.join('');
      assert.ok(!all.includes(assertion) && !all.includes(forged));
    });

    it('a failed sign-in is oauth.sign_in_failed (info) with the reason and, when the userName is known, the user id; never the password or the name as typed', async () => {
      const ada = await createUser(t, accountId, 'ada.lovelace', PASSWORD);
      const gone = await createUser(t, accountId, 'charles.babbage', PASSWORD);
      await t.gatehouse.database.db.updateTable('users').set({ active: 0 }).where('id', '=', gone.id).execute();
      const provisioned = await createUser(t, accountId, 'mary.somerville', PASSWORD);
      // Provisioned by the directory without a password (SCIM creates users so).
      await t.gatehouse.database.db.updateTable('users').set({ password_hash: null }).where('id', '=', provisioned.id).execute();
      // A password typed into the userName box, the classic way a name leaks a secret.
      const typedAsName = 'Tr0ub4dor&3-typed-as-name';
      const wrongPassword = `${PASSWORD}-typo`;
      const attempts = [
        { userName: 'ada.lovelace', password: wrongPassword, reason: 'wrong_password', userId: ada.id },
        { userName: typedAsName, password: PASSWORD, reason: 'unknown_user', userId: null },
        { userName: 'charles.babbage', password: PASSWORD, reason: 'user_inactive', userId: gone.id },
        { userName: 'mary.somerville', password: PASSWORD, reason: 'password_not_set', userId: provisioned.id },
        { userName: 'ada.lovelace', password: '', reason: 'missing_credentials', userId: null },
      ];
      const browser = new Browser(t.publicUrl);
      const params = { response_type: 'code', client_id: webClient.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
      const page = await browser.get(authorizePath(params));
      for (const attempt of attempts) {
        const seen = eventLines(t, 'oauth.sign_in_failed').length;
        const response = await signIn(browser, page, attempt.userName, attempt.password);
        assert.equal(response.status, 401, attempt.reason);
        assert.match(response.html, /Wrong username or password/);
        assert.equal(response.headers.getSetCookie().some((c) => c.startsWith('gh_session=')), false, 'no session');
        const lines = eventLines(t, 'oauth.sign_in_failed').slice(seen);
        assert.equal(lines.length, 1, attempt.reason);
        assert.equal(lines[0].level, 'info');
        assert.deepEqual(
          { reason: lines[0].reason, user_id: lines[0].user_id, account_id: lines[0].account_id, client_id: lines[0].client_id, ip: lines[0].ip },
          { reason: attempt.reason, user_id: attempt.userId, account_id: accountId, client_id: webClient.client_id, ip: '127.0.0.1' },
        );
      }
      assert.equal(await t.gatehouse.database.db.selectFrom('oauth_sessions').selectAll().execute().then((rows) => rows.length), 0);
      const all = t.logs.join('');
      for (const secret of [PASSWORD, wrongPassword, typedAsName, encodeURIComponent(typedAsName)]) assert.ok(!all.includes(secret), `never logged: ${secret}`);
    });

    it('a sign-in refused by the limit is oauth.sign_in_rate_limited (warn), which limit it hit, and no name', async () => {
      await createUser(t, accountId, 'grace.hopper', PASSWORD);
      const browser = new Browser(t.publicUrl);
      const params = { response_type: 'code', client_id: webClient.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
      const page = await browser.get(authorizePath(params));
      const seen = eventLines(t, 'oauth.sign_in_rate_limited').length;
      let last;
      for (let i = 0; i < 4; i++) last = await signIn(browser, page, 'grace.hopper', `guess-${i}`);
      assert.equal(last!.status, 429);
      const lines = eventLines(t, 'oauth.sign_in_rate_limited').slice(seen);
      assert.equal(lines.length, 1);
      assert.equal(lines[0].level, 'warn');
      assert.deepEqual(
        { limit: lines[0].limit, account_id: lines[0].account_id, client_id: lines[0].client_id, ip: lines[0].ip },
        { limit: 'user_name', account_id: accountId, client_id: webClient.client_id, ip: '127.0.0.1' },
      );
      assert.ok(!t.logs.join('').includes('grace.hopper'));
      assert.ok(!t.logs.join('').includes('guess-3'));
    });
  });
}
