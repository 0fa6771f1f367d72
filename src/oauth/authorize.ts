/**
 * The authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 9207), as a list of checks.
 *
 * First the checks that decide whether redirecting is safe: a known client and a redirect_uri
 * equal to a registered one. Failing those shows an error page and never redirects (§4.1.2.1,
 * no open redirect). Every later failure redirects to that redirect_uri with `error`, `state`
 * and `iss`. Parameters may appear once each (§3.1).
 */
import type { Client, Clients } from './clients.ts';
import type { OAuthErrorCode } from './errors.ts';
import { formatScope, isSubset, parseScope } from './scopes.ts';

export const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'prompt'] as const;
export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

export interface AuthorizationRequest {
  client: Client;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | null;
  prompt: Set<'none' | 'login' | 'consent'>;
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
  if (!client.redirectUris.includes(params.redirect_uri)) throw new UnsafeRedirect('redirect_uri is not registered for this client');

  const redirectUri = params.redirect_uri;
  const state = repeated.includes('state') ? undefined : params.state;
  const fail = (code: OAuthErrorCode, description: string) => new RedirectError(code, description, redirectUri, state);

  if (repeated.length > 0) throw fail('invalid_request', `Parameters may appear only once: ${repeated.join(', ')}`);
  if (!params.response_type) throw fail('invalid_request', 'response_type is missing');
  if (params.response_type !== 'code') throw fail('unsupported_response_type', 'Only response_type=code is supported');
  if (!client.grantTypes.includes('authorization_code')) throw fail('unauthorized_client', 'This client may not use the authorization code grant');

  if (params.scope === undefined || params.scope.trim() === '') throw fail('invalid_scope', 'scope is required');
  const scopes = parseScope(params.scope);
  if (!scopes) throw fail('invalid_scope', 'scope is malformed');
  if (!isSubset(scopes, client.scopes)) throw fail('invalid_scope', `This client may ask only for: ${formatScope(client.scopes)}`);

  const method = params.code_challenge_method;
  const challenge = params.code_challenge;
  if (challenge === undefined) {
    if (method !== undefined) throw fail('invalid_request', 'code_challenge_method without code_challenge');
    if (client.authMethod === 'none') throw fail('invalid_request', 'PKCE is required for public clients: send code_challenge with code_challenge_method=S256');
  } else {
    if (method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!CHALLENGE.test(challenge)) throw fail('invalid_request', 'code_challenge is malformed');
  }

  const prompt = new Set<'none' | 'login' | 'consent'>();
  for (const p of (params.prompt ?? '').split(' ').filter(Boolean)) {
    if (p !== 'none' && p !== 'login' && p !== 'consent') throw fail('invalid_request', `prompt=${p} is not supported`);
    prompt.add(p);
  }
  if (prompt.has('none') && prompt.size > 1) throw fail('invalid_request', 'prompt=none cannot be combined with other values');

  return { client, redirectUri, scopes, state, codeChallenge: challenge ?? null, prompt, params };
}

/** The redirect_uri with the response parameters added to its own query (RFC 6749 §4.1.2, RFC 9207). */
export function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(values)) if (value !== undefined) url.searchParams.append(name, value);
  return url.href;
}

