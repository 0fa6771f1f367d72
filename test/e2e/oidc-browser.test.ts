/**
 * End to end, OpenID Connect Core 1.0 on the code flow with unchanged real relying parties,
 * through the real sign-in and consent pages in headless Chromium:
 * - openid-client with its default discovery (/.well-known/openid-configuration), PKCE,
 *   state and nonce, ID token validation, userinfo, refresh with a new ID token, and
 *   RP-initiated logout from the end-session URL it builds;
 * - oauth4webapi in OIDC mode: a public client with RS256 ID tokens and a pairwise `sub`.
 * The person is provisioned through SCIM, so the claims come from their SCIM profile.
 * The pages carry the account's branding (name, logo, colour), pass axe-core with no violation,
 * fetch nothing from anyone but Gatehouse, and "Not you? Sign out" ends the session.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import * as oauth from 'oauth4webapi';
import { decodeProtectedHeader } from 'jose';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, USER } from '../scim/scim-client.ts';
import { registerClient } from '../oauth/helpers.ts';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { PNG_PIXEL } from '../helpers/fixtures.ts';

/** axe-core's source, injected into the page under test as it is served (its CSP stays in force). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core (WCAG 2.x A and AA, and best practices) on the page; returns the violations. */
async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[]; passes: unknown[] }> }; document: unknown };
    const outcome = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return { passes: outcome.passes.length, violations: outcome.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })) };
  });
  // Rules that passed show that axe ran on the page (contrast, labels, landmarks, headings…).
  assert.ok(result.passes >= 10, `axe-core checked the page (${result.passes} rules passed)`);
  return result.violations;
}

/** The application's callback: records each URL the browser was sent to. */
async function startCallback(): Promise<{ origin: string; next(path: string): Promise<URL>; close(): Promise<void> }> {
  const waiting = new Map<string, (url: URL) => void>();
  const server = http.createServer((request, response) => {
    const url = new URL(request.url!, `http://${request.headers.host}`);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Back at the app</title><p>Done</p>');
    waiting.get(url.pathname)?.(url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    next: (path) => new Promise<URL>((resolve) => waiting.set(path, resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function signInAndAllow(page: Page, userName: string, password: string) {
  assert.equal(await page.title(), 'Sign in · Gatehouse');
  await page.getByLabel('Username').fill(userName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
  await page.getByRole('button', { name: 'Allow' }).click();
}

const chromiumLookup = findChromium();
const skip = skipWithoutChromium(chromiumLookup);
const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`OpenID Connect in a real browser with openid-client and oauth4webapi (${target.kind})`, () => {
    let t: TestApp;
    let browser: Browser;
    let app: Awaited<ReturnType<typeof startCallback>>;
    let accountId: string;
    let userId: string;
    before(async () => {
      if (skip) return;
      const executablePath = chromiumExecutable(chromiumLookup);
      t = await startTestApp(target);
      app = await startCallback();
      browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--headless', '--disable-background-networking'] });
      const scim = await scimClient(t, 'Acme');
      accountId = scim.accountId;
      const created = await scim.call('POST', '/Users', {
        schemas: [USER],
        userName: 'ada@example.com',
        externalId: 'ext-ada',
        password: PASSWORD,
        name: { givenName: 'Ada', familyName: 'Lovelace' },
        displayName: 'Ada Lovelace',
        emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
        phoneNumbers: [{ value: '+44 20 7946 0000', type: 'work' }],
        locale: 'en-GB',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      userId = created.body.id as string;
    });
    after(async () => {
      await browser?.close();
      await app?.close();
      await t?.close();
    });

    it('openid-client: default discovery, code + PKCE + nonce, ID token, userinfo, refresh with a new ID token', { skip }, async () => {
      const redirectUri = `${app.origin}/callback`;
      const reg = await registerClient(t, accountId, {
        client_name: 'Ledger Viewer',
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [`${app.origin}/signed-out`],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'openid profile email phone invoices:read',
      });
      // Unchanged: the library's own discovery, its default client authentication (client_secret_post).
      const config = await client.discovery(new URL(t.config.issuer), reg.client_id as string, reg.client_secret as string, undefined, { execute: [client.allowInsecureRequests] });
      assert.equal(config.serverMetadata().userinfo_endpoint, `${t.config.issuer}/userinfo`);

      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email phone invoices:read',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      const arrived = app.next('/callback');
      await page.goto(url.href);
      await signInAndAllow(page, 'ada@example.com', PASSWORD);
      const callbackUrl = await arrived;

      const tokens = await client.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
      const claims = tokens.claims()!;
      assert.equal(claims.iss, t.config.issuer);
      assert.equal(claims.sub, userId, 'sub is the stable user id, never the userName or e-mail');
      assert.equal(claims.aud, reg.client_id);
      assert.equal(claims.nonce, nonce);
      assert.equal(typeof claims.auth_time, 'number');
      assert.equal(typeof claims.at_hash, 'string');
      assert.equal(decodeProtectedHeader(tokens.id_token!).alg, 'ES256');
      assert.deepEqual(tokens.scope?.split(' ').sort(), ['email', 'invoices:read', 'openid', 'phone', 'profile']);

      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      assert.deepEqual(
        { ...userinfo, updated_at: undefined },
        {
          sub: userId,
          name: 'Ada Lovelace',
          given_name: 'Ada',
          family_name: 'Lovelace',
          preferred_username: 'ada@example.com',
          locale: 'en-GB',
          updated_at: undefined,
          email: 'ada@example.com',
          email_verified: false,
          phone_number: '+44 20 7946 0000',
          phone_number_verified: false,
        },
      );

      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      const again = refreshed.claims()!;
      assert.equal(again.sub, claims.sub);
      assert.equal(again.auth_time, claims.auth_time, 'auth_time is the sign-in, not the refresh');
      assert.equal(again.nonce, undefined);
      assert.notEqual(refreshed.id_token, tokens.id_token);

      // RP-initiated logout as the library builds it: straight back, with state, signed out.
      assert.equal(config.serverMetadata().end_session_endpoint, `${t.config.issuer}/logout`);
      const signedOut = app.next('/signed-out');
      await page.goto(client.buildEndSessionUrl(config, { id_token_hint: refreshed.id_token!, post_logout_redirect_uri: `${app.origin}/signed-out`, state: 'bye' }).href);
      assert.equal((await signedOut).searchParams.get('state'), 'bye');
      const session = await t.gatehouse.database.db.selectFrom('oauth_sessions').select('ended_at').where('id', '=', claims.sid as string).executeTakeFirstOrThrow();
      assert.notEqual(session.ended_at, null);
      await context.close();
    });

    it("the account's branding: name, logo and colour on the pages, axe-core clean, nothing fetched from elsewhere; Not you? signs out", { skip }, async () => {
      const patched = await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { name: 'Acme Payments', brand_color: '#ffd400', logo: PNG_PIXEL });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const redirectUri = `${app.origin}/callback`;
      const reg = await registerClient(t, accountId, { client_name: 'Branded app', redirect_uris: [redirectUri], grant_types: ['authorization_code'], scope: 'openid profile' });
      const url = new URL(`${t.config.issuer}/authorize`);
      url.search = new URLSearchParams({ response_type: 'code', client_id: reg.client_id as string, redirect_uri: redirectUri, scope: 'openid profile', state: 'st', nonce: 'nn' }).toString();
      const context = await browser.newContext();
      const page = await context.newPage();
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(url.href);

      assert.equal(await page.title(), 'Sign in · Gatehouse');
      assert.equal(await page.locator('header p').textContent(), 'Acme Payments');
      const logo = page.getByRole('img', { name: 'Acme Payments logo' });
      assert.equal(await logo.getAttribute('src'), PNG_PIXEL);
      assert.equal(await logo.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).complete && (img as unknown as { naturalWidth: number }).naturalWidth), 1, 'the logo loaded under the CSP');
      const button = page.getByRole('button', { name: 'Sign in' });
      const colours = await button.evaluate((b) => {
        const style = (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string; color: string } }).getComputedStyle(b);
        return { background: style.backgroundColor, text: style.color };
      });
      assert.deepEqual(colours, { background: 'rgb(255, 212, 0)', text: 'rgb(0, 0, 0)' }, 'black text on the yellow brand colour');
      assert.deepEqual(await axeViolations(page), [], 'the sign-in page');

      await page.getByLabel('Username').fill('ada@example.com');
      await page.getByLabel('Password').fill(PASSWORD);
      await button.click();
      await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
      assert.equal(await page.locator('header p').textContent(), 'Acme Payments');
      assert.match((await page.locator('.who').textContent()) ?? '', /Signed in as ada@example\.com\. Not you\?/);
      assert.deepEqual(await axeViolations(page), [], 'the consent page');
      const sessionId = (await t.gatehouse.database.db.selectFrom('oauth_sessions').select(['id', 'ended_at']).where('user_id', '=', userId).orderBy('authenticated_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      assert.equal(await page.locator('.who').count(), 0, 'no one is signed in any more');
      const ended = await t.gatehouse.database.db.selectFrom('oauth_sessions').select('ended_at').where('id', '=', sessionId).executeTakeFirstOrThrow();
      assert.notEqual(ended.ended_at, null, 'the session ended');
      assert.ok(!(await context.cookies()).some((c) => c.name.includes('session')), 'the session cookie is gone');

      const origins = new Set(requested.map((r) => (r.startsWith('data:') ? 'data:' : new URL(r).origin)));
      assert.deepEqual([...origins].filter((o) => o !== new URL(t.config.issuer).origin && o !== 'data:'), [], 'no third-party request');
      await context.close();
      await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { brand_color: null, logo: null });
    });

    it('oauth4webapi in OIDC mode: public client, RS256 ID token, pairwise sub, nonce and userinfo checked', { skip }, async () => {
      const redirectUri = `${app.origin}/callback`;
      const reg = await registerClient(t, accountId, {
        client_name: 'Pairwise app',
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'RS256',
        subject_type: 'pairwise',
        scope: 'openid email',
      });
      const options = { [oauth.allowInsecureRequests]: true };
      const issuer = new URL(t.config.issuer);
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oidc' }));
      const rp: oauth.Client = { client_id: reg.client_id as string, id_token_signed_response_alg: 'RS256' };
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      const nonce = oauth.generateRandomNonce();
      const url = new URL(as.authorization_endpoint!);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: rp.client_id,
        redirect_uri: redirectUri,
        scope: 'openid email',
        state,
        nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }).toString();
      const context = await browser.newContext();
      const page = await context.newPage();
      const arrived = app.next('/callback');
      await page.goto(url.href);
      await signInAndAllow(page, 'ada@example.com', PASSWORD);
      const params = oauth.validateAuthResponse(as, rp, await arrived, state);
      const response = await oauth.authorizationCodeGrantRequest(as, rp, oauth.None(), params, redirectUri, verifier, options);
      const result = await oauth.processAuthorizationCodeResponse(as, rp, response, { expectedNonce: nonce, requireIdToken: true });
      const claims = oauth.getValidatedIdTokenClaims(result)!;
      assert.equal(decodeProtectedHeader(result.id_token!).alg, 'RS256');
      assert.notEqual(claims.sub, userId, 'a pairwise client sees its own sub');
      assert.equal(claims.nonce, nonce);
      const info = await oauth.processUserInfoResponse(as, rp, claims.sub, await oauth.userInfoRequest(as, rp, result.access_token, options));
      assert.deepEqual(info, { sub: claims.sub, email: 'ada@example.com', email_verified: false });
      // The same person through another pairwise client gets another sub; through this one, the same.
      const other = await t.gatehouse.services.oauth.clients.find(reg.client_id as string);
      assert.equal(t.gatehouse.services.oauth.idTokens.subjectFor(other!, userId), claims.sub);
      assert.notEqual(t.gatehouse.services.oauth.idTokens.subjectFor({ ...other!, id: 'client_other' }, userId), claims.sub);
      // Introspection by another client of the account (a resource server) names the person as
      // the token's client knows them: the pairwise sub, never the id that joins clients' users.
      const server = await registerClient(t, accountId, { client_name: 'Resource server', grant_types: ['client_credentials'], scope: 'invoices:read' });
      const rs: oauth.Client = { client_id: server.client_id as string };
      for (const accept of ['application/json', 'application/token-introspection+jwt']) {
        const introspected = await oauth.introspectionRequest(as, rs, oauth.ClientSecretBasic(server.client_secret as string), result.access_token, { ...options, requestJwtResponse: accept !== 'application/json' });
        const answer = await oauth.processIntrospectionResponse(as, rs, introspected);
        assert.equal(answer.active, true);
        assert.equal(answer.client_id, rp.client_id);
        assert.equal(answer.sub, claims.sub, accept);
      }
      await context.close();
    });
  });
}
