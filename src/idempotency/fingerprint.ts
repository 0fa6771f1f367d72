/**
 * What makes two requests "the same request" for an Idempotency-Key: the method, the route
 * pattern, its path parameters, the query and the parsed JSON body, written as canonical
 * JSON (object members sorted, no insignificant whitespace) so that key order, spacing and
 * number spelling (`1.0` vs `1`) do not matter while any changed value does. The digest is
 * what is stored; the request itself is not.
 */
import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../platform/crypto.ts';
import { decodedRequestPath } from '../platform/http/request-path.ts';

/** RFC 8785-style canonical JSON for values that came from JSON.parse. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value)
    .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
  return `{${members.join(',')}}`;
}

/** `route`: the request's route options, when the caller has them already (fastify builds them on each read). */
export function requestFingerprint(request: FastifyRequest, route: { url?: string } = request.routeOptions): string {
  return sha256Hex(
    canonicalJson([
      request.method,
      // The route as declared, so that every spelling of one request target is the same request.
      route.url ?? decodedRequestPath(request),
      request.params ?? {},
      request.query ?? {},
      request.body ?? null,
    ]),
  );
}
