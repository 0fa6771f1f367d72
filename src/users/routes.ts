/**
 * Admin routes for people: create (password sign-in), list (cursor paging), get, deactivate,
 * reactivate, delete, reset password, and their grants and sessions (see lifecycle.ts).
 */
import { auditBy } from '../audit/index.ts';
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../accounts/service.ts';
import type { Users } from './service.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import type { UserLifecycle } from './lifecycle.ts';
import { pageQueryProperties } from '../paging/page.ts';

const userSchema = {
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
} as const;

const params = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', maxLength: 64 }, userId: { type: 'string', maxLength: 64 }, grantId: { type: 'string', maxLength: 64 }, sessionId: { type: 'string', maxLength: 64 } },
} as const;

const grantSchema = {
  type: 'object',
  properties: { object: { type: 'string' }, id: { type: 'string' }, client_id: { type: 'string' }, scope: { type: 'string' }, created_at: { type: 'string' }, expires_at: { type: 'string' } },
} as const;
const sessionSchema = {
  type: 'object',
  properties: { object: { type: 'string' }, id: { type: 'string' }, authenticated_at: { type: 'string' }, expires_at: { type: 'string' } },
} as const;

export function registerUserRoutes(app: FastifyInstance, deps: { accounts: Accounts; users: Users; lifecycle: UserLifecycle }): void {
  const { accounts, users, lifecycle } = deps;
  type One = { Params: { id: string; userId: string; grantId: string; sessionId: string } };
  const admin = (summary: string, extra: Record<string, unknown>) => ({ schema: { tags: ['users'], summary, security: [{ adminToken: [] }], params, ...extra } });

  app.get<{ Params: { id: string }; Querystring: { limit?: number; after?: string } }>(
    '/admin/v1/accounts/:id/users',
    admin('List the people of an account, oldest first, page by page (cursor)', {
      querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
      response: {
        200: { type: 'object', required: ['data', 'next_cursor'], properties: { data: { type: 'array', items: userSchema }, next_cursor: { type: ['string', 'null'] } } },
        ...errorResponses(400, 401, 404),
      },
    }),
    async (request) => {
      await accounts.require(request.params.id);
      return lifecycle.list(request.params.id, request.query);
    },
  );

  app.post<One>(
    '/admin/v1/accounts/:id/users/:userId/deactivate',
    admin('Deactivate a person: every token, grant and session of theirs ends at once; back-channel logouts go out', { response: { 200: userSchema, ...errorResponses(401, 404) } }),
    async (request) => lifecycle.deactivate(request.params.id, request.params.userId, auditBy(request)),
  );

  app.post<One>(
    '/admin/v1/accounts/:id/users/:userId/reactivate',
    admin('Reactivate a person: they may sign in again (nothing that ended comes back)', { response: { 200: userSchema, ...errorResponses(401, 404) } }),
    async (request) => lifecycle.reactivate(request.params.id, request.params.userId, auditBy(request)),
  );

  app.delete<One>(
    '/admin/v1/accounts/:id/users/:userId',
    admin('Delete a person (as SCIM DELETE): access ends, memberships go; deactivation is the usual departure', { response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 404) } }),
    async (request, reply) => {
      await lifecycle.remove(request.params.id, request.params.userId, auditBy(request));
      reply.code(204).send();
    },
  );

  app.post<One & { Body: { password: string } }>(
    '/admin/v1/accounts/:id/users/:userId/password',
    admin('Set a new password (the password policy applies); every session and token of the person ends', {
      body: { type: 'object', required: ['password'], additionalProperties: false, properties: { password: { type: 'string' } } },
      response: { 200: userSchema, ...errorResponses(400, 401, 404, 415) },
    }),
    async (request) => lifecycle.resetPassword(request.params.id, request.params.userId, request.body.password, auditBy(request)),
  );

  app.get<One>(
    '/admin/v1/accounts/:id/users/:userId/grants',
    admin("A person's live grants: one per sign-in to a client, with the scope consented", {
      response: { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: grantSchema } } }, ...errorResponses(401, 404) },
    }),
    async (request) => ({ data: await lifecycle.grants(request.params.id, request.params.userId) }),
  );

  app.delete<One>(
    '/admin/v1/accounts/:id/users/:userId/grants/:grantId',
    admin('Revoke a grant with every refresh and access token issued under it', { response: { 204: { type: 'null', description: 'Revoked' }, ...errorResponses(401, 404) } }),
    async (request, reply) => {
      await lifecycle.revokeGrant(request.params.id, request.params.userId, request.params.grantId, auditBy(request));
      reply.code(204).send();
    },
  );

  app.get<One>(
    '/admin/v1/accounts/:id/users/:userId/sessions',
    admin("A person's live sign-in sessions", {
      response: { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: sessionSchema } } }, ...errorResponses(401, 404) },
    }),
    async (request) => ({ data: await lifecycle.sessions(request.params.id, request.params.userId) }),
  );

  app.delete<One>(
    '/admin/v1/accounts/:id/users/:userId/sessions/:sessionId',
    admin('End a sign-in session; the clients it signed in to get back-channel logouts', { response: { 204: { type: 'null', description: 'Ended' }, ...errorResponses(401, 404) } }),
    async (request, reply) => {
      await lifecycle.endSession(request.params.id, request.params.userId, request.params.sessionId, auditBy(request));
      reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string }; Body: { userName: string; password: string; name?: { givenName?: string; familyName?: string } } }>(
    '/admin/v1/accounts/:id/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Create a user who signs in with a password (argon2id)',
        params,
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
      const user = await users.create(request.params.id, request.body, auditBy(request));
      reply.code(201).header('location', `/admin/v1/accounts/${request.params.id}/users/${user.id}`);
      return user;
    },
  );

  app.get<{ Params: { id: string; userId: string } }>(
    '/admin/v1/accounts/:id/users/:userId',
    {
      schema: {
        tags: ['users'],
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
