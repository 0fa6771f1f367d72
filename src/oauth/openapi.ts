/**
 * How the public API document describes its credentials: the OAuth 2.0 scheme with both flows
 * this server grants (authorization code with PKCE, client credentials), their endpoints and
 * every scope, and the SCIM token that identity providers use instead of an access token.
 */
import { OAUTH2_SCHEME } from '../platform/auth.ts';
import { SCIM_TOKEN_SCHEME } from '../scim/tokens.ts';
import { SCOPES } from './scopes.ts';

export function publicSecuritySchemes(issuer: string): Record<string, unknown> {
  const scopes = { ...SCOPES };
  return {
    [OAUTH2_SCHEME]: {
      type: 'oauth2',
      description: 'OAuth 2.0 access tokens (RFC 6749), sent as `Authorization: Bearer <token>` (RFC 6750). See docs/OAUTH.md.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${issuer}/authorize`,
          tokenUrl: `${issuer}/token`,
          refreshUrl: `${issuer}/token`,
          scopes,
        },
        clientCredentials: { tokenUrl: `${issuer}/token`, scopes },
      },
    },
    [SCIM_TOKEN_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      description: 'A SCIM token made on the admin API (POST /admin/v1/accounts/{id}/scim-tokens), for /scim/v2 only. See docs/SCIM.md.',
    },
  };
}
