import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { sha256Base64Url, sha256Hex } from '../../src/platform/crypto.ts';
import { Browser, authorizePath, basic, consent, countRows, createUser, postForm, redirectParams, registerClient, signIn } from './helpers.ts';

// RFC 7636 Appendix B
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`OAuth authorization code + PKCE (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let client: { client_id: string; client_secret: string };
    let user: { id: string };

    const params = (extra: Record<string, string> = {}) => ({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'invoices:read',
      state: 'xyz-state',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      ...extra,
    });

    /** Signs in (and consents when asked) and returns the code from the redirect. */
    async function getCode(browser: Browser, extra: Record<string, string> = {}, userName = 'ada'): Promise<string> {
      let page = await browser.get(authorizePath(params(extra)));
      if (page.status === 200 && page.html.includes('action="/authorize/login"')) page = await signIn(browser, page, userName, PASSWORD);
      if (page.status === 200 && page.html.includes('action="/authorize/consent"')) page = await consent(browser, page);
      assert.ok(page.status === 302 || page.status === 303, `expected a redirect, got ${page.status}`);
      const q = redirectParams(page);
      assert.equal(q.get('state'), 'xyz-state');
      assert.equal(q.get('iss'), t.publicUrl);
      return q.get('code')!;
    }

    const redeem = (code: string, extra: Record<string, string> = {}) =>
      postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER, ...extra }, { authorization: basic(client.client_id, client.client_secret) });

    before(async () => {
      t = await startTestApp(target);
      accountId = await createAccount(t);
      client = await registerClient(t, accountId, { client_name: 'Ledger App', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'invoices:read ledger:read payouts:write' });
      user = await createUser(t, accountId, 'ada', PASSWORD);
    });
    after(() => t.close());

    it('RFC 7636 Appendix B: S256 of the verifier is the challenge, and the code redeems with it', async () => {
      assert.equal(sha256Base64Url(VERIFIER), CHALLENGE);
      const browser = new Browser(t.publicUrl);
      const code = await getCode(browser);
      const response = await redeem(code);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.body.token_type, 'Bearer');
      assert.equal(response.body.scope, 'invoices:read');
      assert.match(response.body.refresh_token, /^gh_rt_/);
      const principal = await t.gatehouse.services.accessTokens.verify(response.body.access_token);
      assert.equal(principal?.userId, user.id);
      assert.equal(principal?.clientId, client.client_id);
    });

    it('the sign-in page: no framing, no caching, a CSRF cookie that is HttpOnly and SameSite=Lax', async () => {
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath(params({ scope: 'ledger:read' })));
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
      assert.equal(page.headers.get('cache-control'), 'no-store');
      assert.match(page.headers.get('set-cookie') ?? '', /gh_csrf=[^;]+; Path=\/authorize; HttpOnly; SameSite=Lax/);
      assert.match(page.html, /<label for="password">/);
      assert.match(page.html, /Ledger App/);
      const signedIn = await signIn(browser, page, 'ada', PASSWORD);
      assert.match(signedIn.headers.get('set-cookie') ?? '', /gh_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200/);
      assert.match(signedIn.html, /See your ledger entries/);
    });

    it('sign-in failures say only "wrong username or password" and start no session; a form without its CSRF token is refused', async () => {
      const inactive = await createUser(t, accountId, 'gone', PASSWORD);
      await t.gatehouse.database.db.updateTable('users').set({ active: 0 }).where('id', '=', inactive.id).execute();
      const otherAccount = await createAccount(t, 'Other');
      await createUser(t, otherAccount, 'grace', PASSWORD);
      for (const [name, pass] of [['ada', 'wrong password'], ['nobody', PASSWORD], ['gone', PASSWORD], ['grace', PASSWORD]] as const) {
        const browser = new Browser(t.publicUrl);
        const page = await browser.get(authorizePath(params()));
        const result = await signIn(browser, page, name, pass);
        assert.equal(result.status, 401, name);
        assert.match(result.html, /Wrong username or password\./, name);
        assert.equal(browser.cookies.has('gh_session'), false, name);
      }
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath(params()));
      browser.cookies.set('gh_csrf', 'forged-value-forged-value');
      const forged = await signIn(browser, page, 'ada', PASSWORD);
      assert.equal(forged.status, 403);
      assert.equal(browser.cookies.has('gh_session'), false);
    });

    it('consent is remembered per user, client and scope set; a broader set asks again; prompt=consent and prompt=login ask again', async () => {
      const browser = new Browser(t.publicUrl);
      await getCode(browser, { scope: 'invoices:read' });
      const again = await browser.get(authorizePath(params({ scope: 'invoices:read' })));
      assert.equal(again.status, 302, 'remembered: straight back with a code');
      assert.ok(redirectParams(again).get('code'));
      const broader = await browser.get(authorizePath(params({ scope: 'invoices:read ledger:read' })));
      assert.equal(broader.status, 200);
      assert.match(broader.html, /action="\/authorize\/consent"/);
      assert.match(broader.html, /See your ledger entries/);
      const forced = await browser.get(authorizePath(params({ scope: 'invoices:read', prompt: 'consent' })));
      assert.match(forced.html, /action="\/authorize\/consent"/);
      const login = await browser.get(authorizePath(params({ scope: 'invoices:read', prompt: 'login' })));
      assert.match(login.html, /action="\/authorize\/login"/);
      const silent = await browser.get(authorizePath(params({ scope: 'invoices:read', prompt: 'none' })));
      assert.equal(silent.status, 302);
      assert.ok(redirectParams(silent).get('code'));
      const silentBroader = await browser.get(authorizePath(params({ scope: 'ledger:read', prompt: 'none' })));
      assert.equal(redirectParams(silentBroader).get('error'), 'consent_required');
    });

    it('prompt=none without a session → login_required; Deny → access_denied, each with state and iss', async () => {
      const browser = new Browser(t.publicUrl);
      const none = await browser.get(authorizePath(params({ prompt: 'none' })));
      assert.equal(none.status, 302);
      const q = redirectParams(none);
      assert.equal(q.get('error'), 'login_required');
      assert.equal(q.get('state'), 'xyz-state');
      assert.equal(q.get('iss'), t.publicUrl);
      const page = await browser.get(authorizePath(params({ scope: 'ledger:read' })));
      const consentPage = await signIn(browser, page, 'ada', PASSWORD);
      const denied = await consent(browser, consentPage, 'deny');
      assert.equal(denied.status, 303);
      assert.equal(redirectParams(denied).get('error'), 'access_denied');
      assert.equal(redirectParams(denied).get('state'), 'xyz-state');
      assert.equal(redirectParams(denied).get('code'), null);
    });

    it('RFC 6749 §4.1.2.1: a bad client or redirect_uri shows an error page and never redirects (no open redirect)', async () => {
      const browser = new Browser(t.publicUrl);
      const before = await countRows(t, 'oauth_codes');
      const unsafe: Array<Record<string, string>> = [
        { client_id: 'client_unknown' },
        { redirect_uri: 'https://evil.example/callback' },
        { redirect_uri: `${REDIRECT}/more` },
        { redirect_uri: `${REDIRECT}?x=1` },
        { redirect_uri: '' },
      ];
      for (const extra of unsafe) {
        const page = await browser.get(authorizePath(params(extra)));
        assert.equal(page.status, 400, JSON.stringify(extra));
        assert.equal(page.headers.get('location'), null);
        assert.match(page.html, /This request cannot be completed/);
      }
      // RFC 8252 §7.3: a native app's loopback IP redirect, registered without a port, on the port it bound.
      const native = await registerClient(t, accountId, { client_name: 'CLI', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1/callback'], grant_types: ['authorization_code'], scope: 'invoices:read' });
      const onItsPort = await browser.get(authorizePath({ ...params(), client_id: native.client_id, redirect_uri: 'http://127.0.0.1:53123/callback' }));
      assert.equal(onItsPort.status, 200, 'the sign-in page');
      assert.match(onItsPort.html, /action="\/authorize\/login"/);
      const elsewhere = await browser.get(authorizePath({ ...params(), client_id: native.client_id, redirect_uri: 'http://127.0.0.1:53123/other' }));
      assert.equal(elsewhere.status, 400);
      const doubled = await browser.get(`${authorizePath(params())}&redirect_uri=${encodeURIComponent('https://evil.example/')}`);
      assert.equal(doubled.status, 400);
      assert.equal(doubled.headers.get('location'), null);
      assert.equal(await countRows(t, 'oauth_codes'), before);
    });

    it('RFC 6749 §4.1.2.1: every other error redirects to the registered URI with error, state and iss, and issues no code', async () => {
      const publicClient = await registerClient(t, accountId, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', scope: 'invoices:read' });
      const ccOnly = await registerClient(t, accountId, { redirect_uris: [REDIRECT], grant_types: ['authorization_code'], scope: 'invoices:read' });
      await t.gatehouse.database.db.updateTable('oauth_clients').set({ grant_types: '["client_credentials"]' }).where('id', '=', ccOnly.client_id).execute();
      const cases: Array<[Record<string, string>, string]> = [
        [{ response_type: 'token' }, 'unsupported_response_type'],
        [{ response_type: '' }, 'invalid_request'],
        [{ scope: 'scim' }, 'invalid_scope'],
        [{ scope: '' }, 'invalid_scope'],
        [{ code_challenge_method: 'plain' }, 'invalid_request'],
        [{ code_challenge: 'short' }, 'invalid_request'],
        [{ prompt: 'create' }, 'invalid_request'],
        [{ client_id: publicClient.client_id, code_challenge: '', code_challenge_method: '' }, 'invalid_request'],
        [{ client_id: ccOnly.client_id }, 'unauthorized_client'],
        // OIDC Core §6.1, §6.2: a request object is refused, not ignored.
        [{ request: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6ImxlZGdlcjpyZWFkIn0.' }, 'request_not_supported'],
        [{ request_uri: 'https://app.example/request.jwt' }, 'request_uri_not_supported'],
        // Multiple Response Types §2: the answer goes only where the client reads it.
        [{ response_mode: 'form_post' }, 'invalid_request'],
        [{ response_mode: 'fragment' }, 'invalid_request'],
      ];
      const browser = new Browser(t.publicUrl);
      const before = await countRows(t, 'oauth_codes');
      for (const [extra, error] of cases) {
        const query = params(extra);
        for (const [k, v] of Object.entries(query)) if (v === '' && k.startsWith('code_challenge')) delete (query as Record<string, string>)[k];
        const page = await browser.get(authorizePath(query));
        assert.equal(page.status, 302, JSON.stringify(extra));
        const location = new URL(page.headers.get('location')!);
        assert.equal(`${location.origin}${location.pathname}`, REDIRECT);
        assert.equal(location.searchParams.get('error'), error, JSON.stringify(extra));
        assert.equal(location.searchParams.get('state'), 'xyz-state');
        assert.equal(location.searchParams.get('iss'), t.publicUrl);
        assert.equal(location.searchParams.get('code'), null);
      }
      const repeated = await browser.get(`${authorizePath(params())}&scope=ledger:read`);
      assert.equal(redirectParams(repeated).get('error'), 'invalid_request');
      assert.equal(await countRows(t, 'oauth_codes'), before);
    });

    it('OpenID Connect Core §3.1.2.1: the authorization request by form POST runs as by GET, its redirects 303', async () => {
      const browser = new Browser(t.publicUrl);
      let page = await browser.post('/authorize', params());
      assert.equal(page.status, 200);
      assert.match(page.html, /action="\/authorize\/login"/);
      page = await signIn(browser, page, 'ada', PASSWORD);
      if (page.status === 200) page = await consent(browser, page);
      assert.equal(page.status, 303);
      const code = redirectParams(page).get('code')!;
      assert.equal((await redeem(code)).status, 200);
      // Signed in now: the POST goes straight back with a code, or with an error, each by 303.
      const again = await browser.post('/authorize', params());
      assert.equal(again.status, 303);
      assert.ok(redirectParams(again).get('code'));
      const refused = await browser.post('/authorize', params({ response_type: 'token' }));
      assert.equal(refused.status, 303);
      assert.equal(redirectParams(refused).get('error'), 'unsupported_response_type');
      const unsafe = await browser.post('/authorize', params({ redirect_uri: 'https://evil.example/cb' }));
      assert.equal(unsafe.status, 400, 'an unregistered redirect_uri is an error page, never a redirect');
      assert.equal(unsafe.headers.get('location'), null);
    });

    it('RFC 6749 §3.1.2: a registered redirect_uri keeps its query byte for byte; the answer is appended to it', async () => {
      const registered = "https://app.example/cb?tenant=a%20b&note='x'&empty=";
      const queried = await registerClient(t, accountId, { redirect_uris: [registered], grant_types: ['authorization_code'], scope: 'invoices:read' });
      const browser = new Browser(t.publicUrl);
      const ask = (extra: Record<string, string>) => browser.get(authorizePath({ ...params({ client_id: queried.client_id, redirect_uri: registered }), ...extra }));
      let page = await ask({ response_mode: 'query' });
      if (page.status === 200 && page.html.includes('action="/authorize/login"')) page = await signIn(browser, page, 'ada', PASSWORD);
      if (page.status === 200 && page.html.includes('action="/authorize/consent"')) page = await consent(browser, page);
      assert.equal(page.status, 303, page.html.slice(0, 200));
      const location = page.headers.get('location')!;
      assert.ok(location.startsWith(`${registered}&code=`), location);
      const answer = new URL(location).searchParams;
      assert.deepEqual([answer.get('tenant'), answer.get('note'), answer.get('state'), answer.get('iss')], ['a b', "'x'", 'xyz-state', t.publicUrl]);
      const refused = await ask({ response_mode: 'form_post' });
      assert.ok(refused.headers.get('location')!.startsWith(`${registered}&error=invalid_request`), refused.headers.get('location')!);
    });

    it('RFC 7636 §4.6 and RFC 6749 §5.2: each failing redemption → invalid_grant (or invalid_client), nothing issued', async () => {
      const browser = new Browser(t.publicUrl);
      const other = await registerClient(t, accountId, { redirect_uris: [REDIRECT], scope: 'invoices:read' });
      const code = await getCode(browser);
      const before = await countRows(t, 'access_tokens');
      const cases: Array<[string, Promise<Awaited<ReturnType<typeof redeem>>>, number, string]> = [
        ['wrong verifier', redeem(code, { code_verifier: 'A'.repeat(43) }), 400, 'invalid_grant'],
        ['missing verifier', redeem(code, { code_verifier: '' }), 400, 'invalid_grant'],
        ['other redirect_uri', redeem(code, { redirect_uri: 'https://app.example/other' }), 400, 'invalid_grant'],
        ['missing redirect_uri', redeem(code, { redirect_uri: '' }), 400, 'invalid_request'],
        ['unknown code', redeem('gh_ac_unknown'), 400, 'invalid_grant'],
        [
          'another client',
          postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basic(other.client_id, other.client_secret) }),
          400,
          'invalid_grant',
        ],
        [
          'wrong client secret',
          postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basic(client.client_id, 'nope') }),
          401,
          'invalid_client',
        ],
      ];
      for (const [name, pending, status, error] of cases) {
        const response = await pending;
        assert.equal(response.status, status, name);
        assert.equal(response.body.error, error, name);
      }
      assert.equal(await countRows(t, 'access_tokens'), before);
      // The code is still good for its rightful redemption.
      assert.equal((await redeem(code)).status, 200);
    });

    it('RFC 6749 §5.2: a code sent to a redirect URI the client no longer registers → invalid_grant, nothing issued; a loopback URI still registered on another port redeems', async () => {
      // A person of her own: the sign-in budget of ada's userName is the rate-limit test's.
      await createUser(t, accountId, 'lin', PASSWORD);
      const retired = 'https://app.example/retired';
      const kept = 'https://app.example/kept';
      const native = await registerClient(t, accountId, { redirect_uris: [retired, kept, 'http://127.0.0.1/native'], grant_types: ['authorization_code'], scope: 'invoices:read' });
      const browser = new Browser(t.publicUrl);
      const codeFor = (redirectUri: string) => getCode(browser, { client_id: native.client_id, redirect_uri: redirectUri }, 'lin');
      const redeemAt = (code: string, redirectUri: string) =>
        postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: VERIFIER }, { authorization: basic(native.client_id, native.client_secret) });
      const toRetired = await codeFor(retired);
      const toLoopback = await codeFor('http://127.0.0.1:49152/native');
      const toKept = await codeFor(kept);
      // The loopback URI registered again with a port: a native app's redirect still matches on any port (RFC 8252 §7.3).
      const changed = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${native.client_id}`, { redirect_uris: [kept, 'http://127.0.0.1:8080/native'] });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));

      const tokensBefore = await countRows(t, 'access_tokens');
      const grantsBefore = await countRows(t, 'oauth_grants');
      const refused = await redeemAt(toRetired, retired);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_grant');
      assert.match(refused.body.error_description, /redirect_uri .*no longer registered/);
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      assert.equal(await countRows(t, 'access_tokens'), tokensBefore);
      assert.equal(await countRows(t, 'oauth_grants'), grantsBefore);
      const stored = await t.gatehouse.database.db.selectFrom('oauth_codes').select(['consumed_at', 'redirect_uri']).where('code_digest', '=', sha256Hex(toRetired)).executeTakeFirstOrThrow();
      assert.deepEqual(stored, { consumed_at: null, redirect_uri: retired }, 'refused, not spent: no replay to revoke');
      assert.equal((await redeemAt(toRetired, retired)).body.error, 'invalid_grant', 'and refused again');

      const loopback = await redeemAt(toLoopback, 'http://127.0.0.1:49152/native');
      assert.equal(loopback.status, 200, JSON.stringify(loopback.body));
      assert.equal((await redeemAt(toKept, kept)).status, 200);
      assert.equal(await countRows(t, 'access_tokens'), tokensBefore + 2);
    });

    it('RFC 7662: a refresh token introspects active, for its client, with no access-token type', async () => {
      // A person of her own: the sign-in budget of ada's userName is the rate-limit test's.
      await createUser(t, accountId, 'grace', PASSWORD);
      const tokens = (await redeem(await getCode(new Browser(t.publicUrl), {}, 'grace'))).body;
      const seen = await postForm(`${t.publicUrl}/introspect`, { token: tokens.refresh_token, token_type_hint: 'refresh_token' }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(seen.status, 200);
      assert.equal(seen.body.active, true);
      assert.equal(seen.body.client_id, client.client_id);
      assert.equal(seen.body.token_type, undefined, 'token_type names access token types (RFC 6749 §7.1)');
      const access = await postForm(`${t.publicUrl}/introspect`, { token: tokens.access_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(access.body.token_type, 'Bearer');
    });

    it('a code lives 30 s: at 31 s it is refused; a replayed code is refused and revokes what it issued', async () => {
      const browser = new Browser(t.publicUrl);
      const late = await getCode(browser);
      t.clock.advance(31_000);
      const expired = await redeem(late);
      assert.equal(expired.status, 400);
      assert.equal(expired.body.error, 'invalid_grant');

      const code = await getCode(browser);
      const first = await redeem(code);
      assert.equal(first.status, 200);
      const replay = await redeem(code);
      assert.equal(replay.status, 400);
      assert.equal(replay.body.error, 'invalid_grant');
      assert.equal(await t.gatehouse.services.accessTokens.verify(first.body.access_token), undefined, 'the access token from the code is revoked');
      const refresh = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refresh.body.error, 'invalid_grant', 'so is its refresh token');
    });

    it('refresh narrows but never widens; a deactivated user loses tokens, refresh and session at once', async () => {
      const browser = new Browser(t.publicUrl);
      const bob = await createUser(t, accountId, 'bob', PASSWORD);
      const page = await browser.get(authorizePath(params({ scope: 'invoices:read ledger:read' })));
      const consentPage = await signIn(browser, page, 'bob', PASSWORD);
      const redirect = await consent(browser, consentPage);
      const tokens = (await redeem(redirectParams(redirect).get('code')!)).body;
      assert.equal(tokens.scope, 'invoices:read ledger:read');
      const refresh = (rt: string, scope?: string) =>
        postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: rt, ...(scope ? { scope } : {}) }, { authorization: basic(client.client_id, client.client_secret) });
      const narrowed = await refresh(tokens.refresh_token, 'ledger:read');
      assert.equal(narrowed.status, 200);
      assert.equal(narrowed.body.scope, 'ledger:read');
      const widened = await refresh(narrowed.body.refresh_token, 'ledger:read payouts:write');
      assert.equal(widened.status, 400);
      assert.equal(widened.body.error, 'invalid_scope');
      const full = await refresh(narrowed.body.refresh_token);
      assert.equal(full.body.scope, 'invoices:read ledger:read', 'the consented set, not the narrowed one');

      const { revokeUserAccess } = await import('../../src/oauth/user-access.ts');
      await t.gatehouse.database.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ active: 0 }).where('id', '=', bob.id).execute();
        await revokeUserAccess(trx, accountId, bob.id, t.clock.now(), 'deactivated');
      });
      assert.equal(await t.gatehouse.services.accessTokens.verify(full.body.access_token), undefined);
      const refused = await refresh(full.body.refresh_token);
      assert.equal(refused.body.error, 'invalid_grant');
      const silent = await browser.get(authorizePath(params({ prompt: 'none' })));
      assert.equal(redirectParams(silent).get('error'), 'login_required', 'the session ended');
    });

    it('a refresh stays within the client’s registration: scopes the operator took away are dropped, and none left → invalid_scope', async () => {
      const narrowing = await registerClient(t, accountId, { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'invoices:read ledger:read' });
      const auth = { authorization: basic(narrowing.client_id, narrowing.client_secret) };
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: narrowing.client_id, redirect_uri: REDIRECT, scope: 'invoices:read ledger:read', state: 's' }));
      const redirect = await consent(browser, await signIn(browser, page, 'ada', PASSWORD));
      const tokens = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: redirectParams(redirect).get('code')!, redirect_uri: REDIRECT }, auth);
      assert.equal(tokens.body.scope, 'invoices:read ledger:read');
      const patch = (scope: string) => t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${narrowing.client_id}`, { scope });

      assert.equal((await patch('ledger:read')).status, 200);
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, auth);
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      assert.equal(refreshed.body.scope, 'ledger:read');
      const stored = await t.gatehouse.database.db.selectFrom('access_tokens').select('scope').where('token_digest', '=', sha256Hex(refreshed.body.access_token)).executeTakeFirstOrThrow();
      assert.equal(stored.scope, 'ledger:read');

      assert.equal((await patch('payouts:read')).status, 200);
      const before = await countRows(t, 'access_tokens');
      const refused = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, auth);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_scope');
      assert.equal(refused.headers.get('cache-control'), 'no-store');
      assert.equal(await countRows(t, 'access_tokens'), before);
      const spent = await t.gatehouse.database.db.selectFrom('oauth_refresh_tokens').select(['rotated_at', 'revoked_at']).where('token_digest', '=', sha256Hex(refreshed.body.refresh_token)).executeTakeFirstOrThrow();
      assert.deepEqual(spent, { rotated_at: null, revoked_at: null }, 'a refused refresh does not spend the refresh token');

      // Given back its scope, the client refreshes with the same token: no replay, no revoked grant.
      assert.equal((await patch('ledger:read')).status, 200);
      const again = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token }, auth);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.equal(again.body.scope, 'ledger:read');
    });

    it('sign-in attempts are rate-limited per userName: 429 with Retry-After and RateLimit headers', async () => {
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath(params()));
      let last;
      for (let i = 0; i < 11; i++) last = await signIn(browser, page, 'ratelimited', 'wrong password');
      assert.equal(last!.status, 429);
      assert.ok(Number(last!.headers.get('retry-after')) > 0);
      assert.equal(last!.headers.get('ratelimit-limit'), '10');
      assert.equal(last!.headers.get('ratelimit-remaining'), '0');
      assert.match(last!.html, /Too many sign-in attempts/);
    });

    it('a stranger spending a userName’s sign-in attempts does not lock its person out of a browser they signed in from', async () => {
      await createUser(t, accountId, 'lockout', PASSWORD);
      await createUser(t, accountId, 'neighbour', PASSWORD);
      const signedInAs = async (browser: Browser, userName: string) => {
        const answer = await signIn(browser, await browser.get(authorizePath(params({ prompt: 'login' }))), userName, PASSWORD);
        assert.equal(answer.status, 200, `${userName}: the consent page`);
        assert.ok(browser.cookies.get('gh_device'));
      };
      const mine = new Browser(t.publicUrl);
      await signedInAs(mine, 'lockout');
      // Someone else, elsewhere, spends the attempts in that name, wrong password each time.
      const stranger = new Browser(t.publicUrl);
      const strangerPage = await stranger.get(authorizePath(params()));
      let last;
      for (let i = 0; i < 11; i++) last = await signIn(stranger, strangerPage, 'LockOut ', 'a guess');
      assert.equal(last!.status, 429);
      assert.equal((await signIn(stranger, strangerPage, 'lockout', PASSWORD)).status, 429, 'an unknown browser stays held back, right password or not');
      // A cookie made up, or one from another person's sign-in, is no known device.
      const forged = new Browser(t.publicUrl);
      const forgedPage = await forged.get(authorizePath(params()));
      forged.cookies.set('gh_device', 'bm9uY2U.bm90LWEtbWFj');
      assert.equal((await signIn(forged, forgedPage, 'lockout', PASSWORD)).status, 429);
      const neighbour = new Browser(t.publicUrl);
      await signedInAs(neighbour, 'neighbour');
      const borrowed = new Browser(t.publicUrl);
      const borrowedPage = await borrowed.get(authorizePath(params()));
      borrowed.cookies.set('gh_device', neighbour.cookies.get('gh_device')!);
      assert.equal((await signIn(borrowed, borrowedPage, 'lockout', PASSWORD)).status, 429);
      // The person's own browser signs in.
      const signedIn = await signIn(mine, await mine.get(authorizePath(params({ prompt: 'login' }))), 'lockout', PASSWORD);
      assert.notEqual(signedIn.status, 429, signedIn.html.slice(0, 200));
      assert.ok(signedIn.status === 200 || signedIn.status === 303, String(signedIn.status));
    });
  });

  describe(`OAuth scopes bounded by the user's roles (${target.kind})`, () => {
    let t: TestApp;
    const bound = new Map<string, Set<string>>();
    before(async () => {
      t = await startTestApp(target, { userScopeBound: async (_accountId, userId) => bound.get(userId) ?? null });
    });
    after(() => t.close());

    it('the consent page offers only scopes within the bound; refresh re-applies a changed bound', async () => {
      const accountId = await createAccount(t);
      const client = await registerClient(t, accountId, { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'invoices:read payouts:write' });
      const user = await createUser(t, accountId, 'eve', PASSWORD);
      bound.set(user.id, new Set(['invoices:read']));
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read payouts:write', state: 's' }));
      const consentPage = await signIn(browser, page, 'eve', PASSWORD);
      assert.match(consentPage.html, /See your invoices/);
      assert.doesNotMatch(consentPage.html, /Send payouts/);
      const redirect = await consent(browser, consentPage);
      const auth = { authorization: basic(client.client_id, client.client_secret) };
      const tokens = (await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: redirectParams(redirect).get('code')!, redirect_uri: REDIRECT }, auth)).body;
      assert.equal(tokens.scope, 'invoices:read');
      bound.set(user.id, new Set());
      const refused = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth);
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error, 'invalid_scope');
    });
  });
}

for (const target of databaseTargets()) {
  describe(`OAuth pages behind https (${target.kind})`, () => {
    it('with an https issuer the session and CSRF cookies are __Host- cookies (Secure, Path=/, no Domain), and only those names are read', async () => {
      const t = await startTestApp(target, { env: { GATEHOUSE_ISSUER: 'https://auth.example.test' } });
      try {
        const accountId = await createAccount(t);
        const client = await registerClient(t, accountId, { redirect_uris: [REDIRECT], scope: 'invoices:read' });
        await createUser(t, accountId, 'ada', PASSWORD);
        const browser = new Browser(t.publicUrl);
        const request = authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's' });
        const page = await browser.get(request);
        assert.match(page.headers.get('set-cookie') ?? '', /^__Host-gh_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
        const consentPage = await signIn(browser, page, 'ada', PASSWORD);
        const [sessionCookie, deviceCookie] = consentPage.headers.getSetCookie();
        assert.match(sessionCookie ?? '', /^__Host-gh_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/);
        assert.match(deviceCookie ?? '', /^__Host-gh_device=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=15552000; Secure$/);
        const redirect = await consent(browser, consentPage);
        assert.equal(redirectParams(redirect).get('iss'), 'https://auth.example.test');
        assert.deepEqual([...browser.cookies.keys()].sort(), ['__Host-gh_csrf', '__Host-gh_device', '__Host-gh_session']);

        // The same session secret under the unprefixed name (what a sibling origin or an http
        // page could plant) is not read: the browser is asked to sign in.
        const planted = new Browser(t.publicUrl);
        planted.cookies.set('gh_session', browser.cookies.get('__Host-gh_session')!);
        const again = await planted.get(request);
        assert.equal(again.status, 200);
        assert.match(again.html, /action="\/authorize\/login"/);
        assert.match(again.headers.get('set-cookie') ?? '', /^__Host-gh_csrf=/);
      } finally {
        await t.close();
      }
    });

    it('with an http issuer (local development) the cookies keep their plain names and are not Secure', async () => {
      const t = await startTestApp(target);
      try {
        const accountId = await createAccount(t);
        const client = await registerClient(t, accountId, { redirect_uris: [REDIRECT], scope: 'invoices:read' });
        await createUser(t, accountId, 'ada', PASSWORD);
        const browser = new Browser(t.publicUrl);
        const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's' }));
        assert.match(page.headers.get('set-cookie') ?? '', /^gh_csrf=[^;]+; Path=\/authorize; HttpOnly; SameSite=Lax$/);
        const consentPage = await signIn(browser, page, 'ada', PASSWORD);
        const [sessionCookie, deviceCookie] = consentPage.headers.getSetCookie();
        assert.match(sessionCookie ?? '', /^gh_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/);
        assert.match(deviceCookie ?? '', /^gh_device=[^;]+; Path=\/authorize; HttpOnly; SameSite=Lax; Max-Age=15552000$/);
        const redirect = await consent(browser, consentPage);
        assert.ok(redirectParams(redirect).get('code'));
      } finally {
        await t.close();
      }
    });
  });
}
