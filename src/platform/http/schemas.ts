/** Shared pieces of route schemas, so the OpenAPI document describes errors the same way everywhere. */
import type { FastifyInstance } from 'fastify';
import { component } from './openapi-components.ts';
import { optionalBody } from './validation.ts';

export const problemSchema = component('Problem', {
  type: 'object',
  description: 'RFC 9457 problem details with a stable machine-readable code',
  required: ['type', 'title', 'status', 'code'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    code: { type: 'string' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    errors: {
      type: 'array',
      description: 'On validation_failed (and limit_out_of_range from the schema): every invalid member at once',
      items: {
        type: 'object',
        required: ['pointer', 'in', 'detail'],
        properties: {
          pointer: { type: 'string', description: 'JSON Pointer (RFC 6901, as a URI fragment) into the part named by in', examples: ['#/amount'] },
          in: { type: 'string', enum: ['body', 'query', 'path', 'header'] },
          detail: { type: 'string', description: 'What is wrong, in words', examples: ['amount must be at least 1'] },
        },
      },
    },
  },
  additionalProperties: true,
} as const);

/**
 * The body of a POST that acts on what its path names (settle, enable, redeliver): none at all,
 * or an empty object. A member is refused (400 validation_failed), never ignored: a caller who sent one
 * meant something by it, such as one endpoint to redeliver to, that the action would not do.
 */
export const noMembers = optionalBody({ type: 'object', additionalProperties: false, properties: {}, description: 'No members: the path names everything the action needs' } as const);

export const STATUS_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credential',
  403: 'Credential lacks the required scope',
  404: 'Not found (also for objects of another account)',
  408: 'The request did not arrive whole in time (GATEHOUSE_HTTP_REQUEST_TIMEOUT); the connection is closed',
  409: 'Conflict',
  412: 'Precondition failed',
  413: 'Body too large (GATEHOUSE_BODY_LIMIT)',
  415: 'Unsupported content type',
  422: 'Business rule refused the request',
  429: 'Rate limited; Retry-After says when to try again',
  431: 'Request headers too large; the connection is closed',
  500: 'Unexpected failure; the answer names the request id, which the log records',
  503: 'Temporarily unavailable (the database is out of reach, or a concurrent change conflicted); nothing was changed, retry after Retry-After',
};

/** `response` schema entries for the given error statuses, all problem+json. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: STATUS_DESCRIPTIONS[s] ?? 'Error', content: { 'application/problem+json': { schema: problemSchema } } }]),
  );
}

/**
 * Every /v1 route registered in `scope` after this that declares no query parameters refuses
 * any (400 validation_failed, naming it), as the lists refuse one they do not know: a parameter
 * that meant something to its sender (an `expand`, a filter on a single object) is never
 * ignored in silence. SCIM routes are left alone: RFC 7644 lets `attributes` and
 * `excludedAttributes` ride on any request.
 */
export function refuseUnknownQueries(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/')) return;
    const schema = (route.schema ?? {}) as { querystring?: unknown };
    if (schema.querystring === undefined) route.schema = { ...schema, querystring: { type: 'object', additionalProperties: false, properties: {} } };
  });
}
