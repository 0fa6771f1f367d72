/**
 * The token endpoint's grants (RFC 6749 §4.1.3, §4.4, §6; RFC 7636 §4.6).
 *
 * - authorization_code: the code is single use, unexpired, issued to this client for this
 *   redirect_uri, which the client still registers, and its code_challenge matches
 *   code_verifier (S256). A replayed code is refused and revokes what it issued.
 * - refresh_token: rotated on every use; a rotated token presented again revokes the grant.
 *   `scope` may narrow, never widen, the consented set; the user's roles are re-applied, and
 *   an inactive user or a revoked grant gets nothing.
 * - A person's token (code or refresh) carries a privileged scope only when one of the person's
 *   roles names it (`grantableToPerson`), and only scopes the client's registration still
 *   holds (`withinRegistration`), whatever the code or grant recorded.
 * - client_credentials: bounded by the client's registered scope; never a refresh token.
 * Every failure is an RFC 6749 §5.2 error and issues nothing.
 */
import { jsonString } from '../platform/text.ts';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { safeEqual, sha256Base64Url } from '../platform/crypto.ts';
import type { AccessTokens } from './access-tokens.ts';
import type { Client } from './clients.ts';
import type { ClientAuthenticator, ClientCredentials } from './client-auth.ts';
import { ClientAuthFailure, clientAuthFailed, oauthError } from './errors.ts';
import { recordAudit } from '../audit/record.ts';
import { holdActiveUser } from '../users/store.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { consumeCode, createGrant, findCode, findGrant, findRefreshToken, issueRefreshToken, revokeGrant, rotateRefreshToken, type Trx } from './grants.ts';
import { formatScope, grantableToPerson, isSubset, parseScope, scopeSet } from './scopes.ts';
import { ACR_PASSWORD, type IdTokens } from './id-token.ts';
import { consentedClaims, parseClaimsRequest } from './oidc-claims.ts';
import { isRegisteredRedirect } from './authorize.ts';


/** The audit record of a grant revoked because its code or refresh token came back (RFC 6749 §4.1.2, §10.4). */
function replayRevoked(trx: Trx, client: Client, row: { account_id: string; grant_id: string }, presented: 'code' | 'refresh_token', at: number) {
  return recordAudit(trx, { actor: { type: 'client', id: client.id } }, {
    accountId: row.account_id,
    action: 'grant.replay_revoked',
    target: { type: 'grant', id: row.grant_id },
    changes: { revoked: { before: false, after: true }, presented: { after: presented } },
    at,
  });
}

export type UserScopeBound = (accountId: string, userId: string) => Promise<ReadonlySet<string> | null>;

export type AuthenticateClient = (credentials: ClientCredentials) => Promise<Client>;

export interface TokenRequest extends ClientCredentials {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  scope?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  /** OpenID Connect: when the granted scope holds `openid`. */
  id_token?: string;
}

/**
 * The token response (RFC 6749 §5.1) as JSON text, members in the order the RFC lists them. Its
 * values are tokens, scopes and numbers, which hold nothing to escape: written out directly, it
 * skips the schema serializer's escaping scan over a token of some 300 characters, on the
 * endpoint every client calls most.
 */
export function tokenResponseJson(response: TokenResponse): string {
  let json = `{"access_token":${jsonString(response.access_token)},"token_type":${jsonString(response.token_type)},"expires_in":${response.expires_in}`;
  if (response.refresh_token !== undefined) json += `,"refresh_token":${jsonString(response.refresh_token)}`;
  json += `,"scope":${jsonString(response.scope)}`;
  if (response.id_token !== undefined) json += `,"id_token":${jsonString(response.id_token)}`;
  return `${json}}`;
}

export interface TokenEndpointDeps {
  db: Db;
  clock: Clock;
  accessTokens: AccessTokens;
  clientAuth: ClientAuthenticator;
  userScopeBound: UserScopeBound;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  idTokens?: IdTokens;
  /** Called once for each token response, with its grant type (metrics count them). */
  onIssued?: ((grantType: string) => void) | undefined;
}

/** What a grant recorded for its ID tokens (the code's, carried to the grant). */
interface OidcFacts {
  nonce: string | null;
  auth_time: number | null;
  session_id: string | null;
  claims: string | null;
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

function requireParam(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw oauthError('invalid_request', `${name} is required`);
  return value;
}

function requireGrantType(client: Client, grantType: string): void {
  if (!client.grantTypes.includes(grantType)) throw oauthError('unauthorized_client', `This client may not use ${grantType}`);
}

/** The scopes the client's registration still holds: an operator may have narrowed it since the consent. */
function withinRegistration(client: Client, scopes: string[]): string[] {
  return scopes.filter((s) => client.scopes.has(s));
}

/** A failure that must still commit what it revoked: thrown after the transaction. */
class Refusal {
  constructor(readonly error: Error) {}
}


/**
 * Holds, until a code exchange or refresh commits, the person and the client it issues for
 * (PostgreSQL; SQLite's one writer already keeps the rest out): the person for share
 * (`holdActiveUser`), the client for reference, whose deletion (clients.ts `remove`) deletes it
 * before revoking what it issued. Each change that ends their tokens then either waits for the
 * issue and revokes what it wrote, or went first and is seen here. The refusal when either is
 * gone, or the person may no longer sign in, or (a code's `redirectUri`) the client no longer
 * registers the redirect URI the code was sent to.
 */
async function holdIssuers(trx: Trx, accountId: string, userId: string, client: Client, redirectUri?: string): Promise<Refusal | undefined> {
  if (!(await holdActiveUser(trx, accountId, userId))) return new Refusal(oauthError('invalid_grant', 'The user can no longer sign in'));
  const held = await dialectOf(trx).lockForReference(trx.selectFrom('oauth_clients').select(['id', 'redirect_uris']).where('id', '=', client.id)).executeTakeFirst();
  if (!held) return new Refusal(clientAuthFailed(new ClientAuthFailure('unknown_client', client.authMethod, client.id), 'Client authentication failed'));
  // From the row held, not the authenticated client, which a node may have cached for a second:
  // removing a redirect URI (a retired or compromised callback) must also stop the codes already
  // sent to it, and a code outlives that second.
  if (redirectUri !== undefined && !isRegisteredRedirect(JSON.parse(held.redirect_uris) as string[], redirectUri)) {
    return new Refusal(oauthError('invalid_grant', 'The redirect_uri of the authorization request is no longer registered for this client'));
  }
  return undefined;
}

export function createTokenEndpoint(deps: TokenEndpointDeps) {
  const { db, clock, accessTokens, clientAuth, userScopeBound } = deps;

  async function withRefusals<T>(work: (trx: Trx) => Promise<T | Refusal>): Promise<T> {
    const outcome = await db.transaction().execute(work);
    if (outcome instanceof Refusal) throw outcome.error;
    return outcome;
  }

  /**
   * The ID token of a response whose scope holds `openid` (OIDC Core §3.1.3.3); a refresh's
   * carries the original auth_time and no nonce (§12.2). Signed after the tokens committed.
   */
  async function withIdToken(response: TokenResponse, client: Client, grant: { account_id: string; user_id: string; created_at: number } & OidcFacts, refresh: boolean): Promise<TokenResponse> {
    if (!deps.idTokens || !scopeSet(response.scope).has('openid')) return response;
    const requested = grant.claims ? parseClaimsRequest(grant.claims) : undefined;
    const id_token = await deps.idTokens.issue({
      client,
      accountId: grant.account_id,
      userId: grant.user_id,
      authTime: grant.auth_time ?? grant.created_at,
      nonce: refresh ? null : grant.nonce,
      sessionId: grant.session_id,
      accessToken: response.access_token,
      claims: requested ? consentedClaims(requested.id_token, scopeSet(response.scope)) : undefined,
      acr: ACR_PASSWORD,
    });
    return { ...response, id_token };
  }

  async function authorizationCode(client: Client, req: TokenRequest): Promise<TokenResponse> {
    requireGrantType(client, 'authorization_code');
    const code = requireParam(req.code, 'code');
    const redirectUri = requireParam(req.redirect_uri, 'redirect_uri');
    const row = await findCode(db, code);
    if (!row || row.client_id !== client.id) throw oauthError('invalid_grant', 'The authorization code is invalid');
    const now = clock.now();
    if (row.consumed_at !== null) {
      await db.transaction().execute(async (trx) => {
        await revokeGrant(trx, row.grant_id, now);
        await replayRevoked(trx, client, row, 'code', now);
      });
      throw oauthError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked');
    }
    if (row.expires_at <= now) throw oauthError('invalid_grant', 'The authorization code has expired');
    if (row.redirect_uri !== redirectUri) throw oauthError('invalid_grant', 'redirect_uri differs from the authorization request');
    if (row.code_challenge !== null) {
      const verifier = req.code_verifier;
      if (verifier === undefined) throw oauthError('invalid_grant', 'code_verifier is required (PKCE)');
      if (!VERIFIER.test(verifier) || !safeEqual(sha256Base64Url(verifier), row.code_challenge)) {
        throw oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
      }
    } else if (req.code_verifier !== undefined) {
      throw oauthError('invalid_grant', 'code_verifier sent but no code_challenge was');
    }
    const bound = await userScopeBound(row.account_id, row.user_id);
    const scopes = withinRegistration(client, grantableToPerson(scopeSet(row.scope), bound));
    const response = await withRefusals(async (trx) => {
      const refused = await holdIssuers(trx, row.account_id, row.user_id, client, row.redirect_uri);
      if (refused) return refused;
      if (!(await consumeCode(trx, row.code_digest, now))) {
        // Gone rather than spent: the person's access was ended (their codes deleted) meanwhile.
        if (!(await findCode(trx, code))) return new Refusal(oauthError('invalid_grant', 'The authorization code is invalid'));
        await revokeGrant(trx, row.grant_id, now);
        await replayRevoked(trx, client, row, 'code', now);
        return new Refusal(oauthError('invalid_grant', 'The authorization code was already used; the tokens it issued are revoked'));
      }
      if (scopes.length === 0) return new Refusal(oauthError('invalid_scope', "None of the consented scopes may be granted: the client's registration no longer holds them, or none of the person's roles names them (once an account maps roles, a person's API scopes come from their roles; without roles, the privileged scopes are given to nobody)"));
      const grant = {
        id: row.grant_id,
        account_id: row.account_id,
        client_id: client.id,
        user_id: row.user_id,
        scope: row.scope,
        created_at: now,
        expires_at: now + deps.refreshTokenTtl * 1000,
        revoked_at: null,
        nonce: row.nonce,
        auth_time: row.auth_time,
        session_id: row.session_id,
        claims: row.claims,
      };
      await createGrant(trx, grant);
      const access = await accessTokens.issue(
        { accountId: row.account_id, clientId: client.id, userId: row.user_id, grantId: grant.id, scopes, ttlSeconds: deps.accessTokenTtl },
        trx,
      );
      const refresh = client.grantTypes.includes('refresh_token') ? await issueRefreshToken(trx, grant, now) : undefined;
      return { access_token: access.token, token_type: 'Bearer' as const, expires_in: access.expiresIn, ...(refresh ? { refresh_token: refresh } : {}), scope: access.scope };
    });
    return withIdToken(response, client, { ...row, created_at: now }, false);
  }

  async function refreshToken(client: Client, req: TokenRequest): Promise<TokenResponse> {
    requireGrantType(client, 'refresh_token');
    const presented = requireParam(req.refresh_token, 'refresh_token');
    const requested = req.scope === undefined ? undefined : parseScope(req.scope);
    if (requested === undefined && req.scope !== undefined) throw oauthError('invalid_scope', 'scope is malformed');
    const row = await findRefreshToken(db, presented);
    if (!row || row.client_id !== client.id) throw oauthError('invalid_grant', 'The refresh token is invalid');
    const now = clock.now();
    if (row.rotated_at !== null && row.revoked_at === null) {
      await db.transaction().execute(async (trx) => {
        await revokeGrant(trx, row.grant_id, now);
        await replayRevoked(trx, client, row, 'refresh_token', now);
      });
      throw oauthError('invalid_grant', 'The refresh token was already used; the grant is revoked');
    }
    if (row.revoked_at !== null || row.expires_at <= now) throw oauthError('invalid_grant', 'The refresh token is revoked or expired');
    const grant = await findGrant(db, row.grant_id);
    if (!grant || grant.revoked_at !== null || grant.expires_at <= now) throw oauthError('invalid_grant', 'The grant is revoked or expired');
    const consented = scopeSet(grant.scope);
    if (requested && !isSubset(requested, consented)) {
      throw oauthError('invalid_scope', 'A refresh may narrow the scope, never widen it; a broader scope needs a new consent');
    }
    const bound = await userScopeBound(grant.account_id, grant.user_id);
    const scopes = withinRegistration(client, grantableToPerson(requested && requested.length > 0 ? requested : consented, bound));
    // Before the rotation: a refusal must not spend the token, or the client's next try would look like a replay.
    if (scopes.length === 0) throw oauthError('invalid_scope', "None of the requested scopes may be granted: the client's registration no longer holds them, or none of the person's roles names them (once an account maps roles, a person's API scopes come from their roles; without roles, the privileged scopes are given to nobody)");
    const response = await withRefusals(async (trx) => {
      const refused = await holdIssuers(trx, grant.account_id, grant.user_id, client);
      if (refused) return refused;
      if (!(await rotateRefreshToken(trx, row.id, now))) {
        // Revoked rather than spent: the grant or the person's access was ended meanwhile.
        if ((await findRefreshToken(trx, presented))?.rotated_at === null) return new Refusal(oauthError('invalid_grant', 'The refresh token is revoked or expired'));
        await revokeGrant(trx, row.grant_id, now);
        await replayRevoked(trx, client, row, 'refresh_token', now);
        return new Refusal(oauthError('invalid_grant', 'The refresh token was already used; the grant is revoked'));
      }
      const access = await accessTokens.issue(
        { accountId: grant.account_id, clientId: client.id, userId: grant.user_id, grantId: grant.id, scopes, ttlSeconds: deps.accessTokenTtl },
        trx,
      );
      const refresh = await issueRefreshToken(trx, grant, now);
      return { access_token: access.token, token_type: 'Bearer' as const, expires_in: access.expiresIn, refresh_token: refresh, scope: access.scope };
    });
    return withIdToken(response, client, grant, true);
  }

  async function clientCredentials(client: Client, req: TokenRequest): Promise<TokenResponse> {
    requireGrantType(client, 'client_credentials');
    let scopes: string[];
    if (req.scope === undefined) {
      scopes = [...client.scopes];
    } else {
      const requested = parseScope(req.scope);
      if (!requested || requested.length === 0) throw oauthError('invalid_scope', 'scope is malformed or empty');
      if (!isSubset(requested, client.scopes)) throw oauthError('invalid_scope', `This client may ask only for: ${formatScope(client.scopes)}`);
      scopes = requested;
    }
    const access = await accessTokens.issueSealed({ accountId: client.accountId, clientId: client.id, scopes, ttlSeconds: deps.accessTokenTtl });
    return { access_token: access.token, token_type: 'Bearer', expires_in: access.expiresIn, scope: access.scope };
  }

  return {
    /** `authenticate` is where the caller adds what surrounds client authentication (its rate limits). */
    async exchange(req: TokenRequest, authenticate: AuthenticateClient = clientAuth.authenticate): Promise<TokenResponse> {
      const grantType = requireParam(req.grant_type, 'grant_type');
      const known = grantType === 'authorization_code' || grantType === 'refresh_token' || grantType === 'client_credentials';
      const client = await authenticate(req);
      if (!known) throw oauthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
      const response =
        grantType === 'authorization_code'
          ? await authorizationCode(client, req)
          : grantType === 'refresh_token'
            ? await refreshToken(client, req)
            : await clientCredentials(client, req);
      deps.onIssued?.(grantType);
      return response;
    },
  };
}

export type TokenEndpoint = ReturnType<typeof createTokenEndpoint>;
