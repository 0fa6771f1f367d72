/**
 * The sign-in pages as an account brands them, over HTTP: name, logo and colour escaped into
 * the page, the CSP allowing images from data: only, the branding read once per few seconds
 * (never on the redirect path), and "Not you? Sign out" bound to the session.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, PNG_PIXEL } from '../helpers/fixtures.ts';
import { Browser, authorizePath, consent, createUser, hiddenFields, redirectParams, registerClient, signIn } from './helpers.ts';

const REDIRECT = 'https://app.example/cb';

for (const target of databaseTargets()) {
  describe(`Sign-in pages branded per account (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let clientId: string;
    let params: Record<string, string>;
    before(async () => {
      t = await startTestApp(target);
      accountId = await createAccount(t, 'Plain');
      await createUser(t, accountId, 'ada');
      await createUser(t, accountId, 'bob');
      clientId = (await registerClient(t, accountId, { client_name: 'App', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], scope: 'invoices:read' })).client_id as string;
      params = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'invoices:read', state: 'st', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSzJ5eDXw', code_challenge_method: 'S256' };
    });
    after(() => t?.close());

    it('the page shows the name (escaped), the logo as data: and the colour; the CSP allows data: images and nothing else', async () => {
      await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { name: 'Acme <b>&</b> Co', brand_color: '#003366', logo: PNG_PIXEL });
      t.clock.advance(10_000);
      const page = await new Browser(t.publicUrl).get(authorizePath(params));
      assert.equal(page.status, 200);
      assert.match(page.html, /<header><img src="data:image\/png;base64,[^"]+" alt="Acme &lt;b&gt;&amp;&lt;\/b&gt; Co logo"><p>Acme &lt;b&gt;&amp;&lt;\/b&gt; Co<\/p><\/header>/);
      assert.match(page.html, /:root\{--brand:#003366;--on-brand:#ffffff\}/);
      const csp = page.headers.get('content-security-policy')!;
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /img-src data:;/);
      assert.doesNotMatch(csp, /script-src|img-src[^;]*(https?:|\*)/);
      assert.doesNotMatch(page.html, /class="who"/, 'no session, no "Not you?"');
    });

    it('the branding is read once per few seconds, not per page; a change on this node shows at once', async () => {
      const queries: string[] = [];
      const read = t.gatehouse.services.accounts.store.find;
      t.gatehouse.services.accounts.store.find = async (id: string) => {
        queries.push(id);
        return read(id);
      };
      try {
        t.clock.advance(10_000);
        for (let i = 0; i < 3; i++) assert.equal((await new Browser(t.publicUrl).get(authorizePath(params))).status, 200);
        assert.equal(queries.length, 1);
        await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { name: 'Renamed' });
        const page = await new Browser(t.publicUrl).get(authorizePath(params));
        assert.match(page.html, /<p>Renamed<\/p>/);
      } finally {
        t.gatehouse.services.accounts.store.find = read;
      }
    });

    it('"Not you? Sign out": only with the session-bound token; ends the session and shows the sign-in page for the same request', async () => {
      const browser = new Browser(t.publicUrl);
      let page = await browser.get(authorizePath(params));
      page = await signIn(browser, page, 'ada', 'correct horse battery');
      assert.equal(page.status, 200);
      assert.match(page.html, /Signed in as <strong>ada<\/strong>\. Not you\?/);
      const switchForm = hiddenFields(page.html, 1);
      assert.equal(switchForm.client_id, clientId);

      // With the session, prompt=login shows the sign-in page and who is signed in.
      const again = await browser.get(authorizePath({ ...params, prompt: 'login' }));
      assert.match(again.html, /<h1>Sign in<\/h1>/);
      assert.match(again.html, /Signed in as <strong>ada<\/strong>/);

      const forged = await browser.post('/authorize/switch', { ...switchForm, csrf_token: 'A'.repeat(43) });
      assert.equal(forged.status, 403);
      const attacker = new Browser(t.publicUrl);
      const attackerPage = await signIn(attacker, await attacker.get(authorizePath(params)), 'bob', 'correct horse battery');
      const theirs = await browser.post('/authorize/switch', { ...switchForm, csrf_token: hiddenFields(attackerPage.html, 1).csrf_token! });
      assert.equal(theirs.status, 403, "another session's token");
      const sessions = () => t.gatehouse.database.db.selectFrom('oauth_sessions').innerJoin('users', 'users.id', 'oauth_sessions.user_id').select(['oauth_sessions.ended_at']).where('users.user_name', '=', 'ada').execute();
      assert.ok((await sessions()).some((s) => s.ended_at === null));

      const switched = await browser.post('/authorize/switch', switchForm);
      assert.equal(switched.status, 303);
      const location = new URL(switched.headers.get('location')!, t.publicUrl);
      assert.equal(location.pathname, '/authorize');
      assert.deepEqual(Object.fromEntries(location.searchParams), params);
      assert.ok((await sessions()).every((s) => s.ended_at !== null), 'the session ended');
      const signInAgain = await browser.get(`${location.pathname}${location.search}`);
      assert.match(signInAgain.html, /<h1>Sign in<\/h1>/);
      assert.doesNotMatch(signInAgain.html, /class="who"/);
      // The other person signs in and the flow goes on to the code.
      let next = await signIn(browser, signInAgain, 'bob', 'correct horse battery');
      if (next.status === 200) next = await consent(browser, next);
      assert.equal(next.status, 303);
      assert.ok(redirectParams(next).get('code'));
      const trail = await t.admin('GET', `/admin/v1/audit-events?account=${accountId}&action=session.ended`);
      assert.equal(trail.body.data.length, 1);
    });
  });
}
