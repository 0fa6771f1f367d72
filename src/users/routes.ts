/**
 * Admin routes for people: create (password sign-in), list (cursor paging, by userName or
 * active), get, update, deactivate, reactivate, delete, reset password, and their grants and
 * sessions (see lifecycle.ts).
 */
import { auditBy } from '../audit/index.ts';
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../accounts/service.ts';
import type { Users } from './service.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import type { UserLifecycle, UserListQuery } from './lifecycle.ts';
import type { PersonChange } from './service.ts';
import { pageQueryProperties, pageSchema } from '../paging/page.ts';
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

/** A userName as people type it: not blank, at most as long as SCIM allows an identifier. */
const userNameProperty = { type: 'string', minLength: 1, maxLength: 256, pattern: '\\S' } as const;

/** Creating names only the account; reading names the user too. */
const accountParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const params = {
  type: 'object',
  required: ['id', 'userId'],
  properties: { id: { type: 'string', maxLength: 64 }, userId: { type: 'string', maxLength: 64 } },
} as const;
/** A grant or a session of the person, named in the path beside them. */
const grantParams = {
  type: 'object',
  required: ['id', 'userId', 'grantId'],
  properties: { ...params.properties, grantId: { type: 'string', maxLength: 64 } },
} as const;
const sessionParams = {
  type: 'object',
  required: ['id', 'userId', 'sessionId'],
  properties: { ...params.properties, sessionId: { type: 'string', maxLength: 64 } },
} as const;

const grantSchema = component('UserGrant', {
  type: 'object',
  required: ['object', 'id', 'client_id', 'scope', 'created_at', 'expires_at'],
  properties: {
    object: { type: 'string', const: 'grant' },
    id: { type: 'string', examples: ['grant_9Xc4mQ2rT7vL1pW8bN5k'] },
    client_id: { type: 'string', examples: ['cli_7Rk2pV9sQ1mZ4wX8bN3c'] },
    scope: { type: 'string', description: 'The scope consented, space-separated', examples: ['openid profile invoices:read'] },
    created_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
  },
} as const);
const sessionSchema = component('UserSession', {
  type: 'object',
  required: ['object', 'id', 'authenticated_at', 'expires_at'],
  properties: {
    object: { type: 'string', const: 'session' },
    id: { type: 'string', examples: ['sess_3Hd8kP1nV6zQ4tY2mR7j'] },
    authenticated_at: { type: 'string', format: 'date-time' },
    expires_at: { type: 'string', format: 'date-time' },
  },
} as const);

export function registerUserRoutes(app: FastifyInstance, deps: { accounts: Accounts; users: Users; lifecycle: UserLifecycle }): void {
  const { accounts, users, lifecycle } = deps;
  type One = { Params: { id: string; userId: string; grantId: string; sessionId: string } };
  // The admin plugin states the admin token as each route's security.
  const admin = (operationId: string, summary: string, extra: Record<string, unknown>) => ({ schema: { tags: ['users'], operationId, summary, params, ...extra } });

  app.get<{ Params: { id: string }; Querystring: UserListQuery }>(
    '/admin/v1/accounts/:id/users',
    admin('listUsers', 'List the people of an account, oldest first, page by page (cursor); userName finds one person, active keeps those active or not', {
      params: accountParams,
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          ...pageQueryProperties,
          userName: { type: 'string', minLength: 1, maxLength: 256, description: 'The person with this userName, compared case-insensitively as sign-in compares it' },
          active: { type: 'boolean' },
        },
      },
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
    admin('deactivateUser', 'Deactivate a person: every token, grant and session of theirs ends at once; back-channel logouts go out', { response: { 200: userSchema, ...errorResponses(401, 404) } }),
    async (request) => lifecycle.deactivate(request.params.id, request.params.userId, auditBy(request)),
  );

  app.post<One>(
    '/admin/v1/accounts/:id/users/:userId/reactivate',
    admin('reactivateUser', 'Reactivate a person: they may sign in again (nothing that ended comes back)', { response: { 200: userSchema, ...errorResponses(401, 404) } }),
    async (request) => lifecycle.reactivate(request.params.id, request.params.userId, auditBy(request)),
  );

  app.delete<One>(
    '/admin/v1/accounts/:id/users/:userId',
    admin('deleteUser', 'Delete a person (as SCIM DELETE): access ends, memberships go; deactivation is the usual departure', { response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 404) } }),
    async (request, reply) => {
      await lifecycle.remove(request.params.id, request.params.userId, auditBy(request));
      reply.code(204).send();
    },
  );

  app.post<One & { Body: { password: string } }>(
    '/admin/v1/accounts/:id/users/:userId/password',
    admin('resetUserPassword', 'Set a new password (the password policy applies); every session and token of the person ends', {
      body: { type: 'object', required: ['password'], additionalProperties: false, properties: { password: { type: 'string' } } },
      response: { 200: userSchema, ...errorResponses(400, 401, 404, 415) },
    }),
    async (request) => lifecycle.resetPassword(request.params.id, request.params.userId, request.body.password, auditBy(request)),
  );

  app.get<One & { Querystring: { limit?: number; after?: string } }>(
    '/admin/v1/accounts/:id/users/:userId/grants',
    admin('listUserGrants', "A person's live grants (one per sign-in to a client, with the scope consented), oldest first, page by page (cursor)", {
      querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
      response: { 200: pageSchema(grantSchema, 'A page of grants'), ...errorResponses(400, 401, 404) },
    }),
    async (request) => lifecycle.grants(request.params.id, request.params.userId, request.query),
  );

  app.delete<One>(
    '/admin/v1/accounts/:id/users/:userId/grants/:grantId',
    admin('revokeUserGrant', 'Revoke a grant with every refresh and access token issued under it', { params: grantParams, response: { 204: { type: 'null', description: 'Revoked' }, ...errorResponses(401, 404) } }),
    async (request, reply) => {
      await lifecycle.revokeGrant(request.params.id, request.params.userId, request.params.grantId, auditBy(request));
      reply.code(204).send();
    },
  );

  app.get<One & { Querystring: { limit?: number; after?: string } }>(
    '/admin/v1/accounts/:id/users/:userId/sessions',
    admin('listUserSessions', "A person's live sign-in sessions, oldest first, page by page (cursor)", {
      querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
      response: { 200: pageSchema(sessionSchema, 'A page of sign-in sessions'), ...errorResponses(400, 401, 404) },
    }),
    async (request) => lifecycle.sessions(request.params.id, request.params.userId, request.query),
  );

  app.delete<One>(
    '/admin/v1/accounts/:id/users/:userId/sessions/:sessionId',
    admin('endUserSession', 'End a sign-in session; the clients it signed in to get back-channel logouts', { params: sessionParams, response: { 204: { type: 'null', description: 'Ended' }, ...errorResponses(401, 404) } }),
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
        operationId: 'createUser',
        summary: 'Create a user who signs in with a password (argon2id)',
        params: accountParams,
        body: {
          type: 'object',
          required: ['userName', 'password'],
          additionalProperties: false,
          properties: {
            userName: userNameProperty,
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

  app.patch<{ Params: { id: string; userId: string }; Body: PersonChange }>(
    '/admin/v1/accounts/:id/users/:userId',
    {
      schema: {
        tags: ['users'],
        operationId: 'updateUser',
        summary: 'Change a person\'s userName or name (the members given; null removes a name part)',
        description:
          'Checked and recorded as a directory\'s PATCH is: the userName stays unique in the account, the version moves (SCIM ETags change) and the audit trail records user.updated with each field before and after. ' +
          'A person a directory manages may be written back by its next synchronisation: the directory is their source.',
        params,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            userName: userNameProperty,
            name: {
              type: 'object',
              additionalProperties: false,
              minProperties: 1,
              properties: { givenName: { type: ['string', 'null'], maxLength: 200 }, familyName: { type: ['string', 'null'], maxLength: 200 } },
            },
          },
        },
        response: { 200: userSchema, ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return lifecycle.update(request.params.id, request.params.userId, request.body, auditBy(request));
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
