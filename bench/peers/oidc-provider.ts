/**
 * The reference: panva/node-oidc-provider (the release in node_modules) issuing client-credentials
 * tokens set up as a production deployment would be, doing what Gatehouse does on the same request
 * and no less:
 * - the client authenticates with client_secret_basic and gets an opaque access token (Gatehouse's
 *   client-credentials tokens are opaque too, so no JWT format is asked for), valid one hour as
 *   Gatehouse's default access-token lifetime;
 * - the server's own signing keys (ES256, Gatehouse's algorithm) and cookie keys, not the
 *   development keys oidc-provider falls back on;
 * - one request line per answered request at `info`, with a request id echoed in `x-request-id`,
 *   through pino to standard output in asynchronous 4 KiB batches, as Gatehouse writes its own;
 *   oidc-provider itself logs no requests.
 * Tokens stay in its in-memory adapter: any production adapter (a database, Redis) would cost it a
 * round trip per token, where Gatehouse's sealed tokens write nothing, so the reference is given
 * its fastest store.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { pino, destination } from 'pino';

const clientId = process.env.BENCH_CLIENT_ID ?? 'bench-client';
const clientSecret = process.env.BENCH_CLIENT_SECRET ?? 'bench-client-secret-0123456789abcdef';
/** Gatehouse's default GATEHOUSE_ACCESS_TOKEN_TTL. */
const ACCESS_TOKEN_TTL_SECONDS = 3600;

const signingKey = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), alg: 'ES256', use: 'sig', kid: 'bench-es256' };
const log = pino({ level: 'info', base: { service: 'oidc-provider' } }, destination({ dest: 1, sync: false, minLength: 4096 }));

const server = http.createServer();
// BENCH_PORT: a port chosen by the bench, which then waits for the discovery document (standard
// output is the log, going to a file).
await new Promise<void>((resolve) => server.listen(Number(process.env.BENCH_PORT ?? 0), '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
      // The algorithm of the server's key, as Gatehouse's clients default to.
      id_token_signed_response_alg: 'ES256',
      scope: 'invoices:read',
    },
  ],
  scopes: ['invoices:read'],
  features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
  ttl: { ClientCredentials: ACCESS_TOKEN_TTL_SECONDS },
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
});
provider.use(async (ctx, next) => {
  const started = performance.now();
  const reqId = randomUUID();
  ctx.set('x-request-id', reqId);
  await next();
  log.info({ reqId, method: ctx.method, route: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
});
server.on('request', provider.callback());
console.error(`listening http://127.0.0.1:${port}`);
// Stopped by the bench: exit through 'exit', where pino writes out what its destination holds.
process.once('SIGTERM', () => process.exit(0));
