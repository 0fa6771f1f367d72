/**
 * OpenID Connect Core 1.0, RP-Initiated Logout 1.0 and Back-Channel Logout 1.0 as a client
 * sees them over HTTP (the pages walked with a cookie jar; the real-browser runs are in
 * test/e2e/oidc-browser.test.ts), with the stored state checked. The clock is the test's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { Json } from '../helpers/http.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { until } from '../helpers/until.ts';
import { createTestClock } from '../../src/platform/clock.ts';
import { atHash } from '../../src/oauth/id-token.ts';
import { SIGNING_LEAD_SECONDS } from '../../src/oauth/keys.ts';
import { scimClient, PATCH, USER, type ScimClient } from '../scim/scim-client.ts';
import { startLogoutReceiver, type LogoutReceiver } from './logout-receiver.ts';
import { Browser, authorizePath, basic, consent, hiddenFields, postForm, redirectParams, registerClient, signIn } from './helpers.ts';

const REDIRECT = 'https://app.example/callback';
const SIGNED_OUT = 'https://app.example/signed-out';
const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`OpenID Connect (${target.kind})`, () => {
    const clock = createTestClock(Date.now());
    let t: TestApp;
    let scim: ScimClient;
    let userId: string;
    let receiver: LogoutReceiver;
    let client: { client_id: string; client_secret: string };

    before(async () => {
      // Logout tokens go out with the workers (background.ts).
      t = await startTestApp(target, { clock, env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '5,10', GATEHOUSE_IN_PROCESS_WORKERS: 'on', GATEHOUSE_RATE_LIMIT_SIGNIN: '50/300' } });
      receiver = await startLogoutReceiver();
      scim = await scimClient(t, 'Acme');
      const created = await scim.call('POST', '/Users', {
        schemas: [USER],
        userName: 'grace@example.com',
        password: PASSWORD,
        name: { givenName: 'Grace', familyName: 'Hopper' },
        emails: [{ value: 'grace@example.com', primary: true }],
      });
      assert.equal(created.status, 201);
      userId = created.body.id as string;
      client = (await registerClient(t, scim.accountId, {
        client_name: 'Web app',
        redirect_uris: [REDIRECT],
        post_logout_redirect_uris: [SIGNED_OUT],
        backchannel_logout_uri: receiver.url,
        grant_types: ['authorization_code', 'refresh_token'],
        scope: 'openid profile email invoices:read',
      })) as { client_id: string; client_secret: string };
    });
    after(async () => {
      await receiver?.close();
      await t?.close();
    });

    async function verifyJwt(token: string): Promise<JWTPayload> {
      const jwks = createLocalJWKSet((await (await fetch(`${t.publicUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet);
      return (await jwtVerify(token, jwks, { issuer: t.config.issuer, currentDate: new Date(clock.now()) })).payload;
    }

    /** Signs in (unless the jar has a session) and allows; returns the redirect's parameters. */
    async function authorize(browser: Browser, extra: Record<string, string> = {}) {
      const params = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid profile email', state: 's1', ...extra };
      let page = await browser.get(authorizePath(params));
      if (page.status === 200 && page.html.includes('Sign in')) page = await signIn(browser, page, 'grace@example.com', PASSWORD);
      if (page.status === 200 && page.html.includes('Allow access?')) page = await consent(browser, page);
      return { response: page, params: redirectParams(page) };
    }

    async function redeem(code: string) {
      return postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { authorization: basic(client.client_id, client.client_secret) });
    }

    it('Discovery: /.well-known/openid-configuration is the RFC 8414 document, with what OIDC and RFC 8414 require', async () => {
      const oidc = (await (await fetch(`${t.publicUrl}/.well-known/openid-configuration`)).json()) as Json;
      const oauth = (await (await fetch(`${t.publicUrl}/.well-known/oauth-authorization-server`)).json()) as Json;
      assert.deepEqual(oidc, oauth);
      assert.equal(oidc.issuer, t.config.issuer);
      assert.equal(oidc.userinfo_endpoint, `${t.config.issuer}/userinfo`);
      assert.equal(oidc.end_session_endpoint, `${t.config.issuer}/logout`);
      assert.deepEqual(oidc.subject_types_supported, ['public', 'pairwise']);
      assert.deepEqual(oidc.id_token_signing_alg_values_supported, ['ES256', 'RS256']);
      assert.equal(oidc.request_uri_parameter_supported, false);
      for (const endpoint of ['token_endpoint', 'revocation_endpoint', 'introspection_endpoint']) {
        assert.ok(oidc[`${endpoint}_auth_methods_supported`].includes('private_key_jwt'));
        assert.ok(oidc[`${endpoint}_auth_signing_alg_values_supported`].includes('ES256'), `${endpoint}_auth_signing_alg_values_supported`);
      }
      assert.ok(oidc.scopes_supported.includes('openid'));
    });

    it('a client asking for RS256 ID tokens has its key in the JWKS from its registration: its first ID token names a kid already published', async () => {
      const rsaKids = async () => {
        const jwks = (await (await fetch(`${t.publicUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
        return jwks.keys.filter((k) => k.alg === 'RS256').map((k) => k.kid);
      };
      assert.deepEqual(await rsaKids(), [], 'no RS256 key until a client asks for one');
      const rsa = (await registerClient(t, scim.accountId, { client_name: 'RSA app', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], id_token_signed_response_alg: 'RS256', scope: 'openid' })) as { client_id: string; client_secret: string };
      const published = await rsaKids();
      assert.equal(published.length, 1, 'published at registration');
      // A cached JWKS, as a relying party holds it, is all it needs for the first ID token.
      const cached = createLocalJWKSet((await (await fetch(`${t.publicUrl}/.well-known/jwks.json`)).json()) as JSONWebKeySet);
      const browser = new Browser(t.publicUrl);
      const { params } = await authorize(browser, { client_id: rsa.client_id, scope: 'openid' });
      const redeemed = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: params.get('code')!, redirect_uri: REDIRECT }, { authorization: basic(rsa.client_id, rsa.client_secret) });
      assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
      const idToken = redeemed.body.id_token as string;
      assert.deepEqual(decodeProtectedHeader(idToken), { alg: 'RS256', kid: published[0] });
      assert.equal((await jwtVerify(idToken, cached, { issuer: t.config.issuer, audience: rsa.client_id, currentDate: new Date(clock.now()) })).payload.sub, userId);
      assert.deepEqual(await rsaKids(), published, 'no second key made');
    });

    it('OIDC Core §3.1.3.7: the ID token carries iss, sub (the user id), aud, exp, iat, auth_time, nonce exactly as sent, at_hash, sid', async () => {
      const browser = new Browser(t.publicUrl);
      const nonce = 'n-0S6_WzA2Mj ünïcode';
      const { params } = await authorize(browser, { nonce, acr_values: 'urn:gatehouse:acr:password' });
      const token = await redeem(params.get('code')!);
      assert.equal(token.status, 200, JSON.stringify(token.body));
      const idToken = token.body.id_token as string;
      assert.equal(decodeProtectedHeader(idToken).alg, 'ES256');
      const claims = await verifyJwt(idToken);
      assert.equal(claims.sub, userId);
      assert.equal(claims.aud, client.client_id);
      assert.equal(claims.nonce, nonce);
      assert.equal(claims.at_hash, atHash(token.body.access_token as string));
      assert.equal(claims.auth_time, Math.floor(clock.now() / 1000));
      assert.equal(claims.exp, claims.iat! + t.config.accessTokenTtl);
      assert.equal(typeof claims.sid, 'string');
      assert.equal(claims.acr, 'urn:gatehouse:acr:password', 'the class of the sign-in, as acr_values asks and discovery names');
      assert.deepEqual(claims.amr, ['pwd']);
      assert.equal(claims.email, undefined, 'scope claims are for userinfo unless the claims parameter asks');
      const stored = await t.gatehouse.database.db.selectFrom('oidc_session_clients').selectAll().where('session_id', '=', claims.sid as string).execute();
      assert.deepEqual(stored.map((r) => r.client_id), [client.client_id]);
    });

    it('OIDC Core §12.2: a refresh returns a new ID token with the original auth_time and no nonce', async () => {
      const browser = new Browser(t.publicUrl);
      const { params } = await authorize(browser, { nonce: 'abc' });
      const first = await redeem(params.get('code')!);
      const firstClaims = await verifyJwt(first.body.id_token as string);
      clock.advance(60_000);
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refreshed.status, 200);
      const claims = await verifyJwt(refreshed.body.id_token as string);
      assert.equal(claims.auth_time, firstClaims.auth_time);
      assert.equal(claims.iat, firstClaims.iat! + 60);
      assert.equal(claims.nonce, undefined);
      assert.equal(claims.sub, userId);
    });

    it('OIDC Core §5.5: the claims parameter puts named claims in the ID token; a request without openid gets no ID token', async () => {
      const browser = new Browser(t.publicUrl);
      const { params } = await authorize(browser, { claims: JSON.stringify({ id_token: { email: { essential: true }, given_name: null, acr: null } }) });
      const token = await redeem(params.get('code')!);
      const claims = await verifyJwt(token.body.id_token as string);
      assert.equal(claims.email, 'grace@example.com');
      assert.equal(claims.email_verified, undefined);
      assert.equal(claims.given_name, 'Grace');
      assert.equal(claims.acr, 'urn:gatehouse:acr:password');

      const plain = await authorize(browser, { scope: 'invoices:read' });
      const noOidc = await redeem(plain.params.get('code')!);
      assert.equal(noOidc.status, 200);
      assert.equal(noOidc.body.id_token, undefined);

      const bad = await authorize(browser, { claims: '[1]' });
      assert.equal(bad.params.get('error'), 'invalid_request');
      assert.equal(bad.params.get('state'), 's1');
    });

    it('OIDC Core §5.5.1: a sub asked for with a value is answered for that person only; an essential acr that cannot be met is refused', async () => {
      const browser = new Browser(t.publicUrl);
      // Someone else's sub: signing in as Grace is not that person, so no code for her.
      const someoneElse = JSON.stringify({ id_token: { sub: { value: 'usr_someone_else' } } });
      const asked = await authorize(browser, { claims: someoneElse });
      assert.deepEqual([asked.params.get('error'), asked.params.get('code')], ['access_denied', null]);
      // Signed in as Grace now: asking for her by sub goes straight through.
      const her = await authorize(browser, { prompt: 'none', claims: JSON.stringify({ id_token: { sub: { value: userId } } }) });
      const token = await redeem(her.params.get('code')!);
      assert.equal((await verifyJwt(token.body.id_token as string)).sub, userId);
      // And asking for someone else without a page to show: login_required.
      const silent = await authorize(browser, { prompt: 'none', claims: someoneElse });
      assert.deepEqual([silent.params.get('error'), silent.params.get('code')], ['login_required', null]);

      const unmet = await authorize(browser, { claims: JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:example:mfa'] } } }) });
      assert.deepEqual([unmet.params.get('error'), unmet.params.get('state')], ['unmet_authentication_requirements', 's1']);
      const met = await authorize(browser, { claims: JSON.stringify({ id_token: { acr: { essential: true, values: ['urn:example:mfa', 'urn:gatehouse:acr:password'] } } }) });
      assert.equal((await verifyJwt((await redeem(met.params.get('code')!)).body.id_token as string)).acr, 'urn:gatehouse:acr:password');
      for (const malformed of [{ id_token: { sub: { value: 7 } } }, { id_token: { acr: { essential: 'yes' } } }, { id_token: { sub: { value: 'a' } }, userinfo: { sub: { value: 'b' } } }]) {
        const refused = await authorize(browser, { claims: JSON.stringify(malformed) });
        assert.equal(refused.params.get('error'), 'invalid_request', JSON.stringify(malformed));
      }
    });

    it('OIDC Core §5.5: the claims parameter chooses among the claims of the consented scopes; it never releases one the person did not consent to', async () => {
      const browser = new Browser(t.publicUrl);
      const asked = { id_token: { email: { essential: true }, phone_number: null, name: null }, userinfo: { email: null, given_name: null } };
      const { params } = await authorize(browser, { scope: 'openid', claims: JSON.stringify(asked) });
      const token = await redeem(params.get('code')!);
      assert.equal(token.status, 200, JSON.stringify(token.body));
      assert.equal(token.body.scope, 'openid');
      const claims = await verifyJwt(token.body.id_token as string);
      assert.equal(claims.sub, userId);
      for (const name of ['email', 'phone_number', 'name']) assert.equal(claims[name], undefined, `${name} is not in the ID token`);
      const info = await fetch(`${t.publicUrl}/userinfo`, { headers: { authorization: `Bearer ${token.body.access_token as string}` } });
      assert.equal(info.status, 200);
      assert.deepEqual(await info.json(), { sub: userId });
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: token.body.refresh_token as string }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refreshed.status, 200);
      assert.equal((await verifyJwt(refreshed.body.id_token as string)).email, undefined, 'nor in a refreshed one');

      // A refresh narrowed to openid gives up the claims of the scopes it left behind.
      const wide = await authorize(browser, { scope: 'openid email', claims: JSON.stringify({ id_token: { email: null } }) });
      const first = await redeem(wide.params.get('code')!);
      assert.equal((await verifyJwt(first.body.id_token as string)).email, 'grace@example.com');
      const narrowed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, scope: 'openid' }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.scope, 'openid');
      assert.equal((await verifyJwt(narrowed.body.id_token as string)).email, undefined);
    });

    it('OIDC Core §5.3: userinfo answers GET and POST with the scope claims; email_verified is false; no token 401, no openid 403', async () => {
      const browser = new Browser(t.publicUrl);
      const { params } = await authorize(browser);
      const token = await redeem(params.get('code')!);
      const bearer = { authorization: `Bearer ${token.body.access_token as string}` };
      // POST as relying parties send it: a form content type, an empty body (or one), the token in the header.
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      for (const [method, headers, sent] of [['GET', bearer], ['POST', bearer], ['POST', { ...bearer, ...form }, ''], ['POST', { ...bearer, ...form }, 'ignored=1']] as const) {
        const response = await fetch(`${t.publicUrl}/userinfo`, { method, headers, body: sent });
        assert.equal(response.status, 200, `${method} ${JSON.stringify(headers)}`);
        assert.equal(response.headers.get('cache-control'), 'no-store');
        const body = (await response.json()) as Json;
        assert.equal(body.sub, userId);
        assert.equal(body.email, 'grace@example.com');
        assert.equal(body.email_verified, false);
        assert.equal(body.name, 'Grace Hopper');
        assert.equal(body.preferred_username, 'grace@example.com');
      }
      const none = await fetch(`${t.publicUrl}/userinfo`);
      assert.equal(none.status, 401);
      assert.match(none.headers.get('www-authenticate')!, /^Bearer/);
      const plain = await authorize(browser, { scope: 'invoices:read' });
      const apiOnly = await redeem(plain.params.get('code')!);
      const forbidden = await fetch(`${t.publicUrl}/userinfo`, { headers: { authorization: `Bearer ${apiOnly.body.access_token as string}` } });
      assert.equal(forbidden.status, 403);
      assert.match(forbidden.headers.get('www-authenticate')!, /insufficient_scope/);
    });

    it('RFC 6750 §3: a client-credentials token with openid stands for nobody: userinfo answers 403 insufficient_scope with its Bearer challenge', async () => {
      const machine = (await registerClient(t, scim.accountId, { grant_types: ['client_credentials'], scope: 'openid invoices:read' })) as { client_id: string; client_secret: string };
      const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(machine.client_id, machine.client_secret) });
      assert.equal(issued.status, 200);
      assert.equal(issued.body.scope, 'invoices:read openid');
      const response = await fetch(`${t.publicUrl}/userinfo`, { headers: { authorization: `Bearer ${issued.body.access_token as string}` } });
      assert.equal(response.status, 403);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="gatehouse", error="insufficient_scope"/);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(((await response.json()) as Json).code, 'insufficient_scope');
    });

    it('OIDC Core §3.1.2.1: a sign-in made for the request answers its max_age however long the consent takes (max_age=0 ends); a consent page shown on an older session and left open past max_age asks for the password', async () => {
      const browser = new Browser(t.publicUrl);
      const params = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid invoices:read', state: 'm', max_age: '0', prompt: 'consent' };
      const first = await browser.get(authorizePath(params));
      assert.match(first.html, /Sign in/);
      // The sign-in's clock moves on every reading, as a real one does between its steps (from a
      // whole second, so the sign-in's auth_time is that second).
      clock.set(Math.ceil(clock.now() / 1000) * 1000);
      const frozenNow = clock.now;
      let ticks = 0;
      clock.now = () => frozenNow() + ++ticks;
      const page = await signIn(browser, first, 'grace@example.com', PASSWORD).finally(() => {
        clock.now = frozenNow;
      });
      assert.ok(ticks > 1);
      assert.match(page.html, /Allow access\?/);
      const signedInAt = Math.floor(clock.now() / 1000);
      clock.advance(5_000);
      const code = redirectParams(await consent(browser, page)).get('code');
      assert.ok(code, 'a code, not the sign-in page again');
      const claims = await verifyJwt((await redeem(code)).body.id_token as string);
      assert.equal(claims.auth_time, signedInAt, 'the sign-in made for this request');

      // The same session, a later request: its consent page is shown without a sign-in...
      const later = { ...params, max_age: '60', state: 'n' };
      clock.advance(10_000);
      const shown = await browser.get(authorizePath(later));
      assert.match(shown.html, /Allow access\?/);
      assert.doesNotMatch(shown.html, /sign_in_proof/, 'no proof of a sign-in it did not make');
      // ...and left open past max_age, the code's auth_time would be older than the relying party allows.
      clock.advance(61_000);
      const late = await consent(browser, shown);
      assert.equal(late.status, 200);
      assert.equal(late.headers.get('location'), null, 'no code');
      assert.match(late.html, /Sign in/);
      // A proof from the earlier sign-in's page does not carry over to this one.
      const replayed = await browser.post('/authorize/consent', { ...hiddenFields(shown.html), sign_in_proof: hiddenFields(page.html).sign_in_proof!, decision: 'allow' });
      assert.match(replayed.html, /Sign in/);
      const again = await signIn(browser, late, 'grace@example.com', PASSWORD);
      assert.match(again.html, /Allow access\?/);
      const fresh = redirectParams(await consent(browser, again)).get('code');
      assert.ok(fresh);
      const renewed = await verifyJwt((await redeem(fresh)).body.id_token as string);
      assert.equal(renewed.auth_time, Math.floor(clock.now() / 1000));
    });

    it('OIDC Core §3.1.2.1: max_age asks for the password again once the sign-in is older; login_hint fills the userName; a foreign id_token_hint with prompt=none is login_required', async () => {
      const browser = new Browser(t.publicUrl);
      const first = await authorize(browser);
      const idToken = (await redeem(first.params.get('code')!)).body.id_token as string;
      // Within max_age the session is used...
      const quick = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', max_age: '60' }));
      assert.equal(quick.status, 302);
      clock.advance(61_000);
      // ...past it the person signs in again.
      const stale = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', max_age: '60', login_hint: 'grace@example.com' }));
      assert.equal(stale.status, 200);
      assert.match(stale.html, /value="grace@example\.com" autofocus/);
      const none = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', max_age: '60', prompt: 'none' }));
      assert.equal(redirectParams(none).get('error'), 'login_required');
      // The hint naming this person is fine; a token that is not ours is not.
      const same = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', prompt: 'none', id_token_hint: idToken }));
      assert.ok(redirectParams(same).get('code'));
      const forged = idToken.slice(0, -4) + 'AAAA';
      const other = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', prompt: 'none', id_token_hint: forged }));
      assert.equal(redirectParams(other).get('error'), 'login_required');
      // Nor is another JWT these keys sign for this person: a logout token names its sub too.
      const now = Math.floor(clock.now() / 1000);
      const logoutToken = await t.gatehouse.services.oauth.keys.sign(
        { iss: t.config.issuer, aud: client.client_id, sub: userId, iat: now, exp: now + 120, jti: 'j1', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } },
        'logout+jwt',
      );
      const logoutHint = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', prompt: 'none', id_token_hint: logoutToken }));
      assert.equal(redirectParams(logoutHint).get('error'), 'login_required');
      // The hint names Grace; someone else signs in at the form: no code for them under that hint.
      const someoneElse = await scim.call('POST', '/Users', { schemas: [USER], userName: 'hinted-away@example.com', password: PASSWORD });
      assert.equal(someoneElse.status, 201);
      const elsewhere = new Browser(t.publicUrl);
      const form = await elsewhere.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 'h', id_token_hint: idToken }));
      assert.equal(form.status, 200);
      const signedIn = await signIn(elsewhere, form, 'hinted-away@example.com', PASSWORD);
      assert.equal(redirectParams(signedIn).get('error'), 'login_required');
      assert.equal(redirectParams(signedIn).get('code'), null);
    });

    it('RP-Initiated Logout: id_token_hint signs out at once, back to the exact post_logout_redirect_uri with state; back-channel logout token delivered', async () => {
      const browser = new Browser(t.publicUrl);
      const { params } = await authorize(browser);
      const redeemed = await redeem(params.get('code')!);
      const idToken = redeemed.body.id_token as string;
      const sid = (await verifyJwt(idToken)).sid as string;
      const before = receiver.tokens.length;
      // A code the session issued and the client has not redeemed yet.
      const pending = (await authorize(browser)).params.get('code')!;
      assert.ok(pending);

      const wrong = await browser.get(`/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: `${SIGNED_OUT}/`, state: 'x' })}`);
      assert.equal(wrong.status, 400);
      assert.equal(wrong.headers.get('location'), null);

      const out = await browser.get(`/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'bye' })}`);
      assert.equal(out.status, 303);
      assert.equal(out.headers.get('location'), `${SIGNED_OUT}?state=bye`);
      const session = await t.gatehouse.database.db.selectFrom('oauth_sessions').select('ended_at').where('id', '=', sid).executeTakeFirstOrThrow();
      assert.notEqual(session.ended_at, null);
      const again = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', prompt: 'none' }));
      assert.equal(redirectParams(again).get('error'), 'login_required');
      // Back-Channel Logout §2.7: the grant signed in under the session ended with it.
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: redeemed.body.refresh_token as string }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refreshed.status, 400);
      assert.equal(refreshed.body.error, 'invalid_grant');
      const grant = await t.gatehouse.database.db.selectFrom('oauth_grants').select('revoked_at').where('session_id', '=', sid).executeTakeFirstOrThrow();
      assert.notEqual(grant.revoked_at, null);
      // Nor does a code issued under it open a new grant once the client was told the session ended.
      const late = await redeem(pending);
      assert.equal(late.status, 400);
      assert.deepEqual(late.body, { error: 'invalid_grant', error_description: 'The authorization code is invalid' });
      const grants = await t.gatehouse.database.db.selectFrom('oauth_grants').select('revoked_at').where('session_id', '=', sid).execute();
      assert.deepEqual(grants.map((g) => g.revoked_at !== null), [true], 'no grant made from the late code');
      assert.equal((await t.gatehouse.database.db.selectFrom('oauth_codes').select('code_digest').where('session_id', '=', sid).where('consumed_at', 'is', null).execute()).length, 0);

      await until(() => receiver.tokens.length > before, 10_000, 'the back-channel logout token');
      const logout = await verifyJwt(receiver.tokens.at(-1)!);
      assert.equal(decodeProtectedHeader(receiver.tokens.at(-1)!).typ, 'logout+jwt');
      assert.equal(logout.sub, userId);
      assert.equal(logout.sid, sid);
      assert.equal(logout.aud, client.client_id);
      assert.deepEqual(logout.events, { 'http://schemas.openid.net/event/backchannel-logout': {} });
      assert.equal(logout.nonce, undefined);
      await until(async () => (await t.gatehouse.database.db.selectFrom('oidc_logout_deliveries').select('state').where('claims', 'like', `%${sid}%`).executeTakeFirst())?.state === 'delivered', 10_000, 'delivered');
    });

    it('signing in again as the same person (prompt=login) goes on with the same session (its sid, its grants) under a new cookie; another person signing in in that browser ends it as a sign-out does', async () => {
      const browser = new Browser(t.publicUrl);
      const first = await redeem((await authorize(browser)).params.get('code')!);
      const sid = (await verifyJwt(first.body.id_token as string)).sid as string;
      const cookieBefore = browser.cookies.get('gh_session');
      clock.advance(60_000);
      const again = await authorize(browser, { prompt: 'login' });
      const second = await redeem(again.params.get('code')!);
      const claims = await verifyJwt(second.body.id_token as string);
      assert.equal(claims.sid, sid, 'the same session');
      assert.equal(claims.auth_time, Math.floor(clock.now() / 1000), 'authenticated again now');
      assert.notEqual(browser.cookies.get('gh_session'), cookieBefore, 'a new cookie secret on every sign-in');
      const auth = { authorization: basic(client.client_id, client.client_secret) };
      const stillLive = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string }, auth);
      assert.equal(stillLive.status, 200, 'the first grant goes on with its session');

      // Another person signs in in the same browser: the session is ended as by a sign-out.
      const other = await scim.call('POST', '/Users', { schemas: [USER], userName: 'ada@example.com', password: PASSWORD });
      assert.equal(other.status, 201);
      const before = receiver.tokens.length;
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid', state: 's', prompt: 'login' }));
      let answer = await signIn(browser, page, 'ada@example.com', PASSWORD);
      if (answer.status === 200 && answer.html.includes('Allow access?')) answer = await consent(browser, answer);
      assert.equal(answer.status, 303);
      const ended = await t.gatehouse.database.db.selectFrom('oauth_sessions').select('ended_at').where('id', '=', sid).executeTakeFirstOrThrow();
      assert.notEqual(ended.ended_at, null);
      const revoked = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: stillLive.body.refresh_token as string }, auth);
      assert.equal(revoked.body.error, 'invalid_grant');
      await until(() => receiver.tokens.some((token, i) => i >= before && decodeJwt(token).sid === sid), 10_000, 'the back-channel logout token of the ended session');
    });

    it('OIDC Core §3.1.2.1 prompt=select_account: with a session and a remembered consent, the page naming the person signed in is shown, to go on or switch; discovery lists it', async () => {
      const browser = new Browser(t.publicUrl);
      await authorize(browser);
      const params = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid profile email', state: 'sel' };
      const remembered = await browser.get(authorizePath(params));
      assert.equal(remembered.status, 302, 'without it: a code at once');
      const page = await browser.get(authorizePath({ ...params, prompt: 'select_account' }));
      assert.equal(page.status, 200);
      assert.match(page.html, /Allow access\?/);
      assert.match(page.html, /grace@example\.com/);
      assert.match(page.html, /Not you\?/);
      const allowed = await consent(browser, page);
      assert.equal(allowed.status, 303);
      assert.ok(redirectParams(allowed).get('code'));
      const metadata = (await (await fetch(`${t.publicUrl}/.well-known/openid-configuration`)).json()) as Json;
      assert.deepEqual(metadata.prompt_values_supported, ['none', 'login', 'consent', 'select_account']);
    });

    it('an ID token signed before a key rotation stays a good hint after its key leaves the JWKS, for as long as its session lives', async () => {
      const browser = new Browser(t.publicUrl);
      const idToken = (await redeem((await authorize(browser)).params.get('code')!)).body.id_token as string;
      const { kid } = decodeProtectedHeader(idToken);
      await t.gatehouse.services.oauth.keys.rotate();
      // Past the new key's start and the old key's publication after it.
      clock.advance((SIGNING_LEAD_SECONDS + t.config.accessTokenTtl + 60) * 1000);
      const published = ((await (await fetch(`${t.publicUrl}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
      assert.ok(!published.includes(kid!), 'the key that signed it is no longer published');
      const out = await browser.get(`/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'later' })}`);
      assert.equal(out.status, 303, out.html);
      assert.equal(out.headers.get('location'), `${SIGNED_OUT}?state=later`);
    });

    it('DELETE …/clients/{id}/tokens ends every token the client holds (sealed, stored, refresh) at once; the client, its secret, the consent and other clients stay', async () => {
      const both = (await registerClient(t, scim.accountId, {
        client_name: 'Both ways',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        scope: 'openid invoices:read',
      })) as { client_id: string; client_secret: string };
      const auth = { authorization: basic(both.client_id, both.client_secret) };
      const browser = new Browser(t.publicUrl);
      const code = async () => {
        let page = await browser.get(authorizePath({ response_type: 'code', client_id: both.client_id, redirect_uri: REDIRECT, scope: 'openid invoices:read', state: 'r' }));
        if (page.status === 200 && page.html.includes('Sign in')) page = await signIn(browser, page, 'grace@example.com', PASSWORD);
        if (page.status === 200 && page.html.includes('Allow access?')) page = await consent(browser, page);
        return redirectParams(page).get('code')!;
      };
      const person = (await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT }, auth)).body;
      const machine = (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, auth)).body;
      const elsewhere = (await redeem((await authorize(new Browser(t.publicUrl))).params.get('code')!)).body;
      const invoices = (token: string) => fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${token}` } });
      for (const token of [person.access_token, machine.access_token]) assert.equal((await invoices(token)).status, 200);
      // A code sent to the client and not redeemed yet: a grant is made only when it is.
      const pending = await code();

      clock.advance(1);
      const revoked = await t.admin('DELETE', `/admin/v1/accounts/${scim.accountId}/clients/${both.client_id}/tokens`);
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      const at = new Date(clock.now()).toISOString();
      assert.deepEqual(revoked.body, { object: 'client_token_revocation', client_id: both.client_id, tokens_not_before: at, revoked: { access_tokens: 1, refresh_tokens: 1, grants: 1, codes: 1 } });
      for (const token of [person.access_token, machine.access_token]) {
        assert.equal((await invoices(token)).status, 401);
        assert.equal((await postForm(`${t.publicUrl}/introspect`, { token }, auth)).body.active, false);
      }
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: person.refresh_token }, auth);
      assert.equal(refreshed.status, 400);
      assert.equal(refreshed.body.error, 'invalid_grant');
      const late = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: pending, redirect_uri: REDIRECT }, auth);
      assert.equal(late.status, 400);
      assert.equal(late.body.error, 'invalid_grant');
      const db = t.gatehouse.database.db;
      assert.equal((await db.selectFrom('oauth_clients').select('tokens_not_before').where('id', '=', both.client_id).executeTakeFirstOrThrow()).tokens_not_before, clock.now());
      const record = await db.selectFrom('audit_events').select(['actor_type', 'target_id', 'changes']).where('action', '=', 'client.tokens_revoked').executeTakeFirstOrThrow();
      assert.deepEqual([record.actor_type, record.target_id], ['admin', both.client_id]);
      assert.deepEqual(JSON.parse(record.changes!), {
        tokens_not_before: { after: at },
        access_tokens_revoked: { after: 1 },
        refresh_tokens_revoked: { after: 1 },
        grants_revoked: { after: 1 },
        codes_deleted: { after: 1 },
      });
      // Another client's tokens are untouched.
      assert.equal((await fetch(`${t.publicUrl}/userinfo`, { headers: { authorization: `Bearer ${elsewhere.access_token}` } })).status, 200);

      // The client goes on: a new client-credentials token, and a sign-in that needs no new consent.
      clock.advance(1);
      const next = (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, auth)).body;
      assert.equal((await invoices(next.access_token)).status, 200);
      const again = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: await code(), redirect_uri: REDIRECT }, auth);
      assert.equal(again.status, 200);
      assert.equal((await invoices(again.body.access_token)).status, 200);
      const unknown = await t.admin('DELETE', `/admin/v1/accounts/${scim.accountId}/clients/client_unknown/tokens`);
      assert.equal(unknown.status, 404);
    });

    it('an ID token signed by a key withdrawn with rotate-keys --revoke is no hint: whoever holds that key could sign any', async () => {
      const browser = new Browser(t.publicUrl);
      const idToken = (await redeem((await authorize(browser)).params.get('code')!)).body.id_token as string;
      await t.gatehouse.services.oauth.keys.rotate(undefined, { revoke: true });
      // Past the minute in which every node re-reads its sealing keys, for the tests after this one.
      clock.advance(61_000);
      const out = await browser.get(`/logout?${new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'w' })}`);
      assert.equal(out.status, 400, out.html);
      assert.match(out.html, /id_token_hint is not an ID token this server issued/);
    });

    it('OIDC Core §3.1.2.1: scope values it does not understand (offline_access, address, an RP\'s own) are ignored on an OpenID request, and the token says what was kept; a plain OAuth request still gets invalid_scope', async () => {
      const browser = new Browser(t.publicUrl);
      const { params } = await authorize(browser, { scope: 'openid offline_access address profile rp:custom' });
      const tokens = await redeem(params.get('code')!);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.equal(tokens.body.scope, 'openid profile');
      const plain = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read offline_access', state: 'p' }));
      assert.equal(redirectParams(plain).get('error'), 'invalid_scope');
    });

    it('RP-Initiated Logout §6: without a hint the person confirms on a page; the confirmation needs the session-bound token', async () => {
      const browser = new Browser(t.publicUrl);
      await authorize(browser);
      const page = await browser.get(`/logout?${new URLSearchParams({ client_id: client.client_id, post_logout_redirect_uri: SIGNED_OUT, state: 'q' })}`);
      assert.equal(page.status, 200);
      assert.match(page.html, /Sign out\?/);
      const fields = hiddenFields(page.html);
      const forged = await browser.post('/logout/confirm', { ...fields, csrf_token: 'nope', decision: 'sign_out' });
      assert.equal(forged.status, 403);
      const done = await browser.post('/logout/confirm', { ...fields, decision: 'sign_out' });
      assert.equal(done.status, 303);
      assert.equal(done.headers.get('location'), `${SIGNED_OUT}?state=q`);
      const unknown = await browser.get(`/logout?${new URLSearchParams({ post_logout_redirect_uri: SIGNED_OUT })}`);
      assert.equal(unknown.status, 400, 'a redirect needs a client to check it against');
    });

    it('a form from another site (it carries no session cookie) signs nobody out of the browser: no cookie deletion is sent back; a stale session cookie is cleared', async () => {
      const form = (path: string, body: Record<string, string>, cookie?: string) =>
        fetch(`${t.publicUrl}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) }, body: new URLSearchParams(body) });
      for (const path of ['/logout', '/logout/confirm']) {
        const crossSite = await form(path, { client_id: client.client_id, decision: 'sign_out', csrf_token: 'x' });
        assert.equal(crossSite.status, 200, path);
        assert.equal(crossSite.headers.get('set-cookie'), null, `${path}: no deletion of a cookie the request did not carry`);
      }
      const stale = await form('/logout', { client_id: client.client_id }, 'gh_session=ended-or-unknown');
      assert.equal(stale.status, 200);
      assert.match(stale.headers.get('set-cookie') ?? '', /^gh_session=;.*Max-Age=0/i);
    });

    it('Back-Channel Logout: SCIM deactivation queues a logout token per signed-in client; failures retry on the webhook schedule, then park', async () => {
      const db = t.gatehouse.database.db;
      const pending = () => db.selectFrom('oidc_logout_deliveries').selectAll().where('state', '!=', 'delivered').execute();
      await until(async () => (await pending()).length === 0, 10_000, 'earlier logouts delivered');
      const browser = new Browser(t.publicUrl);
      await authorize(browser);
      receiver.answer(500);
      const deactivated = await scim.call('PATCH', `/Users/${userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      assert.equal(deactivated.status, 200);
      // One per live session of the person that signed in to the client (each test made one).
      const rows = await pending();
      assert.ok(rows.length >= 1);
      assert.ok(rows.every((r) => r.client_id === client.client_id && JSON.parse(r.claims).user_id === userId));
      const all = (check: (r: (typeof rows)[number]) => boolean) => async () => {
        const now = await pending();
        return now.length === rows.length && now.every(check);
      };
      await until(all((r) => r.failures === 1), 10_000, 'a first failed attempt at each');
      for (const row of await pending()) {
        assert.equal(row.state, 'pending');
        assert.ok(Number(row.next_attempt_at) > clock.now() + 4000, 'the next attempt waits the first step of the schedule');
      }
      clock.advance(6_000);
      await until(all((r) => r.failures === 2), 10_000, 'the second failure');
      clock.advance(12_000);
      await until(all((r) => r.state === 'parked'), 10_000, 'parked after the last step');
      assert.ok((await pending()).every((r) => /500/.test(r.last_error!)));
      receiver.answer(200);
      const reactivated = await scim.call('PATCH', `/Users/${userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] });
      assert.equal(reactivated.status, 200);
    });
  });
}
