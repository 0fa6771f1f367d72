/**
 * OAuth 2.0 errors (RFC 6749 §4.1.2.1 and §5.2, RFC 7009 §2.2.1) and their one serializer.
 *
 * Every failure at /token, /revoke and /introspect is a JSON body `{error, error_description}`
 * with `Cache-Control: no-store`; a failed client authentication answers 401 with
 * `WWW-Authenticate: Basic` (§5.2), whichever method the client tried: a 401 must name a scheme
 * (RFC 9110 §15.5.2), and Basic is the one this server takes in a header. Platform errors raised
 * before the handler runs (a body that is not a form, a schema failure) are rendered as
 * `invalid_request`.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError, type HttpErrorOptions } from '../platform/errors/http-error.ts';
import type { SerializedError } from '../platform/errors/error-formats.ts';

export const OAUTH_ERRORS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  unsupported_token_type: 400,
  // Authorization endpoint only (delivered by redirect, never as a JSON body).
  access_denied: 400,
  unsupported_response_type: 400,
  login_required: 400,
  consent_required: 400,
  request_not_supported: 400,
  request_uri_not_supported: 400,
  // OpenID Connect Core Error Code unmet_authentication_requirements 1.0: an essential acr not met.
  unmet_authentication_requirements: 400,
  server_error: 500,
  temporarily_unavailable: 503,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

export function oauthError(code: OAuthErrorCode, description: string, options: Omit<HttpErrorOptions, 'detail'> = {}): HttpError {
  return new HttpError(OAUTH_ERRORS[code], code, code, { ...options, detail: description });
}

/** invalid_client: 401 with a Basic challenge (§5.2; RFC 9110 §15.5.2). */
export function invalidClient(description: string, options: Pick<HttpErrorOptions, 'cause'> = {}): HttpError {
  return oauthError('invalid_client', description, { ...options, headers: { 'www-authenticate': 'Basic realm="gatehouse", charset="UTF-8"' } });
}

export type ClientAuthFailureReason =
  | 'no_credentials'
  | 'malformed_credentials'
  | 'unknown_client'
  | 'wrong_secret'
  | 'method_not_registered'
  | 'assertion_invalid'
  | 'assertion_replayed';

/**
 * Why a client authentication failed, carried by its invalid_client error as the cause: the
 * log says it, the answer never does (§5.2 invalid_client names no part). `clientId` is the id
 * the request claimed, whether or not such a client exists.
 */
export class ClientAuthFailure {
  constructor(
    readonly reason: ClientAuthFailureReason,
    readonly method: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none' | undefined,
    readonly clientId: string | undefined,
    /** The client's account, when the client exists. */
    readonly accountId?: string,
  ) {}
}

/** invalid_client with why, for the log. */
export function clientAuthFailed(failure: ClientAuthFailure, description: string): HttpError {
  return invalidClient(description, { cause: failure });
}

export function clientAuthFailureOf(error: unknown): ClientAuthFailure | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return cause instanceof ClientAuthFailure ? cause : undefined;
}

function isOAuthCode(code: string): code is OAuthErrorCode {
  return Object.hasOwn(OAUTH_ERRORS, code);
}

/**
 * RFC 6749 §5.2 and §4.1.2.1: `error_description` holds only %x20-21 / %x23-5B / %x5D-7E. Quotes
 * become apostrophes and a backslash a slash, so the sentence still reads; anything else that a
 * description echoes of the request (a `grant_type` of any bytes) becomes `?`, which also keeps a
 * third party from writing text of its choosing on a client's error page.
 */
export function errorDescription(text: string): string {
  return text.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, (c) => (c === '"' || c === '\u2018' || c === '\u2019' ? "'" : c === '\\' ? '/' : '?'));
}

export function serializeOAuthError(error: HttpError, request: FastifyRequest): SerializedError {
  const serialized = serializeOAuthErrorAsIs(error, request);
  const body = serialized.body as { error: string; error_description: string };
  return { ...serialized, body: { ...body, error_description: errorDescription(body.error_description) } };
}

function serializeOAuthErrorAsIs(error: HttpError, _request: FastifyRequest): SerializedError {
  const headers = { ...error.headers, 'cache-control': 'no-store', pragma: 'no-cache' };
  if (isOAuthCode(error.code)) {
    return {
      status: error.status,
      contentType: 'application/json; charset=utf-8',
      headers,
      body: { error: error.code, error_description: error.detail ?? error.title },
    };
  }
  // Platform errors: rate limits and overload keep their status; anything the client sent
  // wrong is invalid_request; anything else is server_error without details.
  if (error.status === 429) {
    return { status: 429, contentType: 'application/json; charset=utf-8', headers, body: { error: 'rate_limited', error_description: error.detail ?? error.title } };
  }
  // A method the endpoint does not take is HTTP's refusal, not the request's: it keeps its 405 and Allow.
  if (error.status === 405) {
    return { status: 405, contentType: 'application/json; charset=utf-8', headers, body: { error: 'invalid_request', error_description: error.detail ?? error.title } };
  }
  if (error.status >= 400 && error.status < 500) {
    const description = error.code === 'unsupported_media_type' ? 'The request must be application/x-www-form-urlencoded' : (error.detail ?? error.title);
    return { status: 400, contentType: 'application/json; charset=utf-8', headers, body: { error: 'invalid_request', error_description: description } };
  }
  const status = error.status === 503 ? 503 : 500;
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    headers,
    body: { error: status === 503 ? 'temporarily_unavailable' : 'server_error', error_description: error.detail ?? error.title },
  };
}

export const oauthErrorSchema = {
  type: 'object',
  description: 'RFC 6749 §5.2 error response',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
} as const;

export function oauthErrorResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: s === 401 ? 'Client authentication failed' : s === 429 ? 'Rate limited' : 'OAuth error', content: { 'application/json': { schema: oauthErrorSchema } } }]),
  );
}
