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
import { exampleOf } from './openapi-examples.ts';

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

/**
 * `answeredStatus`: the status the route's protocol answers an error of a status with (ErrorFormats).
 * Each answer is written once under `components/responses` and referred to, per status and shape.
 */
export function addServerAnswers(document: Json, answeredStatus: (path: string, status: number) => number = (_path, status) => status): void {
  const shared = sharedResponses(document);
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const [route, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = (operation.responses ??= {}) as Record<string, Json>;
      // Liveness answers from memory: neither the database nor a failure stands between.
      const liveness = route === '/healthz';
      const statuses = [...(liveness ? [400] : ON_EVERY_ROUTE), ...(BODY_METHODS.has(method) ? WITH_A_BODY : []), ...(needsCredential(operation) ? [401] : [])];
      // A status the protocol answers as another (e.g. a 415 as 400 invalid_request) is documented as that one.
      const added = statuses.filter((status) => answeredStatus(route, status) === status && responses[status] === undefined);
      // Placeholders of documentAnswers: a status without a body yet.
      const placeholders = Object.keys(responses).filter((status) => Number(status) >= 400 && responses[status]!.content === undefined && responses[status]!.$ref === undefined);
      const shape = shapeOf(responses);
      for (const status of [...added, ...placeholders.map(Number)]) responses[status] = shared(status, shape);
      for (const status of BEFORE_ROUTING) responses[status] ??= shared(status, undefined);
    }
  }
}

type Shape = Json | undefined; // the content of the operation's error answers; undefined: problem+json

/**
 * The operation's error shape: the content of its first client error with a body, unless
 * problem+json. (A 5xx with a body of its own, such as /readyz's 503, is an answer, not a shape.)
 */
function shapeOf(responses: Record<string, Json>): Shape {
  const shaped = Object.entries(responses)
    .filter(([s, r]) => Number(s) >= 400 && Number(s) < 500 && r.content !== undefined)
    .sort(([a], [b]) => Number(a) - Number(b))[0]?.[1];
  if (!shaped || 'application/problem+json' in (shaped.content as Json)) return undefined;
  return shaped.content as Json;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  408: 'RequestTimeout',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};
const SHAPE_NAMES: Record<string, string> = { 'application/scim+json': 'Scim', 'application/json': 'Json', 'text/html': 'Page' };

/** Writes each distinct answer once under components/responses; answers a reference to it. */
function sharedResponses(document: Json): (status: number, shape: Shape) => Json {
  const components = (document.components ??= {}) as Json;
  const written = (components.responses ??= {}) as Record<string, Json>;
  const byText = new Map<string, string>();
  return (status, shape) => {
    const response: Json = {
      description: STATUS_DESCRIPTIONS[status] ?? 'Error',
      content: shape ? inShape(shape, status) : problemContent(status),
      ...(status === 429 || status === 503 ? { headers: RETRY_AFTER } : {}),
    };
    const text = JSON.stringify(response);
    let name = byText.get(text);
    if (name === undefined) {
      const base = `${STATUS_NAMES[status] ?? `Status${status}`}${shape ? (SHAPE_NAMES[Object.keys(shape)[0]!] ?? 'Other') : ''}`;
      name = base;
      for (let n = 2; name in written; n++) name = `${base}${n}`;
      written[name] = response;
      byText.set(text, name);
    }
    return { $ref: `#/components/responses/${name}` };
  };
}

/** A route every one of whose security requirements names a credential (no `{}` alternative). */
function needsCredential(operation: Json): boolean {
  const security = operation.security as Json[] | undefined;
  return Array.isArray(security) && security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
}

// What RFC 6749 §5.2 bodies say for the statuses the server answers itself.
const OAUTH_ERRORS: Record<number, string> = { 400: 'invalid_request', 429: 'rate_limited', 500: 'server_error', 503: 'temporarily_unavailable' };

/** The shape's content with an example of `status`: its members that name the status or the error say so. */
function inShape(shape: Json, status: number): Json {
  const content = structuredClone(shape) as Record<string, MediaExample>;
  for (const media of Object.values(content)) {
    // The shape's schemas are still whole here (named ones become $refs later).
    if (media.example === undefined && media.schema) media.example = exampleOf(media.schema, {}, 0);
    const example = media.example;
    if (!example || typeof example !== 'object' || Array.isArray(example)) continue;
    const given = example as Json;
    const description = STATUS_DESCRIPTIONS[status] ?? 'Error';
    if ('status' in given) given.status = typeof given.status === 'string' ? String(status) : status;
    if ('detail' in given) given.detail = description;
    if ('scimType' in given) delete given.scimType;
    if (Array.isArray(given.schemas)) given.schemas = ['urn:ietf:params:scim:api:messages:2.0:Error'];
    if ('error' in given) given.error = OAUTH_ERRORS[status] ?? given.error;
    if ('error_description' in given) given.error_description = description;
  }
  return content;
}

interface MediaExample {
  schema?: Json;
  example?: unknown;
}

/** problem+json with the catalogued code the server answers for `status` as its example. */
function problemContent(status: number): Json {
  const content = (errorResponses(status)[status] as Json).content as Record<string, Json>;
  const code = PROBLEM_OF[status];
  if (!code) return content;
  const example = { type: `/docs/errors#error-${code}`, title: PROBLEMS[code].title, status, code };
  return { 'application/problem+json': { ...content['application/problem+json'], example } };
}
