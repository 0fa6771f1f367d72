/**
 * How the public API document describes its credentials: the OAuth 2.0 scheme with both flows
 * this server grants (authorization code with PKCE, client credentials), their endpoints and
 * every scope, and the SCIM token that identity providers use instead of an access token; and
 * how a client authenticates at /token, /revoke and /introspect (RFC 6749 §2.3, OpenID Connect
 * Core §9): HTTP Basic as a scheme, the methods carried in the form as the alternative.
 */
import { OAUTH2_SCHEME } from '../platform/auth.ts';
import { SCIM_TOKEN_SCHEME } from '../scim/tokens.ts';
import { SCOPES } from './scopes.ts';

export const CLIENT_BASIC_SCHEME = 'clientSecretBasic';

/** For the client-authenticated endpoints: Basic, or (the empty requirement) a method carried in the form. */
export const CLIENT_AUTHENTICATION_SECURITY: Array<Record<string, string[]>> = [{ [CLIENT_BASIC_SCHEME]: [] }, {}];

export const CLIENT_AUTHENTICATION = [
  'The client authenticates with the method it was registered with (`token_endpoint_auth_method`):',
  '- `client_secret_basic`: `Authorization: Basic` of `client_id:client_secret`, each form-urlencoded first (RFC 6749 §2.3.1);',
  '- `client_secret_post`: `client_id` and `client_secret` in the form;',
  '- `private_key_jwt`: `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`, a JWT signed with a key of the registered `jwks` or `jwks_uri`, with `iss` = `sub` = the client_id, `aud` = the issuer, `exp` at most ten minutes away and a `jti` used once (RFC 7523);',
  '- `none` (a public client, PKCE): `client_id` in the form only.',
  'One method per request: credentials in two places are refused. A failed authentication is 401 `invalid_client` with `WWW-Authenticate: Basic`.',
].join('\n');

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
    [CLIENT_BASIC_SCHEME]: {
      type: 'http',
      scheme: 'basic',
      description: 'Client authentication at /token, /revoke and /introspect with client_secret_basic (RFC 6749 §2.3.1). The other methods are carried in the form: see each endpoint.',
    },
    [SCIM_TOKEN_SCHEME]: {
      type: 'http',
      scheme: 'bearer',
      description: 'A SCIM token made on the admin API (POST /admin/v1/accounts/{id}/scim-tokens), for /scim/v2 only. See docs/SCIM.md.',
    },
  };
}
