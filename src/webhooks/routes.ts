/**
 * The webhook API under /v1 (HTTP only; rules live in endpoints.ts, recovery.ts and
 * collections.ts). Endpoints need `webhooks:manage`; reading events needs `events:read`.
 * Every POST runs through the write runner, so it takes Idempotency-Key like every /v1 write;
 * the two whose answer shows the signing secret (creation, rotation) declare it, so that answer
 * is stored sealed for replays and never cached. The lists take `limit` and `after` as every
 * /v1 collection does (paging/page.ts).
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { REDACTED, auditBy, recordAudit, type Changes } from '../audit/record.ts';
import type { AuditAction } from '../audit/catalogue.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessTokens } from '../oauth/access-tokens.ts';
import type { WriteRunner } from '../idempotency/write-runner.ts';
import { bearerAccess, insufficientScope, principalOf, protectedRoute, type Principal } from '../platform/auth.ts';
import { logEvent } from '../platform/log-events.ts';
import { errorResponses, noMembers } from '../platform/http/schemas.ts';
import { optionalBody } from '../platform/http/validation.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { endpointChanges, type Endpoints } from './endpoints.ts';
import type { EventDeliveryState, Recovery } from './recovery.ts';
import type { PageOf, WebhookCollections } from './collections.ts';
import { AUDIT_EVENT_PREFIX, SUBSCRIBABLE_EVENT_TYPES } from '../events/types.ts';
import { MAX_HEADERS, WITHHELD } from './endpoint-headers.ts';
import { DISABLE_REASONS } from './lifecycle.ts';
import { pageQueryProperties, pageSchema } from '../paging/page.ts';
import { component } from '../platform/http/openapi-components.ts';

interface PageQuery {
  limit?: number;
  after?: string;
}

/** Who reads, and the page asked for. */
function pageOf(request: FastifyRequest<{ Querystring: PageQuery }>): PageOf {
  return { accountId: principalOf(request).accountId, limit: request.query.limit, after: request.query.after };
}

const TAG = 'webhooks';
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const eventTypes = { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: [...SUBSCRIBABLE_EVENT_TYPES] } } as const;
const description = { type: ['string', 'null'], maxLength: 500 } as const;
const headers = {
  type: 'object',
  maxProperties: MAX_HEADERS,
  additionalProperties: { type: 'string' },
  description: `Headers added to every delivery (at most ${MAX_HEADERS}); names that carry the delivery's own meaning (signature, ids, framing) are refused. On update the whole set is replaced; {} removes them all.`,
} as const;

const endpointSchema = component('WebhookEndpoint', {
  type: 'object',
  required: ['id', 'object', 'url', 'event_types', 'status', 'created_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'webhook_endpoint' },
    url: { type: 'string' },
    description: { type: ['string', 'null'] },
    event_types: { type: 'array', items: { type: 'string' } },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: `Values of credential-like names (auth, token, key, secret…) read "${WITHHELD}"` },
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    disabled_reason: {
      type: ['string', 'null'],
      enum: [...DISABLE_REASONS, null],
      description:
        'Why a disabled endpoint is disabled: manual (by its owner), gone (it answered 410 Gone), failing (failures unbroken for GATEHOUSE_WEBHOOK_DISABLE_AFTER), account_closed (its account was closed); null while enabled',
    },
    previous_secret_expires_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    secret: { type: 'string', description: 'Shown only when created or rotated' },
  },
} as const);

/** The body every delivery of an event carries (an event's `data`), stored with the event and sent byte for byte. */
const eventBodySchema = component('WebhookEventBody', {
  type: 'object',
  required: ['event', 'object', 'id', 'state', 'created_at'],
  properties: {
    event: { type: 'string', description: 'The event kind; equals the Event-Type header' },
    object: { type: 'string', description: 'Kind of the object concerned: invoice, payout, webhook_endpoint, audit_event' },
    id: { type: 'string', description: 'Identifier of the object concerned' },
    state: { type: 'string', description: 'State of the object when the event was raised (`recorded` for an audit event)' },
    created_at: { type: 'string', format: 'date-time', description: 'When the event was raised' },
    data: {
      type: 'object',
      additionalProperties: true,
      description:
        'The object as the API returned it when the event was raised: an Invoice (GET /v1/invoices/{id}), a Payout (GET /v1/payouts/{id}), a WebhookEndpoint less its headers, or an AuditEvent (GET /v1/audit-events). Absent from events raised before it was added.',
    },
  },
} as const);

const eventSchema = component('Event', {
  type: 'object',
  required: ['id', 'object', 'type', 'created_at', 'data', 'delivery_state'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'event' },
    type: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    data: eventBodySchema,
    delivery_state: { type: 'string', enum: ['pending', 'acknowledged', 'parked', 'none'] },
  },
} as const);

const attemptSchema = component('WebhookDeliveryAttempt', {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The Delivery-Id the attempt carried' },
    object: { type: 'string', const: 'webhook_delivery_attempt' },
    event_id: { type: 'string' },
    event_type: { type: 'string' },
    outcome: { type: 'string', enum: ['succeeded', 'failed'] },
    response_status: { type: ['integer', 'null'] },
    response_body: { type: ['string', 'null'], description: 'First 1024 bytes' },
    error: { type: ['string', 'null'] },
    latency_ms: { type: 'integer' },
    attempted_at: { type: 'string', format: 'date-time' },
  },
} as const);

export function registerWebhookRoutes(
  app: FastifyInstance,
  deps: { accessTokens: AccessTokens; writes: WriteRunner; endpoints: Endpoints; recovery: Recovery; collections: WebhookCollections; clock: Clock },
): void {
  const { endpoints, recovery, writes, collections } = deps;
  /** The audit record of a change to an endpoint, in the write's transaction. */
  const audited = (trx: Db, request: FastifyRequest, action: AuditAction, endpointId: string, changes: Changes) =>
    recordAudit(trx, auditBy(request), { accountId: principalOf(request).accountId, action, target: { type: 'webhook_endpoint', id: endpointId }, changes, at: deps.clock.now() });
  const access = bearerAccess(deps.accessTokens);
  const manage = access('webhooks:manage');
  const readEvents = access('events:read');
  /** `audit:read` is privileged (oauth/scopes.ts): the trail's streamed records are not every event reader's. */
  const readsAudit = (request: FastifyRequest) => principalOf(request).scopes.has('audit:read');
  /**
   * An endpoint that streams the audit trail (an `audit.*` type, now or after the change) is made
   * or changed only by a token that may read the trail: `webhooks:manage` alone would otherwise
   * send it to a URL of its choosing, or take over the secret its receiver trusts. In the
   * change's transaction (`trx`), the endpoint's row locked: a change that adds audit types to it
   * meanwhile is seen, not raced past.
   */
  async function mayChangeAuditStream(request: FastifyRequest, trx: Db | undefined, endpointId: string | undefined, eventTypes: readonly string[] = []): Promise<void> {
    if (readsAudit(request)) return;
    const current = endpointId === undefined ? [] : await endpoints.eventTypesOf(trx, principalOf(request).accountId, endpointId);
    if ([...current, ...eventTypes].some((type) => type.startsWith(AUDIT_EVENT_PREFIX))) throw insufficientScope(['webhooks:manage', 'audit:read']);
  }

  app.post<{ Body: { url: string; event_types: string[]; description?: string | null; headers?: Record<string, string> } }>(
    '/v1/webhook_endpoints',
    protectedRoute(manage, {
      config: { responseCarriesSecret: true },
      schema: {
        tags: [TAG],
        operationId: 'createWebhookEndpoint',
        summary: 'Register a webhook endpoint; the secret is shown only in this response',
        body: {
          type: 'object',
          required: ['url', 'event_types'],
          additionalProperties: false,
          properties: { url: { type: 'string', minLength: 1, maxLength: 2048 }, event_types: eventTypes, description, headers },
        },
        response: { 201: endpointSchema, ...errorResponses(400, 401, 403, 409, 415) },
      },
    }),
    async (request, reply) => {
      await mayChangeAuditStream(request, undefined, undefined, request.body.event_types);
      return writes.runWrite(request, reply, async (trx) => {
        const created = await endpoints.create(trx, principalOf(request).accountId, request.body);
        const createdWith = { url: created.url, event_types: created.event_types, description: created.description, headers: request.body.headers ?? {} };
        await audited(trx, request, 'webhook_endpoint.created', created.id, endpointChanges(null, createdWith));
        return { status: 201, body: created, headers: { location: `/v1/webhook_endpoints/${created.id}` } };
      });
    },
  );

  app.get<{ Querystring: PageQuery }>('/v1/webhook_endpoints', protectedRoute(manage, {
    schema: {
      tags: [TAG],
      operationId: 'listWebhookEndpoints',
      summary: 'List webhook endpoints, newest first',
      querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
      response: { 200: pageSchema(endpointSchema, 'A page of webhook endpoints'), ...errorResponses(400, 401, 403) },
    },
  }), async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return collections.endpoints(pageOf(request));
  });

  app.get<{ Params: { id: string } }>('/v1/webhook_endpoints/:id', protectedRoute(manage, {
    schema: { tags: [TAG], operationId: 'getWebhookEndpoint', summary: 'Get a webhook endpoint', params: idParams, response: { 200: endpointSchema, ...errorResponses(401, 403, 404) } },
  }), async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return endpoints.get(principalOf(request).accountId, request.params.id);
  });

  app.post<{ Params: { id: string }; Body: { url?: string; event_types?: string[]; description?: string | null; headers?: Record<string, string> } }>(
    '/v1/webhook_endpoints/:id',
    protectedRoute(manage, {
      config: { responseCarriesSecret: true },
      schema: {
        tags: [TAG],
        operationId: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint (url, event types, description, headers)',
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { url: { type: 'string', minLength: 1, maxLength: 2048 }, event_types: eventTypes, description, headers },
        },
        response: { 200: endpointSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
      },
    }),
    async (request, reply) => {
      return writes.runWrite(request, reply, async (trx) => {
        await mayChangeAuditStream(request, trx, request.params.id, request.body.event_types);
        const { view, changes } = await endpoints.update(trx, principalOf(request).accountId, request.params.id, request.body);
        if (Object.keys(changes).length > 0) await audited(trx, request, 'webhook_endpoint.updated', request.params.id, changes);
        return { status: 200, body: view };
      });
    },
  );

  for (const action of ['enable', 'disable'] as const) {
    app.post<{ Params: { id: string } }>(`/v1/webhook_endpoints/:id/${action}`, protectedRoute(manage, {
      config: { responseCarriesSecret: true },
      schema: {
        tags: [TAG],
        operationId: action === 'enable' ? 'enableWebhookEndpoint' : 'disableWebhookEndpoint',
        summary: action === 'enable' ? 'Enable a webhook endpoint' : 'Disable a webhook endpoint (its pending deliveries are parked)',
        params: idParams,
        body: noMembers,
        response: { 200: endpointSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    }), async (request, reply) => {
      return writes.runWrite(request, reply, async (trx) => {
        await mayChangeAuditStream(request, trx, request.params.id);
        const { view, changes } = await endpoints.setEnabled(trx, principalOf(request).accountId, request.params.id, action === 'enable');
        if (Object.keys(changes).length > 0) await audited(trx, request, `webhook_endpoint.${action}d`, request.params.id, changes);
        return { status: 200, body: view };
      });
    });
  }

  app.delete<{ Params: { id: string } }>('/v1/webhook_endpoints/:id', protectedRoute(manage, {
    schema: { tags: [TAG], operationId: 'deleteWebhookEndpoint', summary: 'Delete a webhook endpoint and its deliveries', params: idParams, response: { 204: { type: 'null' }, ...errorResponses(401, 403, 404) } },
  }), async (request, reply) => {
    // Before the deletion's own transaction: what a race past it could do is delete the endpoint.
    await mayChangeAuditStream(request, undefined, request.params.id);
    await endpoints.remove(principalOf(request).accountId, request.params.id, auditBy(request));
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string }; Body: { overlap_seconds?: number } | undefined }>('/v1/webhook_endpoints/:id/rotate_secret', protectedRoute(manage, {
    config: { responseCarriesSecret: true },
    schema: {
      tags: [TAG],
      operationId: 'rotateWebhookEndpointSecret',
      summary: 'Rotate the signing secret; the old one keeps signing during the overlap (default 24 h)',
      params: idParams,
      body: optionalBody({ type: 'object', additionalProperties: false, properties: { overlap_seconds: { type: 'integer', minimum: 0, maximum: 7 * 24 * 3600 } } } as const),
      response: { 200: endpointSchema, ...errorResponses(400, 401, 403, 404, 409, 415) },
    },
  }), async (request, reply) => {
    return writes.runWrite(request, reply, async (trx) => {
      await mayChangeAuditStream(request, trx, request.params.id);
      const overlap = request.body?.overlap_seconds ?? 24 * 3600;
      const body = await endpoints.rotateSecret(trx, principalOf(request).accountId, request.params.id, overlap);
      await audited(trx, request, 'webhook_endpoint.secret_rotated', request.params.id, { secret: { before: REDACTED, after: REDACTED }, overlap_seconds: { after: overlap } });
      return { status: 200, body };
    });
  });

  app.get<{ Params: { id: string }; Querystring: PageQuery & { event_id?: string } }>('/v1/webhook_endpoints/:id/deliveries', protectedRoute(manage, {
    schema: {
      tags: [TAG],
      operationId: 'listWebhookDeliveryAttempts',
      summary: 'The attempt log of an endpoint, newest first',
      description: 'Attempts of the audit trail\'s `audit.*` events are listed only to a token that also holds audit:read.',
      params: idParams,
      querystring: { type: 'object', additionalProperties: false, properties: { ...pageQueryProperties, event_id: { type: 'string', maxLength: 64 } } },
      response: { 200: pageSchema(attemptSchema, 'A page of delivery attempts'), ...errorResponses(400, 401, 403, 404) },
    },
  }), async (request) => {
    const page = pageOf(request);
    await endpoints.find(page.accountId, request.params.id);
    return collections.attempts(page, { endpoint_id: request.params.id, event_id: request.query.event_id, audit: readsAudit(request) });
  });

  app.post<{ Params: { id: string }; Body: { since: string } }>('/v1/webhook_endpoints/:id/recover', protectedRoute(manage, {
    schema: {
      tags: [TAG],
      operationId: 'recoverWebhookDeliveries',
      summary: 'Requeue every parked delivery of this endpoint for events raised since a time',
      params: idParams,
      body: { type: 'object', required: ['since'], additionalProperties: false, properties: { since: { type: 'string', format: 'date-time' } } },
      response: { 202: { type: 'object', properties: { object: { type: 'string' }, endpoint_id: { type: 'string' }, since: { type: 'string' }, requeued: { type: 'integer' } } }, ...errorResponses(400, 401, 403, 404, 409, 415) },
    },
  }), async (request, reply) => {
    const principal = principalOf(request);
    // The schema's date-time admits a leap second (23:59:60), which no Date holds: a bad value, not a 500.
    const since = Date.parse(request.body.since);
    if (Number.isNaN(since)) throw problem('validation_failed', { detail: 'since must be an RFC 3339 instant' });
    let recovered: Awaited<ReturnType<Recovery['recover']>> | undefined;
    const sent = await writes.runWrite(request, reply, async (trx) => {
      await mayChangeAuditStream(request, trx, request.params.id);
      recovered = await recovery.recover(trx, principal.accountId, request.params.id, since);
      await audited(trx, request, 'webhook_endpoint.recovered', request.params.id, { since: { after: request.body.since }, requeued: { after: recovered.requeued } });
      return { status: 202, body: recovered };
    });
    // Only a recovery performed (and committed) now: a replay of a stored answer ran nothing.
    if (recovered !== undefined) {
      logEvent(
        request.log,
        'webhook.recovery_requested',
        { ...actor(principal), endpoint_id: recovered.endpoint_id, since: recovered.since, requeued: recovered.requeued },
        'parked webhook deliveries requeued',
      );
    }
    return sent;
  });

  app.get<{ Querystring: PageQuery & { type?: string; delivery_state?: EventDeliveryState; since?: string; until?: string } }>('/v1/events', protectedRoute(readEvents, {
    schema: {
      tags: [TAG],
      operationId: 'listEvents',
      summary: 'Events of the account, newest first',
      description: 'The audit trail\'s records streamed as `audit.*` events are listed only to a token that also holds audit:read.',
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQueryProperties,
          type: { type: 'string', maxLength: 100 },
          delivery_state: { type: 'string', enum: ['pending', 'acknowledged', 'parked', 'none'] },
          since: { type: 'string', maxLength: 40, description: 'RFC 3339 date-time (e.g. 2026-11-01T00:00:00Z): only events raised at or after this instant' },
          until: { type: 'string', maxLength: 40, description: 'RFC 3339 date-time: only events raised before this instant' },
        },
      },
      response: { 200: pageSchema(eventSchema, 'A page of events'), ...errorResponses(400, 401, 403) },
    },
  }), async (request) => {
    const { type, delivery_state, since, until } = request.query;
    return collections.events(pageOf(request), { type, delivery_state, since, until, audit: readsAudit(request) });
  });

  app.get<{ Params: { id: string } }>('/v1/events/:id', protectedRoute(readEvents, {
    schema: { tags: [TAG], operationId: 'getEvent', summary: 'Get an event', params: idParams, response: { 200: eventSchema, ...errorResponses(401, 403, 404) } },
  }), async (request) => recovery.getEvent(principalOf(request).accountId, request.params.id, readsAudit(request)));

  app.post<{ Params: { id: string }; Body: { endpoint_id?: string } | undefined }>('/v1/events/:id/redeliver', protectedRoute(manage, {
    schema: {
      tags: [TAG],
      operationId: 'redeliverEvent',
      summary: 'Send an event again: to the endpoints it was delivered to, or to one endpoint',
      description:
        'Without a body, the event is sent again to every endpoint that had a delivery of it (those it was sent to when raised, and any it was redelivered to) and is still enabled; never to an endpoint that had none. With `endpoint_id`, to that endpoint only, which must be enabled and subscribe to the event\'s type now (409 otherwise); it need not have had a delivery of it (e.g. registered later, or disabled when the event was raised). An `audit.*` event exists only for a token that also holds audit:read.',
      params: idParams,
      body: optionalBody({
        type: 'object',
        additionalProperties: false,
        properties: { endpoint_id: { type: 'string', minLength: 1, maxLength: 64, description: 'Send the event to this endpoint (we_…) only', examples: ['we_4Qm8sT2vX7kN1pR6aZ3c'] } },
      } as const),
      response: {
        202: {
          type: 'object',
          properties: {
            object: { type: 'string' },
            event_id: { type: 'string' },
            endpoint_id: { type: 'string', description: 'The endpoint asked for, when one was' },
            requeued: { type: 'integer' },
          },
        },
        ...errorResponses(400, 401, 403, 404, 409, 415),
      },
    },
  }), async (request, reply) => {
    const principal = principalOf(request);
    const endpointId = request.body?.endpoint_id;
    let redelivered: Awaited<ReturnType<Recovery['redeliver']>> | undefined;
    const sent = await writes.runWrite(request, reply, async (trx) => {
      redelivered = await recovery.redeliver(trx, principal.accountId, request.params.id, { endpointId, audit: readsAudit(request) });
      const changes: Changes = { requeued: { after: redelivered.requeued }, ...(endpointId === undefined ? {} : { endpoint_id: { after: endpointId } }) };
      await recordAudit(trx, auditBy(request), { accountId: principal.accountId, action: 'event.redelivered', target: { type: 'event', id: request.params.id }, changes, at: deps.clock.now() });
      return { status: 202, body: redelivered };
    });
    if (redelivered !== undefined) {
      logEvent(request.log, 'webhook.redelivery_requested', { ...actor(principal), event_id: redelivered.event_id, ...('endpoint_id' in redelivered ? { endpoint_id: redelivered.endpoint_id } : {}), requeued: redelivered.requeued }, 'webhook event requeued for redelivery');
    }
    return sent;
  });
}

/** Who asked, for the log: the account, and the client (and person) the token was issued to. */
function actor(principal: Principal): Record<string, string> {
  return { account_id: principal.accountId, client_id: principal.clientId, ...(principal.userId === null ? {} : { user_id: principal.userId }) };
}
