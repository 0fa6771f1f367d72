/**
 * The path of a request, as text for people (problem `instance`, a 404's detail), for choosing
 * the error format of a request that matched no route, and for asking a router of fastify's own
 * make which methods it has there (a 405's `Allow`, allowed-methods.ts). Never for access: access and
 * rate limits are attached to routes (an encapsulated plugin's hooks, route options), because
 * the router decodes percent-escapes and accepts absolute-form targets (RFC 9112 §3.2.2) that
 * a comparison of URL text would miss. This is the one module of src/ that reads `request.url`;
 * the lint configuration forbids it everywhere else.
 */
import type { FastifyRequest } from 'fastify';

/** The request target's path as sent (escapes kept), without the query; absolute form reduced to its path. */
export function requestPath(request: FastifyRequest): string {
  // eslint-disable-next-line no-restricted-syntax -- display only, see above
  const target = request.url;
  const path = target.split('?', 1)[0] ?? '';
  if (path.startsWith('/')) return path;
  try {
    return new URL(path).pathname;
  } catch {
    return path;
  }
}

/** The path with its percent-escapes decoded as the router decodes them; as sent when it is malformed. */
export function decodedRequestPath(request: FastifyRequest): string {
  const path = requestPath(request);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
