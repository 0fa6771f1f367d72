/**
 * Client registration metadata (RFC 7591 §2) and the rules it must follow, checked at creation
 * and again, whole, after every partial update: redirect URIs (RFC 6749 §3.1.2, RFC 8252 §7.1),
 * grant and response types that go together, known scopes, keys for private_key_jwt, and the
 * OpenID Connect fields. clients.ts stores what `checkMetadata` returns.
 */
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import { problem } from '../platform/errors/catalogue.ts';
import { SCOPE_NAMES, formatScope, parseScope } from './scopes.ts';

export const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;

export interface ClientMetadata {
  client_name?: string;
  redirect_uris?: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: AuthMethod;
  scope?: string;
  jwks?: { keys: Array<Record<string, unknown>> } | null;
  jwks_uri?: string | null;
  post_logout_redirect_uris?: string[];
  id_token_signed_response_alg?: IdTokenAlg;
  subject_type?: SubjectType;
  backchannel_logout_uri?: string | null;
  require_pkce?: boolean;
}

export const ID_TOKEN_ALGS = ['ES256', 'RS256'] as const;
export type IdTokenAlg = (typeof ID_TOKEN_ALGS)[number];
export const SUBJECT_TYPES = ['public', 'pairwise'] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function checkRedirectUri(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw problem('invalid_redirect_uri', { detail: `${raw} is not an absolute URI` });
  }
  if (url.hash !== '' || raw.includes('#')) throw problem('invalid_redirect_uri', { detail: `${raw} must not contain a fragment` });
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return;
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)) return; // private-use scheme, e.g. com.example.app:
  throw problem('invalid_redirect_uri', { detail: `${raw} must use https (http only for loopback hosts)` });
}

/** A URL Gatehouse calls (jwks_uri, backchannel_logout_uri): https, or http to a loopback host. */
function checkOutboundUri(raw: string, name: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw metadataError(`${name}: ${raw} is not an absolute URL`);
  }
  if (url.hash !== '') throw metadataError(`${name} must not contain a fragment`);
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return;
  throw metadataError(`${name} must use https (http only for loopback hosts)`);
}

export function metadataError(detail: string) {
  return problem('invalid_client_metadata', { detail });
}

/** Normalises and checks registration metadata; returns the row values it implies. */
export function checkMetadata(input: ClientMetadata) {
  const authMethod = input.token_endpoint_auth_method ?? 'client_secret_basic';
  const grantTypes = [...new Set(input.grant_types ?? ['authorization_code'])];
  // RFC 7591 §2: left out, it is authorization_code; given empty, the client could obtain nothing.
  if (grantTypes.length === 0) throw metadataError('grant_types must name at least one grant type (left out, it is authorization_code)');
  for (const g of grantTypes) if (!(GRANT_TYPES as readonly string[]).includes(g)) throw metadataError(`grant_types: ${g} is not supported`);
  const usesCode = grantTypes.includes('authorization_code');
  const responseTypes = [...new Set(input.response_types ?? (usesCode ? ['code'] : []))];
  for (const r of responseTypes) if (r !== 'code') throw metadataError(`response_types: only code is supported`);
  if (usesCode !== responseTypes.includes('code')) throw metadataError('response_types code goes with grant_types authorization_code');
  if (grantTypes.includes('refresh_token') && !usesCode) throw metadataError('refresh_token is issued only with authorization_code');
  const redirectUris = [...new Set(input.redirect_uris ?? [])];
  if (usesCode && redirectUris.length === 0) throw problem('invalid_redirect_uri', { detail: 'authorization_code needs at least one redirect_uri' });
  redirectUris.forEach(checkRedirectUri);
  if (authMethod === 'none' && grantTypes.includes('client_credentials')) throw metadataError('a public client (none) cannot use client_credentials');
  const scopes = parseScope(input.scope ?? '');
  if (!scopes || scopes.length === 0) throw metadataError('scope must name at least one scope');
  for (const s of scopes) if (!SCOPE_NAMES.includes(s)) throw metadataError(`scope: ${s} is not a known scope (${SCOPE_NAMES.join(' ')})`);
  let jwks: string | null = null;
  const jwksUri = input.jwks_uri ?? null;
  if (authMethod === 'private_key_jwt') {
    if (input.jwks && jwksUri) throw metadataError('give jwks or jwks_uri, not both');
    if (jwksUri) {
      checkOutboundUri(jwksUri, 'jwks_uri');
    } else {
      const keys = input.jwks?.keys ?? [];
      if (keys.length === 0) throw metadataError('private_key_jwt needs jwks with at least one public key, or jwks_uri');
      for (const [i, k] of keys.entries()) {
        if (typeof k.kty !== 'string') throw metadataError('every key in jwks needs kty');
        if ('d' in k || 'k' in k) throw metadataError('jwks must hold public keys only');
        // Read now, as the token endpoint would: a key that cannot verify anything is refused at registration, not at the first assertion.
        try {
          createPublicKey({ key: k as JsonWebKey, format: 'jwk' });
        } catch (error) {
          throw metadataError(`jwks: key ${typeof k.kid === 'string' ? JSON.stringify(k.kid) : i} is not a usable public key (${(error as Error).message})`);
        }
      }
      jwks = JSON.stringify({ keys });
    }
  } else if (input.jwks || jwksUri) {
    throw metadataError('jwks and jwks_uri are used only with private_key_jwt');
  }
  const postLogoutRedirectUris = [...new Set(input.post_logout_redirect_uris ?? [])];
  postLogoutRedirectUris.forEach(checkRedirectUri);
  const idTokenAlg = input.id_token_signed_response_alg ?? 'ES256';
  if (!(ID_TOKEN_ALGS as readonly string[]).includes(idTokenAlg)) throw metadataError(`id_token_signed_response_alg must be one of ${ID_TOKEN_ALGS.join(', ')}`);
  const subjectType = input.subject_type ?? 'public';
  if (!(SUBJECT_TYPES as readonly string[]).includes(subjectType)) throw metadataError('subject_type must be public or pairwise');
  const backchannelLogoutUri = input.backchannel_logout_uri ?? null;
  if (backchannelLogoutUri) checkOutboundUri(backchannelLogoutUri, 'backchannel_logout_uri');
  // A public client proves nothing at /token, so PKCE is what binds its code: always required.
  const requirePkce = authMethod === 'none' || input.require_pkce === true;
  return {
    authMethod,
    grantTypes,
    responseTypes,
    redirectUris,
    scope: formatScope(scopes),
    jwks,
    jwksUri,
    postLogoutRedirectUris,
    idTokenAlg,
    subjectType,
    backchannelLogoutUri,
    requirePkce,
  };
}

/** The row columns a checked registration sets. */
export function metadataColumns(m: ReturnType<typeof checkMetadata>) {
  return {
    redirect_uris: JSON.stringify(m.redirectUris),
    grant_types: JSON.stringify(m.grantTypes),
    response_types: JSON.stringify(m.responseTypes),
    token_endpoint_auth_method: m.authMethod,
    scope: m.scope,
    jwks: m.jwks,
    jwks_uri: m.jwksUri,
    post_logout_redirect_uris: JSON.stringify(m.postLogoutRedirectUris),
    id_token_signed_response_alg: m.idTokenAlg,
    subject_type: m.subjectType,
    backchannel_logout_uri: m.backchannelLogoutUri,
    require_pkce: m.requirePkce ? 1 : 0,
  };
}
