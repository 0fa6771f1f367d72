/**
 * OpenID Connect on the public listener: the server metadata, served alike at
 * /.well-known/oauth-authorization-server (RFC 8414) and /.well-known/openid-configuration
 * (OpenID Connect Discovery 1.0 §4), so the two documents never disagree; and the UserInfo
 * endpoint (OIDC Core §5.3), GET and POST, with the access token as a bearer header (RFC 6750
 * §2.1), answering the claims the token's scopes and the grant's `claims` request name.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import { requireBearer, principalOf } from '../platform/auth.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import type { AccessTokens } from './access-tokens.ts';
import type { Clients } from './clients.ts';
import { AUTH_METHODS, ID_TOKEN_ALGS, SUBJECT_TYPES } from './clients.ts';
import { ASSERTION_ALGORITHMS } from './client-auth.ts';
import { ACR_PASSWORD, type IdTokens } from './id-token.ts';
import { CLAIMS_SUPPORTED, claimsOfScopes, parseClaimsRequest, profileClaims, selectClaims } from './oidc-claims.ts';
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
    prompt_values_supported: ['none', 'login', 'consent'],
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    frontchannel_logout_supported: false,
  };
}

export function registerOidcRoutes(app: FastifyInstance, deps: { issuer: string; db: Db; clients: Clients; accessTokens: AccessTokens; idTokens: IdTokens }): void {
  const { db } = deps;
  const metadata = serverMetadata(deps.issuer);
  for (const [url, summary] of [
    ['/.well-known/oauth-authorization-server', 'Authorization server metadata (RFC 8414)'],
    ['/.well-known/openid-configuration', 'OpenID Provider metadata (OpenID Connect Discovery 1.0); the same document as RFC 8414'],
  ] as const) {
    app.get(url, { schema: { tags: ['oauth'], summary } }, async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return metadata;
    });
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/userinfo',
    onRequest: requireBearer(deps.accessTokens, ['openid']),
    schema: {
      tags: ['oauth'],
      summary: 'UserInfo endpoint (OpenID Connect Core §5.3): the claims of the person the access token stands for',
      security: [{ bearer: [] }],
      response: { 200: { type: 'object', required: ['sub'], additionalProperties: true, properties: { sub: { type: 'string' } } }, ...errorResponses(401, 403) },
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      if (principal.userId === null) throw problem('insufficient_scope', { detail: 'This token stands for no person (client credentials)' });
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
      const wanted = [...claimsOfScopes(principal.scopes), ...(requested?.userinfo ?? [])];
      return { ...selectClaims(profileClaims(user), wanted), sub: deps.idTokens.subjectFor(client, user.id) };
    },
  });
}
