/**
 * The OAuth endpoints on the public listener: /token, /revoke, /introspect (form bodies,
 * RFC 6749 §5.2 errors, `Cache-Control: no-store`), the metadata and UserInfo (oidc-routes.ts)
 * and the JWKS.
 * Form parsing is registered inside this plugin only, so no other route accepts forms.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { RateLimits } from '../platform/rate-limit.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { serializeOAuthError, oauthErrorResponses } from './errors.ts';
import { errorPage, pageHeaders } from './pages.ts';
import type { ClientCredentials } from './client-auth.ts';
import type { ClientAuthLimits } from './client-auth-limits.ts';
import { tokenResponseJson, type TokenEndpoint, type TokenRequest } from './token.ts';
import type { Revocation } from './revocation.ts';
import { JWKS_MAX_AGE_SECONDS, type SigningKeys } from './keys.ts';
import { registerAuthorizeRoutes, type AuthorizeDeps } from './authorize-routes.ts';
import { clientAuthFailureOf } from './errors.ts';
import { isHttpError, type HttpError } from '../platform/errors/http-error.ts';
import { logEvent } from '../platform/log-events.ts';
import type { AccessTokens } from './access-tokens.ts';
import { registerOidcRoutes } from './oidc-routes.ts';
import { registerLogoutRoutes } from './logout-routes.ts';
import { documentedOnly } from '../platform/http/openapi.ts';
import { browserCallable, registerPreflight } from '../platform/http/cors.ts';
import { CLIENT_AUTHENTICATION, CLIENT_AUTHENTICATION_SECURITY } from './openapi.ts';

export interface OAuthRouteDeps extends AuthorizeDeps {
  /** Client authentication within its rate limits (see client-auth-limits.ts). */
  clientAuthLimits: ClientAuthLimits;
  tokens: TokenEndpoint;
  revocation: Revocation;
  keys: SigningKeys;
  rateLimits: RateLimits;
  accessTokens: AccessTokens;
}

/** RFC 7517 §8.5: what the key set is sent as, and so what the API document must say it is. */
const JWK_SET_MEDIA_TYPE = 'application/jwk-set+json';

const formField = { type: 'string', maxLength: 8192 } as const;
const tokenBody = {
  type: 'object',
  properties: Object.fromEntries(
    ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'refresh_token', 'scope', 'client_id', 'client_secret', 'client_assertion_type', 'client_assertion'].map((n) => [n, formField]),
  ),
} as const;
const tokenTypeBody = {
  type: 'object',
  required: ['token'],
  properties: Object.fromEntries(['token', 'token_type_hint', 'client_id', 'client_secret', 'client_assertion_type', 'client_assertion'].map((n) => [n, formField])),
} as const;

function credentialsOf(request: FastifyRequest, body: Record<string, string | undefined>): ClientCredentials {
  const authorization = request.headers.authorization;
  return {
    authorization: typeof authorization === 'string' ? authorization : undefined,
    client_id: body.client_id,
    client_secret: body.client_secret,
    client_assertion_type: body.client_assertion_type,
    client_assertion: body.client_assertion,
  };
}

/** The token request's parameters and credentials, named one by one (no copy of the whole form). */
function tokenRequestOf(request: FastifyRequest, body: Record<string, string | undefined>): TokenRequest {
  return {
    grant_type: body.grant_type,
    code: body.code,
    redirect_uri: body.redirect_uri,
    code_verifier: body.code_verifier,
    refresh_token: body.refresh_token,
    scope: body.scope,
    ...credentialsOf(request, body),
  };
}

export async function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): Promise<void> {
  const { issuer } = deps;

  /** The authenticated client of a request, counted in its budget; the budget's headers go on the answer. */
  async function authenticatedClient(request: FastifyRequest, reply: FastifyReply, credentials: ClientCredentials) {
    const { client, headers } = await deps.clientAuthLimits.authenticate(credentials, request.ip);
    reply.headers(headers);
    return client;
  }

  app.errorFormats.register('oauth', serializeOAuthError, { prefixes: ['/token', '/revoke', '/introspect'], answersAs: { 413: 400, 415: 400 } });
  app.errorFormats.register('oauth-page', (error) => ({
    status: error.status,
    contentType: 'text/html; charset=utf-8',
    headers: { ...error.headers, ...pageHeaders() },
    body: errorPage(error.status >= 500 ? 'Something went wrong on our side.' : (error.detail ?? error.title)),
  }), { prefixes: ['/authorize', '/logout'] });

  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 64 * 1024 });
    // RFC 6749 §3.2 and §4.1.3: these endpoints take form bodies only.
    // A plain callback: no promise per request on the token endpoint's path.
    scope.addHook('preValidation', (request, _reply, done) => {
      if (request.method !== 'POST') return done();
      const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
      if (type !== 'application/x-www-form-urlencoded') {
        return done(problem('unsupported_media_type', { detail: 'The body must be application/x-www-form-urlencoded' }));
      }
      done();
    });
    // The answer says only invalid_client; the log says who and why.
    scope.addHook('onError', (request, _reply, error, done) => {
      if (isHttpError(error) && error.code === 'invalid_client') logClientAuthFailure(request, error);
      done();
    });
    registerAuthorizeRoutes(scope, deps);
    registerLogoutRoutes(scope, { issuer, clients: deps.clients, sessions: deps.sessions, idTokens: deps.idTokens, branding: deps.branding });

    scope.post<{ Body: TokenRequest }>(
      '/token',
      browserCallable({
        config: { errorFormat: 'oauth' },
        schema: {
          tags: ['oauth'],
          operationId: 'requestToken',
          description: CLIENT_AUTHENTICATION,
          security: CLIENT_AUTHENTICATION_SECURITY,
          summary: 'Token endpoint (RFC 6749 §3.2): authorization_code, refresh_token, client_credentials',
          consumes: ['application/x-www-form-urlencoded'],
          body: tokenBody,
          response: {
            200: {
              type: 'object',
              required: ['access_token', 'token_type', 'expires_in', 'scope'],
              properties: {
                access_token: { type: 'string' },
                token_type: { type: 'string' },
                expires_in: { type: 'integer' },
                refresh_token: { type: 'string' },
                scope: { type: 'string' },
                id_token: { type: 'string', description: 'OpenID Connect: when the scope holds openid' },
              },
            },
            ...oauthErrorResponses(400, 401, 429),
          },
        },
      }),
      async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, string | undefined>;
        const response = await deps.tokens.exchange(tokenRequestOf(request, body), (credentials) => authenticatedClient(request, reply, credentials));
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache').type('application/json; charset=utf-8');
        return tokenResponseJson(response);
      },
    );

    scope.post<{ Body: { token: string; token_type_hint?: string } & ClientCredentials }>(
      '/revoke',
      browserCallable({
        config: { errorFormat: 'oauth' },
        schema: {
          tags: ['oauth'],
          operationId: 'revokeToken',
          description: CLIENT_AUTHENTICATION,
          security: CLIENT_AUTHENTICATION_SECURITY,
          summary: 'Token revocation (RFC 7009)',
          consumes: ['application/x-www-form-urlencoded'],
          body: tokenTypeBody,
          response: { 200: { type: 'null', description: 'Revoked, or not a token of this client' }, ...oauthErrorResponses(400, 401, 429) },
        },
      }),
      async (request, reply) => {
        const body = request.body as unknown as Record<string, string | undefined>;
        const client = await authenticatedClient(request, reply, credentialsOf(request, body));
        await deps.revocation.revoke(client, request.body.token);
        reply.code(200).header('cache-control', 'no-store').send();
      },
    );

    scope.post<{ Body: { token: string; token_type_hint?: string } & ClientCredentials }>(
      '/introspect',
      {
        config: { errorFormat: 'oauth' },
        schema: {
          tags: ['oauth'],
          operationId: 'introspectToken',
          description: CLIENT_AUTHENTICATION,
          security: CLIENT_AUTHENTICATION_SECURITY,
          summary: 'Token introspection (RFC 7662); Accept: application/token-introspection+jwt for a signed answer (RFC 9701)',
          consumes: ['application/x-www-form-urlencoded'],
          body: tokenTypeBody,
          response: { 200: { type: 'object', required: ['active'], additionalProperties: true, properties: { active: { type: 'boolean' } } }, ...oauthErrorResponses(400, 401, 429) },
        },
      },
      async (request, reply) => {
        const body = request.body as unknown as Record<string, string | undefined>;
        const client = await authenticatedClient(request, reply, credentialsOf(request, body));
        const answer = await deps.revocation.introspect(client, request.body.token);
        reply.header('cache-control', 'no-store');
        if ((request.headers.accept ?? '').includes('application/token-introspection+jwt')) {
          const jwt = await deps.keys.sign({ iss: issuer, aud: client.id, token_introspection: answer }, 'token-introspection+jwt');
          return reply.type('application/token-introspection+jwt').serializer((x: unknown) => String(x)).send(jwt);
        }
        return answer;
      },
    );
  });

  registerPreflight(app, '/token', ['POST']);
  registerPreflight(app, '/revoke', ['POST']);
  registerOidcRoutes(app, { issuer, db: deps.db, clients: deps.clients, accessTokens: deps.accessTokens, idTokens: deps.idTokens });

  app.get('/.well-known/jwks.json', browserCallable({ config: documentedOnly({ response: { 200: { description: 'RFC 7517 JSON Web Key Set (public keys only)', content: { [JWK_SET_MEDIA_TYPE]: { schema: { type: 'object', required: ['keys'], properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true, properties: { kid: { type: 'string' }, kty: { type: 'string' }, alg: { type: 'string' }, use: { type: 'string' } } } } } } } } } } }), schema: { tags: ['oauth'], operationId: 'getJwks', summary: 'The JSON Web Key Set of the server (RFC 7517)' } }), async (_request, reply) => {
    reply.header('cache-control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`).type(JWK_SET_MEDIA_TYPE);
    return deps.keys.jwks();
  });

}

function logClientAuthFailure(request: FastifyRequest, error: HttpError): void {
  const failure = clientAuthFailureOf(error);
  logEvent(
    request.log,
    'oauth.client_authentication_failed',
    {
      // Claimed by the caller, so bounded; a client_id is public, never a secret.
      client_id: failure?.clientId?.slice(0, 100) ?? null,
      account_id: failure?.accountId ?? null,
      method: failure?.method ?? null,
      reason: failure?.reason ?? 'other',
      route: request.routeOptions.url ?? null,
      ip: request.ip,
    },
    'client authentication failed',
  );
}
