/**
 * Admin routes for back-channel logout deliveries (logout-recovery.ts): list them, retry one
 * parked delivery, or retry every parked delivery of the account since a time.
 */
import type { FastifyInstance } from 'fastify';
import { auditBy } from '../audit/index.ts';
import type { Accounts } from '../accounts/service.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { component } from '../platform/http/openapi-components.ts';
import { pageQueryProperties, pageSchema } from '../paging/page.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { LOGOUT_DELIVERY_STATES, type LogoutDeliveryState, type LogoutRecovery } from './logout-recovery.ts';

const date = { type: 'string', format: 'date-time' } as const;
const deliverySchema = component('LogoutDelivery', {
  type: 'object',
  required: ['object', 'id', 'client_id', 'user_id', 'sid', 'target_uri', 'state', 'failures', 'last_error', 'created_at', 'next_attempt_at', 'delivered_at'],
  properties: {
    object: { type: 'string', const: 'logout_delivery' },
    id: { type: 'string', examples: ['blo_0Jd8K2mQ4rT7vL1pW8bN5k'] },
    client_id: { type: 'string', description: 'The client the logout token is for' },
    user_id: { type: 'string', description: 'The person who was signed out' },
    sid: { type: 'string', description: 'The session that ended (the token\'s sid)' },
    target_uri: { type: 'string', description: 'The client\'s backchannel_logout_uri when the logout was queued' },
    state: { type: 'string', enum: [...LOGOUT_DELIVERY_STATES], description: 'pending (being retried), delivered (a 2xx came back), parked (the retry schedule ran out)' },
    failures: { type: 'integer', description: 'Failed attempts in the current cycle' },
    last_error: { type: ['string', 'null'], description: 'What the last failed attempt met, e.g. status 500' },
    created_at: date,
    next_attempt_at: { type: ['string', 'null'], format: 'date-time', description: 'When a pending delivery is tried next' },
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const);

const accountParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const deliveryParams = { type: 'object', required: ['id', 'deliveryId'], properties: { id: { type: 'string', maxLength: 64 }, deliveryId: { type: 'string', maxLength: 64 } } } as const;

export function registerLogoutDeliveryRoutes(app: FastifyInstance, deps: { accounts: Accounts; recovery: LogoutRecovery }): void {
  const { accounts, recovery } = deps;

  app.get<{ Params: { id: string }; Querystring: { limit?: number; after?: string; state?: LogoutDeliveryState; client_id?: string } }>(
    '/admin/v1/accounts/:id/logout-deliveries',
    {
      schema: {
        tags: ['clients'],
        operationId: 'listLogoutDeliveries',
        summary: 'List the back-channel logout deliveries of an account, newest first, page by page (cursor); state=parked lists those that gave up',
        params: accountParams,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...pageQueryProperties, state: { type: 'string', enum: [...LOGOUT_DELIVERY_STATES] }, client_id: { type: 'string', maxLength: 64 } },
        },
        response: { 200: pageSchema(deliverySchema, 'A page of back-channel logout deliveries'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return recovery.list(request.params.id, request.query);
    },
  );

  app.post<{ Params: { id: string; deliveryId: string } }>(
    '/admin/v1/accounts/:id/logout-deliveries/:deliveryId/retry',
    {
      schema: {
        tags: ['clients'],
        operationId: 'retryLogoutDelivery',
        summary: 'Retry a parked back-channel logout delivery: a new retry cycle, due now, with a freshly signed logout token',
        params: deliveryParams,
        response: { 200: deliverySchema, ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return recovery.retry(request.params.id, request.params.deliveryId, auditBy(request));
    },
  );

  app.post<{ Params: { id: string }; Body: { since: string; client_id?: string } }>(
    '/admin/v1/accounts/:id/logout-deliveries/retry',
    {
      schema: {
        tags: ['clients'],
        operationId: 'retryParkedLogoutDeliveries',
        summary: 'Retry every parked back-channel logout delivery of the account queued at or after `since` (of one client, if named)',
        params: accountParams,
        body: {
          type: 'object',
          required: ['since'],
          additionalProperties: false,
          properties: { since: { type: 'string', format: 'date-time' }, client_id: { type: 'string', maxLength: 64 } },
        },
        response: {
          200: {
            type: 'object',
            required: ['object', 'since', 'requeued'],
            properties: { object: { type: 'string', const: 'logout_retry' }, since: date, client_id: { type: 'string' }, requeued: { type: 'integer' } },
          },
          ...errorResponses(400, 401, 404, 415),
        },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      const since = Date.parse(request.body.since);
      if (Number.isNaN(since)) throw problem('validation_failed', { detail: 'since must be an RFC 3339 instant' });
      return recovery.retryParked(request.params.id, { since, clientId: request.body.client_id }, auditBy(request));
    },
  );
}
