/**
 * Client authentication at the token, revocation and introspection endpoints.
 *
 * - RFC 6749 §2.3.1: HTTP Basic (form-urlencoded id and secret) or id and secret in the body;
 *   never both, and never more than one method in one request (§2.3).
 * - RFC 7523 §3 / RFC 7521 §4.2: `private_key_jwt` — iss = sub = client_id, aud = the issuer
 *   or the token endpoint and nothing else (an audience list naming another server too is
 *   refused, as RFC 7523bis requires against audience injection), exp required and at most ten minutes away, an iat no later than now
 *   (both judged with a few seconds' clock tolerance), jti (at most 256 characters) accepted
 *   once: it is remembered for as long as the assertion could be accepted, that is until exp
 *   plus the tolerance.
 * - `none`: a public client names itself with client_id and proves nothing here (PKCE does).
 * A client must use the method it registered. Secrets are compared in constant time against
 * their stored digests; a failure never says which part was wrong.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWTVerifyOptions } from 'jose';
import type { RemoteJwks } from './jwks-fetch.ts';
import type { Db } from '../platform/db/database.ts';
import { isUniqueViolation } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { matchesDigest } from '../platform/crypto.ts';
import type { Client, Clients } from './clients.ts';
import { ClientAuthFailure, clientAuthFailed, oauthError } from './errors.ts';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const MAX_ASSERTION_LIFETIME_SECONDS = 600;
/** How far the client's clock may be from ours when exp, nbf and iat are judged. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** The longest jti remembered: it is part of an indexed key, which PostgreSQL bounds (2704 bytes). */
const MAX_JTI_LENGTH = 256;

export interface ClientCredentials {
  authorization?: string;
  client_id?: string;
  client_secret?: string;
  client_assertion_type?: string;
  client_assertion?: string;
}

/**
 * RFC 6749 §2.3.1: the Basic user and password are form-urlencoded. Generated ids and secrets
 * hold neither `%` nor `+`, so most requests have nothing to decode.
 */
function formDecode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

const BASIC = /^Basic +([A-Za-z0-9+/]+=*) *$/i;

function parseBasic(header: string): { id: string; secret: string } | undefined {
  const match = BASIC.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function assertionSubject(assertion: string): string | undefined {
  try {
    const sub = decodeJwt(assertion).sub;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client a request claims to be, read as authentication reads it (Basic decoded, else the
 * assertion's subject, else client_id), before anything is checked: what failed attempts are
 * counted against, so that no spelling of an id escapes its count.
 */
export function claimedClientId(input: ClientCredentials): string | undefined {
  if (input.authorization !== undefined) return parseBasic(input.authorization)?.id;
  if (input.client_assertion !== undefined) return assertionSubject(input.client_assertion) ?? input.client_id;
  return input.client_id;
}

/** Why presented credentials did not authenticate `client` (undefined: no such client) by `method`. */
function refusal(client: Client | undefined, method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none', clientId: string): ClientAuthFailure {
  const reason = !client ? 'unknown_client' : client.authMethod !== method ? 'method_not_registered' : method === 'private_key_jwt' ? 'assertion_invalid' : 'wrong_secret';
  return new ClientAuthFailure(reason, method, clientId, client?.accountId);
}

export function createClientAuthenticator(deps: { db: Db; clock: Clock; clients: Clients; issuer: string; tokenEndpoint: string; remoteJwks?: RemoteJwks }) {
  const { db, clock, clients, issuer, tokenEndpoint } = deps;

  /**
   * The client's keys: inline, or from its jwks_uri; an assertion naming a kid the cached set
   * lacks refetches it once (jwks-fetch.ts bounds how often).
   */
  async function verifyWithClientKeys(client: Client, assertion: string, options: JWTVerifyOptions) {
    if (client.jwks) return jwtVerify(assertion, createLocalJWKSet(client.jwks as JSONWebKeySet), options);
    if (!client.jwksUri || !deps.remoteJwks) throw new Error('no keys');
    try {
      return await jwtVerify(assertion, createLocalJWKSet(await deps.remoteJwks.get(client.jwksUri)), options);
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      return jwtVerify(assertion, createLocalJWKSet(await deps.remoteJwks.get(client.jwksUri, { refresh: true })), options);
    }
  }

  async function bySecretBasic(header: string, bodyClientId: string | undefined): Promise<Client> {
    const basic = parseBasic(header);
    if (!basic) throw clientAuthFailed(new ClientAuthFailure('malformed_credentials', 'client_secret_basic', undefined), 'The Authorization header is not valid HTTP Basic');
    if (bodyClientId !== undefined && bodyClientId !== basic.id) throw oauthError('invalid_request', 'client_id in the body differs from the Basic credentials');
    const client = await clients.find(basic.id);
    const ok = client?.secretDigest != null && matchesDigest(basic.secret, client.secretDigest);
    if (!client || !ok || client.authMethod !== 'client_secret_basic') throw clientAuthFailed(refusal(client, 'client_secret_basic', basic.id), 'Client authentication failed');
    return client;
  }

  async function bySecretPost(clientId: string, secret: string): Promise<Client> {
    const client = await clients.find(clientId);
    const ok = client?.secretDigest != null && matchesDigest(secret, client.secretDigest);
    if (!client || !ok || client.authMethod !== 'client_secret_post') throw clientAuthFailed(refusal(client, 'client_secret_post', clientId), 'Client authentication failed');
    return client;
  }

  async function byAssertion(type: string | undefined, assertion: string, bodyClientId: string | undefined): Promise<Client> {
    if (type !== JWT_BEARER_ASSERTION) throw oauthError('invalid_request', `client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
    let claimed: string | undefined;
    try {
      const claims = decodeJwt(assertion);
      claimed = typeof claims.sub === 'string' ? claims.sub : undefined;
    } catch {
      throw clientAuthFailed(new ClientAuthFailure('malformed_credentials', 'private_key_jwt', bodyClientId), 'client_assertion is not a JWT');
    }
    if (!claimed) throw clientAuthFailed(new ClientAuthFailure('malformed_credentials', 'private_key_jwt', bodyClientId), 'client_assertion has no sub');
    if (bodyClientId !== undefined && bodyClientId !== claimed) throw clientAuthFailed(new ClientAuthFailure('malformed_credentials', 'private_key_jwt', bodyClientId), 'client_id differs from the assertion subject');
    const client = await clients.find(claimed);
    if (!client || client.authMethod !== 'private_key_jwt' || (!client.jwks && !client.jwksUri)) throw clientAuthFailed(refusal(client, 'private_key_jwt', claimed), 'Client authentication failed');
    const now = clock.now();
    let exp: number;
    let iat: number | undefined;
    let jti: unknown;
    let aud: unknown;
    try {
      const { payload } = await verifyWithClientKeys(client, assertion, {
        issuer: client.id,
        subject: client.id,
        audience: [issuer, tokenEndpoint],
        algorithms: ASSERTION_ALGORITHMS,
        requiredClaims: ['exp', 'jti'],
        currentDate: new Date(now),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      exp = payload.exp!;
      iat = payload.iat;
      jti = payload.jti;
      aud = payload.aud;
    } catch {
      throw clientAuthFailed(new ClientAuthFailure('assertion_invalid', 'private_key_jwt', client.id, client.accountId), 'client_assertion is invalid, expired or not signed by a registered key');
    }
    // jose accepts an audience list that holds one of ours: one written for several servers could be replayed at each.
    if (Array.isArray(aud) && aud.length !== 1) {
      throw clientAuthFailed(new ClientAuthFailure('assertion_invalid', 'private_key_jwt', client.id, client.accountId), 'client_assertion aud must name this server alone (the issuer or the token endpoint)');
    }
    if (exp * 1000 > now + MAX_ASSERTION_LIFETIME_SECONDS * 1000) {
      throw clientAuthFailed(new ClientAuthFailure('assertion_invalid', 'private_key_jwt', client.id, client.accountId), `client_assertion must expire within ${MAX_ASSERTION_LIFETIME_SECONDS} seconds`);
    }
    // jose checks iat only against a maximum age; an assertion dated in the future is refused here.
    if (iat !== undefined && iat * 1000 > now + CLOCK_TOLERANCE_SECONDS * 1000) {
      throw clientAuthFailed(new ClientAuthFailure('assertion_invalid', 'private_key_jwt', client.id, client.accountId), 'client_assertion is issued in the future (iat)');
    }
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) {
      throw clientAuthFailed(new ClientAuthFailure('assertion_invalid', 'private_key_jwt', client.id, client.accountId), `client_assertion jti must be a non-empty string of at most ${MAX_JTI_LENGTH} characters`);
    }
    await rememberJti(client, jti, exp, now);
    return client;
  }

  /**
   * RFC 7523 §3 item 7: a jti is accepted once. Its row lives as long as the assertion could be
   * accepted (exp plus the clock tolerance), so neither pruning here nor the sweeper forgets a
   * jti while a captured copy of the assertion would still pass.
   */
  async function rememberJti(client: Client, jti: string, exp: number, now: number): Promise<void> {
    const clientId = client.id;
    const acceptedUntil = Math.ceil((exp + CLOCK_TOLERANCE_SECONDS) * 1000);
    await db.deleteFrom('oauth_assertion_jtis').where('client_id', '=', clientId).where('expires_at', '<', now).execute();
    try {
      await db.insertInto('oauth_assertion_jtis').values({ client_id: clientId, jti, expires_at: acceptedUntil }).execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw clientAuthFailed(new ClientAuthFailure('assertion_replayed', 'private_key_jwt', client.id, client.accountId), 'client_assertion was already used (jti)');
      throw error;
    }
  }

  async function asPublic(clientId: string): Promise<Client> {
    const client = await clients.find(clientId);
    if (!client || client.authMethod !== 'none') throw clientAuthFailed(refusal(client, 'none', clientId), 'Client authentication failed');
    return client;
  }

  return {
    /** The authenticated client, or an invalid_client / invalid_request error. */
    async authenticate(input: ClientCredentials): Promise<Client> {
      const used = [input.authorization !== undefined, input.client_secret !== undefined, input.client_assertion !== undefined].filter(Boolean).length;
      if (used > 1) throw oauthError('invalid_request', 'Use exactly one client authentication method');
      if (input.authorization !== undefined) return bySecretBasic(input.authorization, input.client_id);
      if (input.client_assertion !== undefined) return byAssertion(input.client_assertion_type, input.client_assertion, input.client_id);
      if (input.client_id === undefined) throw clientAuthFailed(new ClientAuthFailure('no_credentials', undefined, undefined), 'Client authentication is required');
      if (input.client_secret !== undefined) return bySecretPost(input.client_id, input.client_secret);
      return asPublic(input.client_id);
    },
  };
}

export type ClientAuthenticator = ReturnType<typeof createClientAuthenticator>;
