/** Row types of the OAuth tables (DDL in migrations/0100_oauth.ts). Lists are JSON text. */
export interface OAuthTables {
  oauth_clients: {
    id: string;
    account_id: string;
    client_name: string;
    redirect_uris: string;
    grant_types: string;
    response_types: string;
    token_endpoint_auth_method: string;
    scope: string;
    jwks: string | null;
    secret_digest: string | null;
    secret_rotated_at: number | null;
    created_at: number;
    /** JSON list, compared exactly at RP-initiated logout */
    post_logout_redirect_uris: string;
    /** ES256 or RS256 */
    id_token_signed_response_alg: string;
    /** public or pairwise */
    subject_type: string;
    backchannel_logout_uri: string | null;
    /** 1: every authorization request must carry a code_challenge */
    require_pkce: number;
    jwks_uri: string | null;
    /** When an operator last ended every token of the client: sealed tokens issued at or before it are void. */
    tokens_not_before: number | null;
  };
  oauth_grants: {
    id: string;
    account_id: string;
    client_id: string;
    user_id: string;
    scope: string;
    created_at: number;
    expires_at: number;
    revoked_at: number | null;
    nonce: string | null;
    auth_time: number | null;
    session_id: string | null;
    /** JSON: the `claims` request parameter (OIDC Core §5.5), if any */
    claims: string | null;
  };
  oauth_codes: {
    code_digest: string;
    account_id: string;
    client_id: string;
    user_id: string;
    grant_id: string;
    redirect_uri: string;
    scope: string;
    code_challenge: string | null;
    created_at: number;
    expires_at: number;
    consumed_at: number | null;
    nonce: string | null;
    auth_time: number | null;
    session_id: string | null;
    /** JSON: the `claims` request parameter (OIDC Core §5.5), if any */
    claims: string | null;
  };
  oauth_refresh_tokens: {
    id: string;
    token_digest: string;
    account_id: string;
    client_id: string;
    user_id: string;
    grant_id: string;
    issued_at: number;
    expires_at: number;
    rotated_at: number | null;
    revoked_at: number | null;
  };
  oauth_consents: {
    account_id: string;
    user_id: string;
    client_id: string;
    scope: string;
    updated_at: number;
  };
  oauth_sessions: {
    id: string;
    session_digest: string;
    account_id: string;
    user_id: string;
    authenticated_at: number;
    expires_at: number;
    ended_at: number | null;
  };
  oauth_assertion_jtis: {
    client_id: string;
    jti: string;
    expires_at: number;
  };
  oauth_revoked_tokens: {
    token_id: string;
    expires_at: number;
  };
  oauth_signing_keys: {
    kid: string;
    alg: string;
    public_jwk: string;
    private_jwk: string;
    created_at: number;
    /** When it stops signing (sealing): in the future while a rotated key waits for its successor's start. */
    retired_at: number | null;
    publish_until: number | null;
    /** When a signing key starts signing; null: from its creation. */
    signs_from: number | null;
    /** When a key was withdrawn as possibly leaked (`rotate-keys --revoke`); null for every other. */
    withdrawn_at: number | null;
  };
}

export interface OidcTables {
  oidc_session_clients: {
    session_id: string;
    client_id: string;
    account_id: string;
    user_id: string;
    created_at: number;
  };
  oidc_logout_deliveries: {
    id: string;
    account_id: string;
    client_id: string;
    target_uri: string;
    claims: string;
    /** pending | delivered | parked */
    state: string;
    failures: number;
    next_attempt_at: number;
    lease_until: number | null;
    last_error: string | null;
    created_at: number;
    delivered_at: number | null;
  };
}

export type ClientRow = OAuthTables['oauth_clients'];

/** Access tokens stored by digest (see access-tokens.ts). */
export interface AccessTokenTables {
  access_tokens: {
    id: string;
    token_digest: string;
    account_id: string;
    client_id: string;
    user_id: string | null;
    grant_id: string | null;
    /** space-delimited */
    scope: string;
    issued_at: number;
    expires_at: number;
    revoked_at: number | null;
  };
}

