/**
 * The authorization pages under attack: security headers on every page and token answer
 * (clickjacking, sniffing, referrer leaks, caching), no open redirect (RFC 6749 §4.1.2.1,
 * RFC 9700 §4.1: exact redirect_uri matching), and CSRF on the sign-in and consent forms
 * (RFC 6749 §10.12): a form without the token, with a wrong one, or with another session's
 * token is refused and grants nothing.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { Browser, authorizePath, basic, consent, createUser, hiddenFields, postForm, registerClient, signIn } from '../oauth/helpers.ts';
import { stateDigest } from '../fuzz/support.ts';
import { sha256Base64Url } from '../../src/platform/crypto.ts';

const REDIRECT = 'https://app.example/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const PASSWORD = 'correct horse battery';
const GRANTING = ['oauth_sessions', 'oauth_consents', 'oauth_codes', 'oauth_grants', 'access_tokens', 'oauth_refresh_tokens'] as const;

function assertPageHeaders(headers: Headers, context: string) {
  assert.match(headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, `${context}: CSP frame-ancestors`);
  assert.match(headers.get('content-security-policy') ?? '', /default-src 'none'/, `${context}: CSP default-src`);
  assert.equal(headers.get('x-frame-options'), 'DENY', `${context}: X-Frame-Options`);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', `${context}: nosniff`);
  assert.equal(headers.get('referrer-policy'), 'no-referrer', `${context}: Referrer-Policy`);
  assert.equal(headers.get('cache-control'), 'no-store', `${context}: Cache-Control`);
}

for (const target of databaseTargets()) {
  describe(`security: pages, redirects and CSRF (${target.kind})`, () => {
    let t: TestApp;
    let client: { client_id: string; client_secret: string };
    const params = (extra: Record<string, string> = {}) => ({
      response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 'st',
      code_challenge: sha256Base64Url(VERIFIER), code_challenge_method: 'S256', ...extra,
    });

    before(async () => {
      t = await startTestApp(target);
      const accountId = await createAccount(t);
      client = await registerClient(t, accountId, { client_name: 'Pages App', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], scope: 'invoices:read ledger:read' });
      await createUser(t, accountId, 'ada', PASSWORD);
    });
    after(() => t.close());

    it('every page (sign-in, consent, error, refused form, wrong password, unparsable form) forbids framing, sniffing, referrers and caching', async () => {
      const browser = new Browser(t.publicUrl);
      const signInPage = await browser.get(authorizePath(params()));
      assertPageHeaders(signInPage.headers, 'sign-in page');
      const wrong = await signIn(browser, signInPage, 'ada', 'wrong');
      assert.equal(wrong.status, 401);
      assertPageHeaders(wrong.headers, 'wrong password page');
      const consentPage = await signIn(browser, signInPage, 'ada', PASSWORD);
      assert.match(consentPage.html, /action="\/authorize\/consent"/);
      assertPageHeaders(consentPage.headers, 'consent page');
      const errorPage = await browser.get(authorizePath(params({ redirect_uri: 'https://evil.example/cb' })));
      assert.equal(errorPage.status, 400);
      assertPageHeaders(errorPage.headers, 'error page');
      const noCsrf = await browser.post('/authorize/consent', { ...hiddenFields(consentPage.html), csrf_token: '', decision: 'allow' });
      assert.equal(noCsrf.status, 403);
      assertPageHeaders(noCsrf.headers, 'refused form page');
      const notAForm = await fetch(`${t.publicUrl}/authorize/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(notAForm.status, 415);
      assertPageHeaders(notAForm.headers, 'unparsable form page');
      const nul = await fetch(`${t.publicUrl}/authorize?client_id=%00`);
      assert.equal(nul.status, 400);
      assertPageHeaders(nul.headers, 'refused query page');
    });

    it('token, introspection and revocation answers are never cached (RFC 6749 §5.1), errors included', async () => {
      const auth = { authorization: basic(client.client_id, client.client_secret) };
      const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, auth);
      const failed = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(client.client_id, 'wrong') });
      const introspected = await postForm(`${t.publicUrl}/introspect`, { token: issued.body.access_token }, auth);
      const revoked = await postForm(`${t.publicUrl}/revoke`, { token: issued.body.access_token }, auth);
      for (const [name, response, status] of [['token', issued, 200], ['token error', failed, 401], ['introspection', introspected, 200], ['revocation', revoked, 200]] as const) {
        assert.equal(response.status, status, name);
        assert.equal(response.headers.get('cache-control'), 'no-store', name);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', name);
      }
      assert.equal(issued.headers.get('pragma'), 'no-cache');
    });

    it('no open redirect: unregistered, prefix, differently-cased, encoded, userinfo, fragment and port variants → the error page, never a Location', async () => {
      const before = await stateDigest(t.gatehouse.database.db, GRANTING);
      const variants = [
        'https://evil.example/callback', 'https://app.example/callback/../../evil', 'https://app.example/callbackx', 'https://app.example/callback/extra',
        'https://app.example/callback?next=https://evil.example', 'HTTPS://APP.EXAMPLE/callback', 'https://APP.example/callback', 'https://app.example/Callback',
        'https://app.example/%63allback', 'https%3A%2F%2Fapp.example%2Fcallback', 'https://app.example%2F@evil.example/callback', 'https://app.example@evil.example/callback',
        'https://evil.example#@app.example/callback', 'https://evil.example\\@app.example/callback', 'https://app.example/callback#fragment', 'https://app.example:443/callback',
        'https://app.example./callback', 'http://app.example/callback', '//app.example/callback', '/callback', 'javascript:alert(1)//https://app.example/callback', ' https://app.example/callback',
      ];
      const browser = new Browser(t.publicUrl);
      const signInPage = await browser.get(authorizePath(params()));
      const consentPage = await signIn(browser, signInPage, 'ada', PASSWORD);
      for (const redirect_uri of variants) {
        for (const extra of [{}, { response_type: 'token' }, { scope: 'not-a-scope' }, { prompt: 'none' }] as Array<Record<string, string>>) {
          const response = await browser.get(authorizePath(params({ ...extra, redirect_uri })));
          const context = `GET /authorize redirect_uri=${redirect_uri} ${JSON.stringify(extra)}`;
          assert.equal(response.status, 400, `${context}: ${response.status} ${response.headers.get('location')}`);
          assert.equal(response.headers.get('location'), null, context);
          assert.match(response.html, /This request cannot be completed/, context);
        }
        // The forms re-check the redirect_uri they carry: a tampered hidden field cannot redirect either.
        for (const [path, page, extra] of [['/authorize/login', signInPage, { username: 'ada', password: PASSWORD }], ['/authorize/consent', consentPage, { decision: 'deny' }]] as const) {
          const response = await browser.post(path, { ...hiddenFields(page.html), ...extra, redirect_uri });
          assert.equal(response.status, 400, `POST ${path} redirect_uri=${redirect_uri}: ${response.status}`);
          assert.equal(response.headers.get('location'), null);
        }
      }
      // A mismatched redirect_uri at the token endpoint is invalid_grant, not a redirect.
      assert.deepEqual(await stateDigest(t.gatehouse.database.db, ['oauth_consents', 'oauth_codes', 'oauth_grants', 'access_tokens', 'oauth_refresh_tokens']), Object.fromEntries(Object.entries(before).filter(([k]) => k !== 'oauth_sessions')));
    });

    it('CSRF on sign-in: no token, a wrong token, or another browser\'s token → 403, no session started', async () => {
      const victim = new Browser(t.publicUrl);
      const attacker = new Browser(t.publicUrl);
      const victimPage = await victim.get(authorizePath(params()));
      const attackerPage = await attacker.get(authorizePath(params()));
      const before = await stateDigest(t.gatehouse.database.db, GRANTING);
      const fields = hiddenFields(victimPage.html);
      for (const [name, csrf] of [['none', undefined], ['empty', ''], ['wrong', 'A'.repeat(32)], ['another browser\'s', hiddenFields(attackerPage.html).csrf_token!], ['one character off', `${fields.csrf_token!.slice(0, -1)}${fields.csrf_token!.endsWith('A') ? 'B' : 'A'}`], ['a prefix', fields.csrf_token!.slice(0, 10)]] as const) {
        const form: Record<string, string> = { ...fields, username: 'ada', password: PASSWORD };
        if (csrf === undefined) delete form.csrf_token;
        else form.csrf_token = csrf;
        const response = await victim.post('/authorize/login', form);
        assert.equal(response.status, 403, `${name} CSRF token`);
        assert.equal(victim.cookies.has('gh_session'), false, `${name}: a session started`);
      }
      // No cookie at all (a cross-site post that carries none) with a well-formed token.
      const bare = await postForm(`${t.publicUrl}/authorize/login`, { ...fields, username: 'ada', password: PASSWORD });
      assert.equal(bare.status, 403);
      assert.deepEqual(await stateDigest(t.gatehouse.database.db, GRANTING), before);
    });

    it('CSRF on consent: no token, a wrong token, or another session\'s token → 403, nothing consented and no code', async () => {
      const victim = new Browser(t.publicUrl);
      const consentPage = await signIn(victim, await victim.get(authorizePath(params({ scope: 'ledger:read' }))), 'ada', PASSWORD);
      assert.match(consentPage.html, /action="\/authorize\/consent"/);
      const attacker = new Browser(t.publicUrl);
      const attackerConsent = await signIn(attacker, await attacker.get(authorizePath(params({ scope: 'ledger:read' }))), 'ada', PASSWORD);
      const before = await stateDigest(t.gatehouse.database.db, GRANTING);
      const fields = hiddenFields(consentPage.html);
      for (const [name, csrf] of [['none', undefined], ['wrong', 'B'.repeat(32)], ['another session\'s', hiddenFields(attackerConsent.html).csrf_token!]] as const) {
        const form: Record<string, string> = { ...fields, decision: 'allow' };
        if (csrf === undefined) delete form.csrf_token;
        else form.csrf_token = csrf;
        const response = await victim.post('/authorize/consent', form);
        assert.equal(response.status, 403, `${name} CSRF token`);
        assert.equal(response.headers.get('location'), null, `${name}: redirected`);
      }
      // A planted cookie: the victim's session with a gh_csrf cookie and a matching token the
      // attacker chose (enough to pass a plain double submit) is refused, since the consent
      // token is bound to the session.
      const planted = attacker.cookies.get('gh_csrf')!;
      const swapped = await fetch(`${t.publicUrl}/authorize/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `gh_session=${victim.cookies.get('gh_session')}; gh_csrf=${planted}` },
        body: new URLSearchParams({ ...fields, csrf_token: planted, decision: 'allow' }).toString(),
        redirect: 'manual',
      });
      assert.equal(swapped.status, 403);
      assert.deepEqual(await stateDigest(t.gatehouse.database.db, GRANTING), before);
      // The genuine form still works afterwards.
      const allowed = await consent(victim, consentPage);
      assert.equal(allowed.status, 303);
      assert.match(allowed.headers.get('location') ?? '', /^https:\/\/app\.example\/callback\?code=/);
    });
  });
}
