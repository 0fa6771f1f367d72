/**
 * The authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 9207), as a list of checks.
 *
 * First the checks that decide whether redirecting is safe: a known client and a redirect_uri
 * equal to a registered one. Failing those shows an error page and never redirects (§4.1.2.1,
 * no open redirect). Every later failure redirects to that redirect_uri with `error`, `state`
 * and `iss`. Parameters may appear once each (§3.1).
 *
 * With `openid` in scope it is an OpenID Connect authentication request (OIDC Core §3.1.2.1):
 * `nonce` (echoed exactly in the ID token), `max_age`, `login_hint`, `id_token_hint`,
 * `acr_values` and `claims` (§5.5) are read here; the ones that need the session or the keys
 * are applied by authorize-routes.ts. A client with "PKCE required" (always so for a public
 * client) must send a code_challenge. Request objects (`request`, `request_uri`) are refused with
 * their own errors (§6.1, §6.2), as the metadata says they are not supported.
 */
import type { Client, Clients } from './clients.ts';
import type { OAuthErrorCode } from './errors.ts';
import { formatScope, isSubset, parseScope, SCOPE_NAMES } from './scopes.ts';
import { parseClaimsRequest } from './oidc-claims.ts';
import { ACR_PASSWORD } from './id-token.ts';

/**
 * OpenID Connect Core §3.1.2.1. `select_account` is answered by the page that names the person
 * signed in and offers "Not you? Sign out" (the consent page, shown even when consent is
 * remembered): the person continues as themselves or signs in as someone else.
 */
export const PROMPTS = ['none', 'login', 'consent', 'select_account'] as const;
export type Prompt = (typeof PROMPTS)[number];
const isPrompt = (value: string): value is Prompt => (PROMPTS as readonly string[]).includes(value);

export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'prompt',
  'nonce',
  'max_age',
  'login_hint',
  'id_token_hint',
  'acr_values',
  'claims',
  'response_mode',
] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export interface AuthorizationRequest {
  client: Client;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | null;
  prompt: Set<Prompt>;
  /** OpenID Connect: present when scope holds `openid`. */
  oidc?: {
    nonce: string | null;
    /** seconds; a sign-in older than this asks for the password again */
    maxAge: number | null;
    loginHint: string | null;
    idTokenHint: string | null;
    /** The `claims` parameter as sent (JSON text), kept with the code and the grant. */
    claims: string | null;
    /** The `sub` the claims parameter names (§5.5.1): no other person is answered for. */
    subject: string | null;
  };
  /** The parameters as received, carried through the login and consent forms. */
  params: AuthorizeParams;
}

/** Cannot be redirected: shown as an error page. */
export class UnsafeRedirect extends Error {}

/** Delivered to the client's redirect_uri. */
export class RedirectError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(description);
  }
}

const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Reads the parameters of a query or form; a repeated parameter is reported, not merged. */
export function readParams(source: Record<string, unknown>): { params: AuthorizeParams; repeated: string[] } {
  const params: AuthorizeParams = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZE_PARAMS) {
    const value = source[name];
    if (Array.isArray(value)) repeated.push(name);
    else if (typeof value === 'string') params[name] = value;
  }
  return { params, repeated };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]']);

/**
 * `uri` as `http://127.0.0.1/…` or `http://[::1]/…` without its port, when it is a loopback IP
 * redirect; undefined otherwise. Compared whole apart from the port: scheme, host, path and query.
 */
function loopbackWithoutPort(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || url.username !== '' || url.password !== '') return undefined;
  url.port = '';
  return url.href;
}

/**
 * Whether `uri` is one of the client's registered redirect URIs: compared exactly (RFC 9700
 * §4.1.3), with the one exception RFC 8252 §7.3 requires: a native app's loopback IP redirect
 * (`http://127.0.0.1:<port>/…`, `http://[::1]:<port>/…`) may name any port, since the app binds
 * whichever is free when it signs in. `localhost` gets no such leeway (RFC 8252 §8.3).
 */
export function isRegisteredRedirect(registered: readonly string[], uri: string): boolean {
  if (registered.includes(uri)) return true;
  const loopback = loopbackWithoutPort(uri);
  return loopback !== undefined && registered.some((r) => loopbackWithoutPort(r) === loopback);
}

export async function checkAuthorizationRequest(
  clients: Clients,
  source: Record<string, unknown>,
): Promise<AuthorizationRequest> {
  const { params, repeated } = readParams(source);
  // Checks that decide whether the redirect_uri may be used at all.
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) throw new UnsafeRedirect('client_id and redirect_uri must each appear once');
  if (!params.client_id) throw new UnsafeRedirect('client_id is missing');
  const client = await clients.find(params.client_id);
  if (!client) throw new UnsafeRedirect('The client is not registered');
  if (!params.redirect_uri) throw new UnsafeRedirect('redirect_uri is missing');
  if (!isRegisteredRedirect(client.redirectUris, params.redirect_uri)) throw new UnsafeRedirect('redirect_uri is not registered for this client');

  const redirectUri = params.redirect_uri;
  const state = repeated.includes('state') ? undefined : params.state;
  const fail = (code: OAuthErrorCode, description: string) => new RedirectError(code, description, redirectUri, state);

  if (repeated.length > 0) throw fail('invalid_request', `Parameters may appear only once: ${repeated.join(', ')}`);
  if (!params.response_type) throw fail('invalid_request', 'response_type is missing');
  if (params.response_type !== 'code') throw fail('unsupported_response_type', 'Only response_type=code is supported');
  // The client reads the answer where it asked for it (OAuth 2.0 Multiple Response Types §2):
  // an answer in the query to a client listening for a form post or a fragment would be lost.
  if (params.response_mode !== undefined && params.response_mode !== 'query') throw fail('invalid_request', 'response_mode must be query, the only mode supported');
  if (!client.grantTypes.includes('authorization_code')) throw fail('unauthorized_client', 'This client may not use the authorization code grant');
  // A client that sends a request object relies on what it says (OIDC Core §6, RFC 9101): refused, never ignored.
  if (source.request !== undefined) throw fail('request_not_supported', 'The request parameter (a request object) is not supported');
  if (source.request_uri !== undefined) throw fail('request_uri_not_supported', 'The request_uri parameter is not supported');

  if (params.scope === undefined || params.scope.trim() === '') throw fail('invalid_scope', 'scope is required');
  const asked = parseScope(params.scope);
  if (!asked) throw fail('invalid_scope', 'scope is malformed');
  // OIDC Core §3.1.2.1: scope values not understood SHOULD be ignored (offline_access, address, a
  // relying party's own); the token answer's `scope` says what was kept. A plain OAuth request keeps
  // RFC 6749's invalid_scope. A known scope outside the registration is refused either way.
  const scopes = asked.includes('openid') ? asked.filter((s) => SCOPE_NAMES.includes(s)) : asked;
  if (!isSubset(scopes, client.scopes)) throw fail('invalid_scope', `This client may ask only for: ${formatScope(client.scopes)}`);

  const method = params.code_challenge_method;
  const challenge = params.code_challenge;
  if (challenge === undefined) {
    if (method !== undefined) throw fail('invalid_request', 'code_challenge_method without code_challenge');
    if (client.authMethod === 'none') throw fail('invalid_request', 'PKCE is required for public clients: send code_challenge with code_challenge_method=S256');
    if (client.requirePkce) throw fail('invalid_request', 'PKCE is required for this client: send code_challenge with code_challenge_method=S256');
  } else {
    if (method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!CHALLENGE.test(challenge)) throw fail('invalid_request', 'code_challenge is malformed');
  }

  const prompt = new Set<Prompt>();
  for (const p of (params.prompt ?? '').split(' ').filter(Boolean)) {
    if (!isPrompt(p)) throw fail('invalid_request', `prompt=${p} is not supported`);
    prompt.add(p);
  }
  if (prompt.has('none') && prompt.size > 1) throw fail('invalid_request', 'prompt=none cannot be combined with other values');

  const oidc = scopes.includes('openid') ? checkOidcParams(params, fail) : undefined;
  return { client, redirectUri, scopes, state, codeChallenge: challenge ?? null, prompt, params, ...(oidc ? { oidc } : {}) };
}

const MAX_NONCE = 512;

/** OIDC Core §3.1.2.1 and §5.5: the parameters an OpenID Connect request adds. */
function checkOidcParams(params: AuthorizeParams, fail: (code: OAuthErrorCode, description: string) => RedirectError): NonNullable<AuthorizationRequest['oidc']> {
  const nonce = params.nonce ?? null;
  if (nonce !== null && (nonce.length === 0 || nonce.length > MAX_NONCE)) throw fail('invalid_request', `nonce must be 1 to ${MAX_NONCE} characters`);
  let maxAge: number | null = null;
  if (params.max_age !== undefined) {
    if (!/^\d{1,9}$/.test(params.max_age)) throw fail('invalid_request', 'max_age must be a non-negative integer (seconds)');
    maxAge = Number(params.max_age);
  }
  const claims = params.claims === undefined ? undefined : parseClaimsRequest(params.claims);
  if (claims === undefined && params.claims !== undefined) throw fail('invalid_request', 'claims must be a JSON object with userinfo and/or id_token members (OIDC Core §5.5)');
  // Only a password sign-in is done here: an essential acr asking for anything else cannot be met.
  if (claims?.essentialAcr && !claims.essentialAcr.includes(ACR_PASSWORD)) throw fail('unmet_authentication_requirements', `The essential acr cannot be met: only ${ACR_PASSWORD} is offered`);
  const loginHint = params.login_hint === undefined ? null : params.login_hint.slice(0, 256);
  return { nonce, maxAge, loginHint, idTokenHint: params.id_token_hint ?? null, claims: params.claims ?? null, subject: claims?.subject ?? null };
}

/**
 * The redirect_uri with the response parameters added to its own query (RFC 6749 §4.1.2, RFC 9207),
 * which is kept as registered, byte for byte (§3.1.2: the query "MUST be retained"): the
 * parameters are appended to the registered text, never re-serialized with it. Registered URIs
 * carry no fragment (client-metadata.ts), so the query is the end of the text.
 */
export function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const added = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined) added.append(name, value);
  if (added.size === 0) return redirectUri;
  const separator = !redirectUri.includes('?') ? '?' : redirectUri.endsWith('?') || redirectUri.endsWith('&') ? '' : '&';
  return `${redirectUri}${separator}${added.toString()}`;
}

