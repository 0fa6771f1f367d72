/**
 * End to end: oauth4webapi (a strict, independent client) runs the authorization code flow
 * with PKCE through the real sign-in and consent pages in headless Chromium, then refreshes
 * with rotation and detects reuse. Everything is real: listeners, database, browser.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { createUser, registerClient } from '../oauth/helpers.ts';

const options = { [oauth.allowInsecureRequests]: true };

/** The application's callback: records the URL the browser was sent to. */
async function startCallback(): Promise<{ url: string; next(): Promise<URL>; close(): Promise<void> }> {
  let waiting: ((url: URL) => void) | undefined;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url!, `http://${request.headers.host}`);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Signed in</title><p>Done</p>');
    if (url.pathname === '/callback') waiting?.(url); // not the browser's /favicon.ico
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise<URL>((resolve) => (waiting = resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const chromiumLookup = findChromium();
const skip = skipWithoutChromium(chromiumLookup);

for (const target of databaseTargets()) {
  describe(`OAuth in a real browser with oauth4webapi (${target.kind})`, () => {
    let t: TestApp;
    let browser: Browser;
    let callback: Awaited<ReturnType<typeof startCallback>>;
    before(async () => {
      if (skip) return; // so is the test
      const executablePath = chromiumExecutable(chromiumLookup);
      t = await startTestApp(target);
      callback = await startCallback();
      browser = await chromium.launch({
        executablePath,
        args: ['--no-sandbox', '--headless', '--disable-background-networking'],
      });
    });
    after(async () => {
      await browser?.close();
      await callback?.close();
      await t?.close();
    });

    it('code + PKCE through the sign-in and consent pages; refresh rotates; reuse of a rotated token revokes the grant', { skip }, async () => {
      const accountId = await createAccount(t);
      await createUser(t, accountId, 'ada@example.com', 'correct horse battery');
      const reg = await registerClient(t, accountId, {
        client_name: 'Ledger Viewer',
        redirect_uris: [callback.url],
        grant_types: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_method: 'none',
        scope: 'invoices:read ledger:read',
      });
      const client: oauth.Client = { client_id: reg.client_id, token_endpoint_auth_method: 'none' };
      const issuer = new URL(t.config.issuer);
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }));

      async function authorize(page: Page, interact: boolean) {
        const verifier = oauth.generateRandomCodeVerifier();
        const state = oauth.generateRandomState();
        const url = new URL(as.authorization_endpoint!);
        url.search = new URLSearchParams({
          response_type: 'code',
          client_id: client.client_id,
          redirect_uri: callback.url,
          scope: 'invoices:read ledger:read',
          state,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        }).toString();
        const arrived = callback.next();
        await page.goto(url.href);
        if (interact) {
          assert.equal(await page.title(), 'Sign in · Gatehouse');
          await page.getByLabel('Username').fill('ada@example.com');
          await page.getByLabel('Password').fill('correct horse battery');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
          assert.match(await page.content(), /See your invoices[\s\S]*See your ledger entries/);
          await page.getByRole('button', { name: 'Allow' }).click();
        }
        const callbackUrl = await arrived;
        const params = oauth.validateAuthResponse(as, client, callbackUrl, state); // checks state and iss (RFC 9207)
        const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, callback.url, verifier, options);
        return oauth.processAuthorizationCodeResponse(as, client, response);
      }

      const context = await browser.newContext();
      const page = await context.newPage();
      const tokens = await authorize(page, true);
      assert.equal(tokens.token_type, 'bearer');
      assert.equal(tokens.scope, 'invoices:read ledger:read');
      assert.ok(tokens.refresh_token);
      const principal = await t.gatehouse.services.accessTokens.verify(tokens.access_token);
      assert.deepEqual([...principal!.scopes].sort(), ['invoices:read', 'ledger:read']);

      // The session and the consent are remembered: the second run goes straight back with a code.
      const again = await authorize(page, false);
      assert.ok(again.access_token);

      const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options));
      assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
      assert.ok(await t.gatehouse.services.accessTokens.verify(refreshed.access_token));

      await assert.rejects(
        oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options)),
        (error: unknown) => error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant',
      );
      // Reuse revoked the whole grant: the rotated token and its access token are dead too.
      assert.equal(await t.gatehouse.services.accessTokens.verify(refreshed.access_token), undefined);
      await assert.rejects(
        oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, options)),
        (error: unknown) => error instanceof oauth.ResponseBodyError && error.error === 'invalid_grant',
      );
      // The other grant (second run) is untouched.
      assert.ok(await t.gatehouse.services.accessTokens.verify(again.access_token));
      await context.close();
    });
  });
}
