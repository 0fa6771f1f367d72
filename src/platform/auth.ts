/**
 * Bearer authentication for resource endpoints (RFC 6750). A route declares the scopes it
 * needs; a missing or bad token answers 401 with a `WWW-Authenticate: Bearer` challenge,
 * a token without the scope answers 403 `insufficient_scope`. The principal is attached to
 * the request for the handler; everything the handler reads is scoped by its account.
 */
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { problem } from './errors/catalogue.ts';
import type { HttpError } from './errors/http-error.ts';

export interface Principal {
  kind: 'access_token' | 'scim_token';
  tokenId: string;
  accountId: string;
  /** OAuth client the token was issued to (a SCIM token's id for SCIM tokens). */
  clientId: string;
  /** The person the token acts for; null for client credentials. */
  userId: string | null;
  scopes: ReadonlySet<string>;
}

export interface BearerVerifier {
  verify(token: string): Promise<Principal | undefined>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Extracts the token of an `Authorization: Bearer <token>` header (scheme case-insensitive). */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1];
}

function challenge(realm: string, error?: { code: string; description: string; scope?: string }): string {
  const parts = [`realm="${realm}"`];
  if (error) {
    parts.push(`error="${error.code}"`, `error_description="${error.description}"`);
    if (error.scope) parts.push(`scope="${error.scope}"`);
  }
  return `Bearer ${parts.join(', ')}`;
}

/**
 * A bearer token that is not, or no longer, valid: unknown, expired or revoked, or one whose
 * account was closed while its request was on its way (accounts/closing.ts).
 */
export function invalidToken(realm = 'gatehouse'): HttpError {
  return problem('invalid_token', {
    headers: { 'www-authenticate': challenge(realm, { code: 'invalid_token', description: 'The access token is invalid, expired or revoked' }) },
  });
}

/**
 * A route's `onRequest` hook requiring a valid bearer token carrying every scope in `scopes`.
 * It runs before the body is read or validated: a request without credentials learns nothing
 * about the route's schema and costs no parsing.
 */
export function requireBearer(verifier: BearerVerifier, scopes: readonly string[], realm = 'gatehouse'): onRequestAsyncHookHandler {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
    const token = bearerToken(request);
    if (token === undefined) {
      throw problem('unauthorized', {
        detail: 'Send Authorization: Bearer <access token>',
        headers: { 'www-authenticate': challenge(realm) },
      });
    }
    const principal = await verifier.verify(token);
    if (!principal) throw invalidToken(realm);
    const missing = scopes.filter((s) => !principal.scopes.has(s));
    if (missing.length > 0) throw insufficientScope(scopes, realm);
    request.principal = principal;
  };
}

/** 403 `insufficient_scope` naming every scope the operation needs (RFC 6750 §3.1). */
export function insufficientScope(scopes: readonly string[], realm = 'gatehouse'): HttpError {
  return problem('insufficient_scope', {
    detail: `This operation needs the scope ${scopes.join(' ')}`,
    headers: {
      'www-authenticate': challenge(realm, {
        code: 'insufficient_scope',
        description: `Requires ${scopes.join(' ')}`,
        scope: scopes.join(' '),
      }),
    },
  });
}

/** The principal attached by `requireBearer`; routes behind it may rely on it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route is missing requireBearer');
  return request.principal;
}

/** One OpenAPI security requirement: scheme name to the scopes it needs. */
export type SecurityRequirement = Record<string, string[]>;

/**
 * How a protected route is entered: the check that runs first (`onRequest`) and the same
 * requirement as the API document states it, so the two are written once and cannot differ.
 */
export interface RouteAccess {
  onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
  security: SecurityRequirement[];
}

/** Name of the OAuth 2.0 security scheme in the public API document. */
export const OAUTH2_SCHEME = 'oauth2';

/** Access by an OAuth 2.0 access token carrying every scope given. */
export function bearerAccess(verifier: BearerVerifier): (...scopes: string[]) => RouteAccess {
  return (...scopes) => ({ onRequest: requireBearer(verifier, scopes), security: [{ [OAUTH2_SCHEME]: scopes }] });
}

/**
 * A protected route's options: its own options with the access check as `onRequest` and the
 * same requirement as the documented `security`. A route declares its access here and nowhere else.
 */
export function protectedRoute<T extends { schema?: object }>(access: RouteAccess, options: T): T & Pick<RouteAccess, 'onRequest'> & { schema: { security: SecurityRequirement[] } } {
  return { ...options, onRequest: access.onRequest, schema: { ...options.schema, security: access.security } };
}
