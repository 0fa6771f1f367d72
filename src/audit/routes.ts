/**
 * HTTP for the audit trail: `GET /v1/audit-events` (scope `audit:read`, the token's account
 * only) and, on the admin listener, `GET /admin/v1/audit-events` across accounts and
 * `GET /admin/v1/audit-verification` (the chain check of `gatehouse audit verify`).
 */
import type { FastifyInstance } from 'fastify';
import { bearerAccess, principalOf, protectedRoute, type BearerVerifier } from '../platform/auth.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { pageQueryProperties, pageSchema } from '../paging/page.ts';
import { component } from '../platform/http/openapi-components.ts';
import type { AuditFilters, AuditQueries } from './query.ts';
import { parseAnchor, type AuditVerifier } from './verify.ts';
import { problem } from '../platform/errors/catalogue.ts';

const nullableString = { type: ['string', 'null'] } as const;

export const auditEventSchema = component('AuditEvent', {
  type: 'object',
  required: ['id', 'object', 'occurred_at', 'account', 'action', 'actor', 'target', 'changes', 'seq', 'detached'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'audit_event' },
    occurred_at: { type: 'string', format: 'date-time' },
    account: { type: 'string' },
    action: { type: 'string', description: 'From the catalogue in docs/AUDIT.md, e.g. payout.created' },
    actor: {
      type: 'object',
      required: ['type', 'id', 'display'],
      properties: {
        type: { type: 'string', enum: ['admin', 'client', 'user', 'scim_token', 'system'] },
        id: { type: 'string' },
        display: { ...nullableString, description: 'Read when the trail is read; null once the person is deleted' },
        client: { type: 'object', properties: { id: { type: 'string' }, display: nullableString }, description: 'The client a person acted through' },
      },
    },
    target: { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string' }, id: { type: 'string' } } },
    request_id: nullableString,
    idempotency_key: nullableString,
    source: { type: 'object', properties: { address: nullableString, user_agent: nullableString } },
    changes: { description: 'Fields that changed: { field: { before, after } }, secrets redacted; null when none or detached' },
    seq: { type: ['integer', 'null'], description: "Place in the account's hash chain; null until sealed" },
    hash: nullableString,
    detached: { type: 'boolean', description: 'The person this record is about was deleted; their details were removed' },
  },
} as const);

const chainProblemSchema = {
  type: ['object', 'null'],
  required: ['kind', 'seq', 'id', 'detail'],
  description: 'The first thing wrong with the chain; null when it verifies',
  properties: {
    kind: { type: 'string', enum: ['altered', 'removed', 'reordered', 'checkpoint'] },
    seq: { type: 'integer' },
    id: { ...nullableString, description: 'The record named, when one is there to name' },
    detail: { type: 'string' },
  },
} as const;

const verificationSchema = component('AuditVerification', {
  type: 'object',
  required: ['ok', 'chains'],
  properties: {
    ok: { type: 'boolean', description: 'Every chain verified' },
    chains: {
      type: 'array',
      items: {
        type: 'object',
        required: ['account', 'ok', 'records', 'first_seq', 'head_seq', 'head_hash', 'checkpoints', 'pending', 'detached', 'problem'],
        properties: {
          account: { type: 'string' },
          ok: { type: 'boolean' },
          records: { type: 'integer', description: 'Sealed records checked' },
          first_seq: { type: 'integer' },
          head_seq: { type: 'integer' },
          head_hash: { type: ['string', 'null'], description: 'The head record\'s hash: keep `head_seq:head_hash` elsewhere and pass it as anchor later' },
          checkpoints: { type: 'object', required: ['verified'], properties: { verified: { type: 'integer' } } },
          pending: { type: 'integer', description: 'Records written and not yet sealed (not covered until they are)' },
          detached: { type: 'integer', description: 'Records whose details were removed when the person they name was deleted' },
          problem: chainProblemSchema,
        },
      },
    },
  },
} as const);

const filterProperties = {
  actor: { type: 'string', maxLength: 200, description: 'Only records by this actor id' },
  action: { type: 'string', maxLength: 200, description: 'Only actions starting with this text, e.g. scim.user. or payout' },
  target: { type: 'string', maxLength: 200, description: 'Only records about this object id' },
  since: { type: 'string', maxLength: 40, description: 'RFC 3339; records at or after this instant' },
  until: { type: 'string', maxLength: 40, description: 'RFC 3339; records before this instant' },
} as const;

type ListQuery = AuditFilters & { limit?: number; after?: string };

const ORDER_NOTE =
  'Newest first by (occurred_at, id). Filters narrow the read; a cursor only continues a read with the same filters. Pass next_cursor as after to read on.';

function filtersOf(query: ListQuery): AuditFilters {
  const { actor, action, target, since, until } = query;
  return { actor, action, target, since, until };
}

export function registerAuditRoutes(app: FastifyInstance, deps: { verifier: BearerVerifier; queries: AuditQueries }): void {
  app.get<{ Querystring: ListQuery }>(
    '/v1/audit-events',
    protectedRoute(bearerAccess(deps.verifier)('audit:read'), {
      schema: {
        tags: ['audit'],
        operationId: 'listAuditEvents',
        summary: "List the account's audit trail, a page at a time",
        description: ORDER_NOTE,
        querystring: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, ...filterProperties } },
        response: { 200: pageSchema(auditEventSchema, 'A page of audit records'), ...errorResponses(400, 401, 403, 429) },
      },
    }),
    async (request) =>
      deps.queries.list({ accountId: principalOf(request).accountId, limit: request.query.limit, after: request.query.after, filters: filtersOf(request.query) }),
  );
}

export function registerAuditAdminRoutes(admin: FastifyInstance, deps: { queries: AuditQueries; verifier: AuditVerifier }): void {
  admin.get<{ Querystring: ListQuery & { account?: string } }>(
    '/admin/v1/audit-events',
    {
      schema: {
        tags: ['audit'],
        operationId: 'listAllAuditEvents',
        summary: 'List the audit trail of every account (or of one), a page at a time',
        description: `${ORDER_NOTE} Operator actions that belong to no account are under the account "platform".`,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...pageQueryProperties, ...filterProperties, account: { type: 'string', maxLength: 200, description: 'Only this account' } },
        },
        response: { 200: pageSchema(auditEventSchema, 'A page of audit records'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      deps.queries.list({ accountId: request.query.account, limit: request.query.limit, after: request.query.after, filters: filtersOf(request.query) }),
  );

  admin.get<{ Querystring: { account?: string; anchor?: string } }>(
    '/admin/v1/audit-verification',
    {
      schema: {
        tags: ['audit'],
        operationId: 'verifyAuditTrail',
        summary: 'Verify the hash chains of the audit trail',
        description: 'Walks each chain (or one account’s) and names the first record altered, removed or reordered, and checks the signed checkpoints.',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            account: { type: 'string', maxLength: 200 },
            anchor: { type: 'string', pattern: '^[1-9][0-9]{0,15}:[0-9a-f]{64}$', description: 'With account: `<seq>:<hash>` of a record kept outside the database (a SIEM\'s copy); the chain must still pass through it' },
          },
        },
        response: { 200: verificationSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const anchor = request.query.anchor === undefined ? undefined : parseAnchor(request.query.anchor);
      if (request.query.anchor !== undefined && anchor === undefined) throw problem('validation_failed', { detail: 'anchor must be <seq>:<hash>' });
      return deps.verifier.verify(request.query.account, anchor);
    },
  );
}
