/** Admin routes for users who sign in with a password: POST /admin/v1/accounts/{id}/users, GET one. */
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../accounts/service.ts';
import type { Users } from './service.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import { component } from '../platform/http/openapi-components.ts';

const userSchema = component('User', {
  type: 'object',
  required: ['object', 'id', 'account_id', 'userName', 'active', 'created_at'],
  properties: {
    object: { type: 'string', const: 'user' },
    id: { type: 'string' },
    account_id: { type: 'string' },
    userName: { type: 'string' },
    name: { type: 'object', properties: { givenName: { type: 'string' }, familyName: { type: 'string' } } },
    active: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const);

/** Creating names only the account; reading names the user too. */
const accountParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const params = {
  type: 'object',
  required: ['id', 'userId'],
  properties: { id: { type: 'string', maxLength: 64 }, userId: { type: 'string', maxLength: 64 } },
} as const;

export function registerUserRoutes(app: FastifyInstance, deps: { accounts: Accounts; users: Users }): void {
  const { accounts, users } = deps;

  app.post<{ Params: { id: string }; Body: { userName: string; password: string; name?: { givenName?: string; familyName?: string } } }>(
    '/admin/v1/accounts/:id/users',
    {
      schema: {
        tags: ['users'],
        operationId: 'createUser',
        summary: 'Create a user who signs in with a password (argon2id)',
        params: accountParams,
        body: {
          type: 'object',
          required: ['userName', 'password'],
          additionalProperties: false,
          properties: {
            userName: { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S' },
            // The password policy decides (400 weak_password), as it does for SCIM; not the schema.
            password: { type: 'string', description: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters (the password policy)` },
            name: {
              type: 'object',
              additionalProperties: false,
              properties: { givenName: { type: 'string', maxLength: 200 }, familyName: { type: 'string', maxLength: 200 } },
            },
          },
        },
        response: { 201: userSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      await accounts.require(request.params.id);
      const user = await users.create(request.params.id, request.body);
      reply.code(201).header('location', `/admin/v1/accounts/${request.params.id}/users/${user.id}`);
      return user;
    },
  );

  app.get<{ Params: { id: string; userId: string } }>(
    '/admin/v1/accounts/:id/users/:userId',
    {
      schema: {
        tags: ['users'],
        operationId: 'getUser',
        summary: 'Get a user',
        params,
        response: { 200: userSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return users.get(request.params.id, request.params.userId);
    },
  );
}
