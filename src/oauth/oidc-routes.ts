/**
 * OpenID Connect on the public listener: the server metadata, served alike at
 * /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/openid-configuration
 * (OpenID Connect Discovery 1.0 §4), so the two documents never disagree; and the UserInfo
 * endpoint (OIDC Core §5.3), GET and POST, with the access token as a bearer header (RFC 6750
 * §2.1), answering the claims the token's scopes and the grant's `claims` request name.
 */
import { browserCallable, registerPreflight } from '../platform/http/cors.ts';
import { PROMPTS } from './authorize.ts';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import { bearerAccess, principalOf, protectedRoute } from '../platform/auth.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { documentedOnly } from '../platform/http/openapi.ts';
import { component } from '../platform/http/openapi-components.ts';
import type { AccessTokens } from './access-tokens.ts';
import type { Clients } from './clients.ts';
import { AUTH_METHODS, ID_TOKEN_ALGS, SUBJECT_TYPES } from './clients.ts';
import { ASSERTION_ALGORITHMS } from './client-auth.ts';
import { ACR_PASSWORD, type IdTokens } from './id-token.ts';
import { CLAIMS_SUPPORTED, claimsOfScopes, consentedClaims, parseClaimsRequest, profileClaims, selectClaims } from './oidc-claims.ts';
import { SCOPE_NAMES } from './scopes.ts';

/** One metadata document for both well-known names (RFC 8414 §2, OIDC Discovery §3). */
export function serverMetadata(issuer: string) {
  const signedAuth = AUTH_METHODS.filter((m) => m !== 'none');
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    revocation_endpoint: `${issuer}/revoke`,
    introspection_endpoint: `${issuer}/introspect`,
    end_session_endpoint: `${issuer}/logout`,
    scopes_supported: SCOPE_NAMES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    subject_types_supported: [...SUBJECT_TYPES],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGS],
    acr_values_supported: [ACR_PASSWORD],
    claims_supported: CLAIMS_SUPPORTED,
    claim_types_supported: ['normal'],
    claims_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    require_request_uri_registration: false,
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    // RFC 8414 §2: required wherever private_key_jwt is offered.
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    introspection_endpoint_auth_methods_supported: signedAuth,
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGORITHMS,
    introspection_signing_alg_values_supported: ['ES256'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    prompt_values_supported: [...PROMPTS],
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
  };
}

/** What the metadata document says of itself in the API document (its members are RFC 8414 §2's). */
const metadataDocs = documentedOnly({
  response: {
    200: {
      description: 'The server metadata (RFC 8414 §2, OpenID Connect Discovery 1.0 §3): one document under both names',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'response_types_supported', 'subject_types_supported', 'id_token_signing_alg_values_supported'],
            additionalProperties: true,
            properties: {
              issuer: { type: 'string', format: 'uri' },
              authorization_endpoint: { type: 'string', format: 'uri' },
              token_endpoint: { type: 'string', format: 'uri' },
              userinfo_endpoint: { type: 'string', format: 'uri' },
              jwks_uri: { type: 'string', format: 'uri' },
              end_session_endpoint: { type: 'string', format: 'uri' },
              scopes_supported: { type: 'array', items: { type: 'string' } },
              response_types_supported: { type: 'array', items: { type: 'string' } },
              subject_types_supported: { type: 'array', items: { type: 'string' } },
              id_token_signing_alg_values_supported: { type: 'array', items: { type: 'string' } },
              claims_supported: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
  },
});

/** The UserInfo answer: `sub` always, then the claims the token's scopes and the grant's request name. */
const userInfoSchema = component('UserInfo', {
  type: 'object',
  required: ['sub'],
  additionalProperties: true,
  properties: {
    sub: { type: 'string', description: 'The subject, as this client sees the person (public or pairwise)', examples: ['user_4Qm8sT2vX7kN1pR6aZ3c'] },
    name: { type: 'string', examples: ['Ada Lovelace'] },
    given_name: { type: 'string', examples: ['Ada'] },
    family_name: { type: 'string', examples: ['Lovelace'] },
    preferred_username: { type: 'string', examples: ['ada'] },
    email: { type: 'string', format: 'email' },
    email_verified: { type: 'boolean' },
    phone_number: { type: 'string', examples: ['+44 20 7946 0000'] },
    updated_at: { type: 'integer', description: 'Seconds since the epoch', examples: [1773480413] },
  },
} as const);

export function registerOidcRoutes(app: FastifyInstance, deps: { issuer: string; db: Db; clients: Clients; accessTokens: AccessTokens; idTokens: IdTokens }): void {
  const { db } = deps;
  const metadata = serverMetadata(deps.issuer);
  for (const [url, operationId, summary] of [
    ['/.well-known/oauth-authorization-server', 'getAuthorizationServerMetadata', 'Authorization server metadata (RFC 8414)'],
    ['/.well-known/openid-configuration', 'getOpenIdConfiguration', 'OpenID Provider metadata (OpenID Connect Discovery 1.0); the same document as RFC 8414'],
  ] as const) {
    app.get(url, browserCallable({ config: metadataDocs, schema: { tags: ['oauth'], operationId, summary } }), async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return metadata;
    });
  }

  const userInfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const principal = principalOf(request);
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    // RFC 6750 §3: the refusal carries its Bearer challenge, as requireBearer's do.
    if (principal.userId === null) {
      throw problem('insufficient_scope', {
        detail: 'This token stands for no person (client credentials)',
        headers: { 'www-authenticate': 'Bearer realm="gatehouse", error="insufficient_scope", error_description="The token stands for no person"' },
      });
    }
    const [client, user, token] = await Promise.all([
      deps.clients.find(principal.clientId),
      db.selectFrom('users').selectAll().where('account_id', '=', principal.accountId).where('id', '=', principal.userId).executeTakeFirst(),
      db
        .selectFrom('access_tokens')
        .leftJoin('oauth_grants', 'oauth_grants.id', 'access_tokens.grant_id')
        .select('oauth_grants.claims')
        .where('access_tokens.id', '=', principal.tokenId)
        .executeTakeFirst(),
    ]);
    if (!client || !user) throw problem('invalid_token', { headers: { 'www-authenticate': 'Bearer realm="gatehouse", error="invalid_token"' } });
    const requested = token?.claims ? parseClaimsRequest(token.claims) : undefined;
    const wanted = [...claimsOfScopes(principal.scopes), ...consentedClaims(requested?.userinfo ?? [], principal.scopes)];
    return { ...selectClaims(profileClaims(user), wanted), sub: deps.idTokens.subjectFor(client, user.id) };
  };

  // GET and POST are one endpoint (OIDC Core §5.3.1), each its own operation in the document.
  const access = bearerAccess(deps.accessTokens)('openid');
  const summary = 'UserInfo endpoint (OpenID Connect Core §5.3): the claims of the person the access token stands for';
  const response = { 200: userInfoSchema, ...errorResponses(401, 403) };
  app.get('/userinfo', browserCallable(protectedRoute(access, { schema: { tags: ['oauth'], operationId: 'getUserInfo', summary, response } })), userInfo);
  registerPreflight(app, '/userinfo', ['GET', 'POST']);
  // Relying parties POST with a form content type and an empty body (the token in Authorization,
  // OIDC Core §5.3.1), so the form parser is this route's too; the body names nothing it reads.
  app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 64 * 1024 });
    scope.post('/userinfo', browserCallable(protectedRoute(access, { schema: { tags: ['oauth'], operationId: 'postUserInfo', summary: `${summary} (POST)`, response } })), userInfo);
  });
}
