/**
 * Documents the Idempotency-Key header on every POST under /v1, automatically: a route
 * only has to exist for the OpenAPI document to say that it requires the header, that a
 * replay carries Idempotent-Replay, and which 400 and 409 answers the key can cause.
 *
 * The header is added to the documented schema only (through @fastify/swagger's per-route
 * transform), not to the validation schema: the write runner answers a missing or bad key
 * with its own catalogued codes rather than a generic validation failure.
 */
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { errorResponses } from '../platform/http/schemas.ts';
import { MAX_KEY_LENGTH } from './idempotency-key.ts';
import { storesRefusal } from './write-runner.ts';

export const IDEMPOTENCY_KEY_PARAMETER = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  pattern: '^[\\x20-\\x7E]+$',
  description:
    'Required. A value you generate at random for each operation (e.g. a UUID) and send again, unchanged, on every retry of it. ' +
    'Scoped to your credential; kept 24 h by default. See docs/IDEMPOTENCY.md.',
} as const;

const REPLAY_HEADER = {
  type: 'string',
  enum: ['true'],
  description: 'Present on a replayed response: the operation was performed by an earlier request with the same key.',
} as const;

/** Answers given before the write runs (the request's arrival and parsing): never stored, so never replayed. */
const ANSWERED_BEFORE_THE_WRITE = new Set(['408', '413', '415', '431']);

const IN_USE_RETRY_AFTER = {
  type: 'integer',
  minimum: 0,
  description: 'On 409 idempotency_key_in_use: seconds to wait before sending the same request again.',
} as const;

function isV1Write(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.includes('POST') && route.url.startsWith('/v1/');
}

export function documentIdempotencyKeys(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isV1Write(route)) return;
    // A route's own transform (false: none) still applies first.
    const own = route.config?.swaggerTransform || undefined;
    route.config = {
      ...route.config,
      swaggerTransform: (input) => {
        const base = own ? { ...input, ...own(input) } : input;
        return { ...base, schema: withIdempotencyKey(base.schema ?? {}) };
      },
    };
  });
}

function withIdempotencyKey(schema: FastifySchema): FastifySchema {
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown>; required?: string[] };
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  for (const [status, entry] of Object.entries(response)) {
    // Every answer that is stored under the key is replayed: a success, and a refusal of the operation
    // itself (404, 409, 422: write-runner.ts), not one about the request, the credential or the rate.
    if ((status.startsWith('2') || (storesRefusal(Number(status)) && !ANSWERED_BEFORE_THE_WRITE.has(status))) && entry && typeof entry === 'object') {
      const existing = (entry as { headers?: Record<string, unknown> }).headers;
      response[status] = { ...entry, headers: { ...existing, 'Idempotent-Replay': REPLAY_HEADER } };
    }
  }
  for (const [status, entry] of Object.entries(errorResponses(400, 409))) response[status] ??= entry;
  const conflict = response['409'] as { headers?: Record<string, unknown> };
  response['409'] = { ...conflict, headers: { ...conflict.headers, 'Retry-After': IN_USE_RETRY_AFTER } };
  return {
    ...schema,
    headers: {
      ...headers,
      type: 'object',
      // Header names are case-insensitive: a route's own lowercase declaration is this one.
      properties: { ...withoutKey(headers.properties ?? {}), 'Idempotency-Key': IDEMPOTENCY_KEY_PARAMETER },
      required: [...(headers.required ?? []).filter((name) => !isKeyHeader(name)), 'Idempotency-Key'],
    },
    response,
  };
}

const isKeyHeader = (name: string) => name.toLowerCase() === 'idempotency-key';

function withoutKey(properties: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(properties).filter(([name]) => !isKeyHeader(name)));
}
