/**
 * Access is attached to routes, never to URL text. Every route registered on both listeners is
 * taken from fastify itself (the `onRoute` record of each server) and each protected one is
 * asked without credentials, and with a wrong one, under several spellings of its request
 * target that the router accepts: as declared, percent-encoded letters (RFC 3986 §2.1: the
 * router decodes them), and the absolute form (RFC 9112 §3.2.2). Every spelling must be refused
 * before anything runs: 401 and nothing stored. The same enumeration proves that the API rate
 * limit holds on every /v1 and SCIM route under every spelling.
 *
 * A route is public only when listed here, with the reason; a new route is protected by default
 * and this test fails until it is.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import type { RegisteredRoute } from '../../src/platform/http/server.ts';

/** Routes anyone may call: health, metadata, documents, and the pages where people sign in. */
const PUBLIC_ROUTES: Record<'public' | 'admin', ReadonlySet<string>> = {
  public: new Set([
    '/healthz', '/readyz', '/openapi.json', '/docs', '/docs/scalar.js', '/docs/reference.js', '/docs/errors',
    '/.well-known/oauth-authorization-server', '/.well-known/jwks.json',
    '/authorize', '/authorize/login', '/authorize/consent',
    // "Not you? Sign out" on those pages: its form carries a session-bound token.
    '/authorize/switch',
    // OpenID Connect: discovery, and RP-initiated logout, whose page asks the person to confirm
    // unless an id_token_hint names them (the confirmation carries a session-bound token).
    '/.well-known/openid-configuration', '/logout', '/logout/confirm',
  ]),
  // The admin listener's operational routes: no tenant data, loopback by default (docs/SECURITY.md).
  admin: new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs', '/docs/scalar.js', '/docs/reference.js', '/docs/errors']),
};

/** Routes that authenticate the client from the form body (RFC 6749 §2.3) rather than a bearer token. */
const CLIENT_AUTHENTICATED: Record<string, string> = {
  '/token': 'grant_type=client_credentials&client_id=unknown-client',
  '/revoke': 'token=some-token',
  '/introspect': 'token=some-token',
};

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 exchange with a request target sent byte for byte as given (fetch would normalise it). */
function rawRequest(base: string, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<RawResponse> {
  const { hostname, port, host } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${method} ${target}`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body: rest.join('\r\n\r\n') });
    });
    const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    // No half-close: the server ends the exchange (Connection: close), as it does with real clients.
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

/** A concrete path for a declared route: each parameter gets a well-formed but unknown value. */
function concretePath(url: string): string {
  return url.replace(/:[A-Za-z_]+/g, 'abc123');
}

function percentEncode(char: string): string {
  return `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** Spellings of one path that the router resolves to the same route. */
function spellings(base: string, path: string): Array<{ name: string; target: string }> {
  const firstLetter = path.search(/[a-z]/i);
  const lastLetter = path.length - 1 - [...path].reverse().join('').search(/[a-z]/i);
  const everyLetter = path.replace(/[a-z]/gi, percentEncode);
  return [
    { name: 'as declared', target: path },
    { name: 'first letter percent-encoded', target: path.slice(0, firstLetter) + percentEncode(path[firstLetter]!) + path.slice(firstLetter + 1) },
    { name: 'last letter percent-encoded', target: path.slice(0, lastLetter) + percentEncode(path[lastLetter]!) + path.slice(lastLetter + 1) },
    { name: 'every letter percent-encoded', target: everyLetter },
    { name: 'lower-case escapes', target: everyLetter.toLowerCase() },
    { name: 'absolute form', target: `${base}${path}` },
    { name: 'with a query string', target: `${path}?x=1` },
  ];
}

/** Routes as fastify recorded them; HEAD routes are the GET routes fastify exposes on its own. */
function routesOf(server: { registeredRoutes: RegisteredRoute[] }): RegisteredRoute[] {
  const seen = new Set<string>();
  return server.registeredRoutes.filter((r) => {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function requestFor(route: RegisteredRoute): { headers: Record<string, string>; body: string } {
  const form = CLIENT_AUTHENTICATED[route.url];
  if (form !== undefined) return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form };
  if (route.method === 'GET' || route.method === 'HEAD' || route.method === 'DELETE') return { headers: {}, body: '' };
  const type = route.url.startsWith('/scim/') ? 'application/scim+json' : 'application/json';
  return { headers: { 'content-type': type, 'idempotency-key': 'route-access-probe' }, body: '{}' };
}

const EVERY_SCOPE = ['invoices:read', 'invoices:write', 'payouts:read', 'payouts:write', 'ledger:read', 'events:read', 'webhooks:manage', 'audit:read', 'scim'];

async function countRows(t: TestApp, table: 'accounts' | 'oauth_clients' | 'invoices' | 'payouts' | 'webhook_endpoints'): Promise<number> {
  const row = await t.gatehouse.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const target of databaseTargets()) {
  describe(`security: access and rate limits are attached to routes (${target.kind})`, () => {
    let t: TestApp;
    let limited: TestApp;
    let probeAccount: string;
    before(async () => {
      t = await startTestApp(target);
      // One API request per client and minute, so that a second request shows whether the limit is attached.
      limited = await startTestApp(target, { env: { GATEHOUSE_RATE_LIMIT_API: '1/60' } });
      probeAccount = await createAccount(limited);
    });
    after(async () => {
      await t.close();
      await limited.close();
    });

    it('every route on both listeners is known to fastify, and the admin API and the business API are among them', () => {
      const admin = routesOf(t.gatehouse.adminServer).map((r) => `${r.method} ${r.url}`);
      const pub = routesOf(t.gatehouse.publicServer).map((r) => `${r.method} ${r.url}`);
      assert.ok(admin.includes('POST /admin/v1/accounts'), 'admin routes enumerated');
      assert.ok(admin.includes('POST /admin/v1/accounts/:id/clients'), 'client registration enumerated');
      assert.ok(pub.includes('POST /v1/payouts'), 'business routes enumerated');
      assert.ok(pub.includes('PATCH /scim/v2/Users/:id'), 'SCIM routes enumerated');
      assert.ok(pub.includes('POST /token'), 'token endpoint enumerated');
    });

    for (const listener of ['admin', 'public'] as const) {
      it(`${listener} listener: every protected route refuses a request without credentials and with a wrong one, under every spelling of its path`, async () => {
        const server = listener === 'admin' ? t.gatehouse.adminServer : t.gatehouse.publicServer;
        const base = listener === 'admin' ? t.adminUrl : t.publicUrl;
        const before = {
          accounts: await countRows(t, 'accounts'),
          clients: await countRows(t, 'oauth_clients'),
          invoices: await countRows(t, 'invoices'),
          payouts: await countRows(t, 'payouts'),
          endpoints: await countRows(t, 'webhook_endpoints'),
        };
        // CORS preflights answer anyone, by design (platform/http/cors.ts), and only where declared.
        const preflights = routesOf(server).filter((r) => r.method === 'OPTIONS').map((r) => r.url).sort();
        assert.deepEqual(preflights, listener === 'public' ? ['/revoke', '/token', '/userinfo'] : []);
        const protectedRoutes = routesOf(server).filter((r) => r.method !== 'OPTIONS' && !PUBLIC_ROUTES[listener].has(r.url));
        assert.ok(protectedRoutes.length >= (listener === 'admin' ? 15 : 40), `found ${protectedRoutes.length} protected routes`);
        const failures: string[] = [];
        let probe = 0;
        for (const route of protectedRoutes) {
          const path = concretePath(route.url);
          const { headers, body } = requestFor(route);
          for (const spelling of spellings(base, path)) {
            for (const credential of [undefined, 'Bearer wrong-token-0123456789']) {
              const authorization: Record<string, string> = credential === undefined ? {} : { authorization: `${credential}-${probe++}` };
              const response = await rawRequest(base, route.method, spelling.target, { ...headers, ...authorization }, body);
              const what = `${route.method} ${spelling.target} (${spelling.name}, ${credential ? 'wrong credential' : 'no credential'})`;
              if (response.status !== 401) {
                failures.push(`${what} → ${response.status} ${response.body.slice(0, 120)}`);
                continue;
              }
              if (!/^bearer|^basic/i.test(response.headers['www-authenticate'] ?? '') && CLIENT_AUTHENTICATED[route.url] === undefined) {
                failures.push(`${what} → 401 without a WWW-Authenticate challenge`);
              }
            }
          }
        }
        assert.deepEqual(failures, [], `routes answering without credentials:\n${failures.join('\n')}`);
        assert.deepEqual(
          {
            accounts: await countRows(t, 'accounts'),
            clients: await countRows(t, 'oauth_clients'),
            invoices: await countRows(t, 'invoices'),
            payouts: await countRows(t, 'payouts'),
            endpoints: await countRows(t, 'webhook_endpoints'),
          },
          before,
          'nothing was created by a refused request',
        );
      });
    }

    it('the admin API refuses POST /%61dmin/v1/accounts without the admin token and creates nothing', async () => {
      const before = await countRows(t, 'accounts');
      const response = await rawRequest(t.adminUrl, 'POST', '/%61dmin/v1/accounts', { 'content-type': 'application/json' }, '{"name":"Intruder"}');
      assert.equal(response.status, 401);
      assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(JSON.parse(response.body).code, 'admin_unauthorized');
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="gatehouse-admin"');
      assert.equal(await countRows(t, 'accounts'), before);
    });

    it('the API rate limit holds on every /v1 and SCIM route whatever the spelling of its path (GET /%761/invoices is counted)', async () => {
      const apiRoutes = routesOf(limited.gatehouse.publicServer).filter((r) => r.url.startsWith('/v1/') || r.url.startsWith('/scim/'));
      assert.ok(apiRoutes.length >= 30, `found ${apiRoutes.length} API routes`);
      const failures: string[] = [];
      for (const [index, route] of apiRoutes.entries()) {
        const path = concretePath(route.url);
        const { headers, body } = requestFor(route);
        const forms = spellings(limited.publicUrl, path);
        const [first, second] = [forms[0]!, forms[1 + (index % (forms.length - 1))]!];
        // A client per route, its token holding every scope: the first request uses the only
        // point of the window (whatever it is answered), the second is refused.
        const token = await mintAccessToken(limited, { accountId: probeAccount, clientId: `rate-probe-${index}`, scopes: EVERY_SCOPE });
        const authorization = { authorization: `Bearer ${token}` };
        const allowed = await rawRequest(limited.publicUrl, route.method, first.target, { ...headers, ...authorization }, body);
        const refused = await rawRequest(limited.publicUrl, route.method, second.target, { ...headers, ...authorization }, body);
        if (allowed.headers['ratelimit-remaining'] !== '0') {
          failures.push(`${route.method} ${first.target} → ${allowed.status}, RateLimit-Remaining ${allowed.headers['ratelimit-remaining']}`);
        }
        if (refused.status !== 429 || refused.headers['retry-after'] === undefined) {
          failures.push(`${route.method} ${second.target} (${second.name}) → ${refused.status}, not rate-limited`);
        }
      }
      assert.deepEqual(failures, [], failures.join('\n'));
    });
  });
}
