/**
 * The answers every route can give that no route's schema names, because the server gives them
 * itself (server.ts): a request it cannot parse (400), one that did not arrive in time (408) or
 * whose headers are too large (431), a body too large (413) or of a type the route does not read
 * (415), an unexpected failure (500), the database out of reach (503); a credential missing on a
 * protected route (401); and the API rate limit on the routes it counts (429). The API documents
 * add them to each operation in that operation's error shape (problem+json, RFC 6749 JSON, SCIM
 * or an HTML page), so every status a route can answer is documented.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { PROBLEMS, type ProblemCode } from '../errors/catalogue.ts';
import { errorResponses, STATUS_DESCRIPTIONS } from './schemas.ts';

type Json = Record<string, unknown>;

/**
 * Documents `statuses` on every route registered in `scope` from now on (the hooks that answer
 * them are the caller's). Through the route's document transform, as idempotency/openapi.ts does,
 * so validation keeps the route's own schema; the answers' bodies are filled in by addServerAnswers.
 */
export function documentAnswers(scope: FastifyInstance, statuses: number[]): void {
  scope.addHook('onRoute', (route) => {
    // A route's own transform (false: none) still applies first.
    const own = route.config?.swaggerTransform || undefined;
    route.config = {
      ...route.config,
      swaggerTransform: (input) => {
        const base = own ? { ...input, ...own(input) } : input;
        const response = { ...((base.schema as FastifySchema | undefined)?.response as Json | undefined) };
        // A bodiless placeholder (type null: @fastify/swagger writes no content for it).
        for (const status of statuses) response[status] ??= { type: 'null', description: STATUS_DESCRIPTIONS[status] ?? 'Error' };
        return { ...base, schema: { ...base.schema, response } };
      },
    };
  });
}

/** Answered before routing, in problem+json whatever the route (server.ts, answerClientError). */
const BEFORE_ROUTING = [408, 431];
/** Answered on any route: an unparsable path or query, an unexpected failure, the database unavailable. */
const ON_EVERY_ROUTE = [400, 500, 503];
/** Answered to a request that carries a body: too large, or of a type the route does not read. */
const WITH_A_BODY = [413, 415];
const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

const PROBLEM_OF: Record<number, ProblemCode> = {
  400: 'malformed_request',
  401: 'unauthorized',
  408: 'request_timeout',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
};

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } } };

/** `answeredStatus`: the status the route's protocol answers an error of a status with (ErrorFormats). */
export function addServerAnswers(document: Json, answeredStatus: (path: string, status: number) => number = (_path, status) => status): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [route, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = (operation.responses ??= {}) as Record<string, Json>;
      // Liveness answers from memory: neither the database nor a failure stands between.
      const liveness = route === '/healthz';
      const statuses = [...(liveness ? [400] : ON_EVERY_ROUTE), ...(BODY_METHODS.has(method) ? WITH_A_BODY : []), ...(needsCredential(operation) ? [401] : [])];
      for (const status of statuses) {
        // A status the protocol answers as another (e.g. a 415 as 400 invalid_request) is documented as that one.
        if (answeredStatus(route, status) === status) responses[status] ??= { description: STATUS_DESCRIPTIONS[status] ?? 'Error' };
      }
      for (const status of BEFORE_ROUTING) responses[status] ??= problemResponse(status);
      for (const [status, response] of Object.entries(responses)) {
        if (response.content !== undefined || Number(status) < 400) continue;
        Object.assign(response, { ...inShapeOf(responses, Number(status)), description: response.description });
      }
      for (const status of ['429', '503']) {
        const response = responses[status];
        if (response) response.headers ??= RETRY_AFTER;
      }
    }
  }
}

/** A route every one of whose security requirements names a credential (no `{}` alternative). */
function needsCredential(operation: Json): boolean {
  const security = operation.security as Json[] | undefined;
  return Array.isArray(security) && security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
}

/** `status` in the error shape the operation documents elsewhere (its first error response with a body), else problem+json. */
function inShapeOf(responses: Record<string, Json>, status: number): Json {
  const shaped = Object.entries(responses)
    .filter(([s, r]) => Number(s) >= 400 && r.content !== undefined)
    .sort(([a], [b]) => Number(a) - Number(b))[0]?.[1];
  if (!shaped || 'application/problem+json' in (shaped.content as Json)) return problemResponse(status);
  return { content: structuredClone(shaped.content) };
}

function problemResponse(status: number): Json {
  const response = errorResponses(status)[status] as Json;
  const code = PROBLEM_OF[status];
  if (!code) return response;
  const example = { type: `/docs/errors#error-${code}`, title: PROBLEMS[code].title, status, code };
  const content = response.content as Record<string, Json>;
  return { ...response, content: { 'application/problem+json': { ...content['application/problem+json'], example } } };
}
