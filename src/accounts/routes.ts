/** Admin routes for accounts: POST/GET /admin/v1/accounts, GET /admin/v1/accounts/{id}. */
import type { FastifyInstance } from 'fastify';
import { auditBy } from '../audit/index.ts';
import type { Accounts } from './service.ts';
import { presentAccount } from './service.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { component } from '../platform/http/openapi-components.ts';

const accountSchema = component('Account', {
  type: 'object',
  required: ['id', 'object', 'name', 'created_at'],
  properties: {
    id: { type: 'string', examples: ['acct_4fJ1tX9v0QmB7dP2sK8r'] },
    object: { type: 'string', const: 'account' },
    name: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const);

export function registerAccountRoutes(app: FastifyInstance, deps: { accounts: Accounts }): void {
  const { accounts } = deps;

  app.post<{ Body: { name: string } }>(
    '/admin/v1/accounts',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'createAccount',
        summary: 'Create an account (a tenant)',
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } },
        },
        response: { 201: accountSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request, reply) => {
      const account = await accounts.create(request.body, auditBy(request));
      reply.code(201).header('location', `/admin/v1/accounts/${account.id}`);
      return account;
    },
  );

  app.get<{ Querystring: { limit: number } }>(
    '/admin/v1/accounts',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'listAccounts',
        summary: 'List accounts, newest first',
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
        },
        response: {
          200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: accountSchema } } },
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const rows = await accounts.store.list({ limit: request.query.limit });
      return { data: rows.map(presentAccount) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/admin/v1/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'getAccount',
        summary: 'Get an account',
        params: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } },
        response: { 200: accountSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => accounts.get(request.params.id),
  );
}
