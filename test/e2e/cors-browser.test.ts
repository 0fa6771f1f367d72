/**
 * A browser app on another origin calls the OAuth endpoints itself (docs/OAUTH.md, "Browser
 * apps"): in a real Chromium, a page served from its own origin runs oauth4webapi against
 * Gatehouse, discovery, the JWKS, `/token` and `/userinfo`, the way an SPA with PKCE does. The
 * preflights and the headers are checked as the browser sees them; the sign-in pages and
 * introspection stay same-origin.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type * as OAuth4WebApiModule from 'oauth4webapi';
import { chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { registerClient } from '../oauth/helpers.ts';

type OAuth4WebApi = typeof OAuth4WebApiModule;

const chromiumLookup = findChromium();
const skip = skipWithoutChromium(chromiumLookup);
const OAUTH4WEBAPI = path.resolve('node_modules/oauth4webapi/build/index.js');

/** The app's own origin: a page, and oauth4webapi as a module it imports. */
async function appOrigin(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    if (request.url === '/oauth4webapi.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(fs.readFileSync(OAUTH4WEBAPI));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>SPA</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // `localhost`, not 127.0.0.1: another origin than Gatehouse's.
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const target = databaseTargets()[0]!;
describe('the OAuth endpoints from a browser app on another origin (CORS)', () => {
  let t: TestApp;
  let browser: Browser;
  let spa: Awaited<ReturnType<typeof appOrigin>>;
  before(async () => {
    if (skip) return; // so are the tests
    t = await startTestApp(target);
    spa = await appOrigin();
    browser = await chromium.launch({ executablePath: chromiumExecutable(chromiumLookup), args: ['--no-sandbox', '--headless', '--disable-background-networking'] });
  });
  after(async () => {
    await browser?.close();
    await spa?.close();
    await t?.close();
  });

  it('oauth4webapi in the page: discovery, JWKS, a refused /token and /userinfo read as the browser sees them; introspection stays closed', { skip }, async () => {
    const accountId = await createAccount(t);
    const client = await registerClient(t, accountId, { client_name: 'SPA', token_endpoint_auth_method: 'none', redirect_uris: [`${spa.url}/cb`], scope: 'openid invoices:read' });
    const person = await mintAccessToken(t, { accountId, scopes: ['invoices:read'] });
    const page = await browser.newPage();
    await page.goto(`${spa.url}/`);
    const seen = await page.evaluate(
      async ({ issuer, clientId, personToken }) => {
        // The page's own copy, from its origin (a path the browser resolves, not this process).
        const served = '/oauth4webapi.js';
        const oauth = (await import(served)) as OAuth4WebApi;
        const as = await oauth.processDiscoveryResponse(new URL(issuer), await oauth.discoveryRequest(new URL(issuer), { algorithm: 'oidc', [oauth.allowInsecureRequests]: true }));
        const jwks = (await (await fetch(as.jwks_uri!)).json()) as { keys: unknown[] };
        // A code that is no code: the answer is an OAuth error the app can read.
        const callback = oauth.validateAuthResponse(as, { client_id: clientId }, new URL(`http://localhost/cb?code=nope&iss=${encodeURIComponent(issuer)}`), oauth.skipStateCheck);
        const token = await oauth.authorizationCodeGrantRequest(as, { client_id: clientId }, oauth.None(), callback, 'http://localhost/cb', 'v'.repeat(43), { [oauth.allowInsecureRequests]: true });
        const tokenBody = (await token.json()) as { error?: string };
        const userinfo = await fetch(as.userinfo_endpoint!, { headers: { authorization: `Bearer ${personToken}` } });
        let introspection = 'read';
        try {
          await fetch(`${issuer}/introspect`, { method: 'POST', body: new URLSearchParams({ token: 'x' }) });
        } catch {
          introspection = 'blocked';
        }
        return {
          issuer: as.issuer,
          keys: jwks.keys.length,
          token: { status: token.status, error: tokenBody.error },
          userinfo: { status: userinfo.status, challenge: userinfo.headers.get('www-authenticate') },
          introspection,
        };
      },
      { issuer: t.publicUrl, clientId: client.client_id as string, personToken: person },
    );
    assert.equal(seen.issuer, t.publicUrl);
    assert.ok(seen.keys >= 1);
    assert.deepEqual(seen.token, { status: 400, error: 'invalid_grant' });
    // A client-credentials token stands for no person: refused, with its challenge readable.
    assert.equal(seen.userinfo.status, 403);
    assert.match(seen.userinfo.challenge ?? '', /^Bearer /);
    assert.equal(seen.introspection, 'blocked');
  });

  it('the preflights: 204 naming the methods and headers; no credentials allowed; the pages send no CORS header', { skip }, async () => {
    for (const [endpoint, methods] of [['/token', 'POST'], ['/revoke', 'POST'], ['/userinfo', 'GET, POST']] as const) {
      const preflight = await fetch(`${t.publicUrl}${endpoint}`, {
        method: 'OPTIONS',
        headers: { origin: spa.url, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      });
      assert.equal(preflight.status, 204, endpoint);
      assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
      assert.equal(preflight.headers.get('access-control-allow-methods'), methods);
      assert.equal(preflight.headers.get('access-control-allow-headers'), 'authorization, content-type');
      assert.equal(preflight.headers.get('access-control-allow-credentials'), null);
    }
    for (const endpoint of ['/authorize?client_id=x', '/introspect']) {
      const response = await fetch(`${t.publicUrl}${endpoint}`, { headers: { origin: spa.url } });
      await response.arrayBuffer();
      assert.equal(response.headers.get('access-control-allow-origin'), null, endpoint);
    }
  });
});
