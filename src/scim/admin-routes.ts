/**
 * Admin API of SCIM: per-account SCIM tokens (POST shows the token once; GET lists them or reads
 * one, never the token itself; DELETE revokes) and roles mapped from groups. Served on the admin
 * listener only.
 */
import { SCOPE_NAMES } from '../oauth/scopes.ts';
import { auditBy } from '../audit/record.ts';
import type { FastifyInstance } from 'fastify';
import type { Accounts } from '../accounts/service.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { optionalBody } from '../platform/http/validation.ts';
import { pageQueryProperties, pageSchema, type Paging } from '../paging/page.ts';
import type { ScimTokens } from './tokens.ts';
import { RoleNameTaken, type RoleInput, type Roles } from './roles.ts';
import { component } from '../platform/http/openapi-components.ts';

const accountParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const itemParams = {
  type: 'object',
  required: ['id', 'itemId'],
  properties: { id: { type: 'string', maxLength: 64 }, itemId: { type: 'string', maxLength: 64 } },
} as const;

const tokenSchema = component('ScimToken', {
  type: 'object',
  required: ['id', 'object', 'description', 'created_at', 'revoked_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'scim_token' },
    description: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    revoked_at: { type: ['string', 'null'], format: 'date-time' },
  },
} as const);

// A role names the scopes it grants from the catalogue: a misspelt one (`invoice:write`) would grant nothing, silently.
const roleBody = component('RoleInput', {
  type: 'object',
  required: ['name', 'scopes', 'groups'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    scopes: { type: 'array', maxItems: 100, items: { type: 'string', enum: SCOPE_NAMES } },
    groups: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        properties: { displayName: { type: 'string', minLength: 1, maxLength: 256 }, externalId: { type: 'string', minLength: 1, maxLength: 256 } },
      },
    },
  },
} as const);
const roleSchema = component('Role', {
  type: 'object',
  required: ['id', 'object', 'name', 'scopes', 'groups', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    object: { type: 'string', const: 'role' },
    name: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string' } },
    groups: { type: 'array', items: { type: 'object', properties: { displayName: { type: 'string' }, externalId: { type: 'string' } } } },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
} as const);

/** The 201 of a create: where the GET of what it made answers. */
const created = <T extends object>(schema: T, what: string) => ({ ...schema, headers: { Location: { type: 'string', format: 'uri-reference', description: `The path of the ${what}` } } });

export function registerScimAdminRoutes(app: FastifyInstance, deps: { accounts: Accounts; tokens: ScimTokens; roles: Roles; paging: Paging }): void {
  const { accounts, tokens, roles, paging } = deps;

  app.post<{ Params: { id: string }; Body: { description?: string } }>(
    '/admin/v1/accounts/:id/scim-tokens',
    {
      schema: {
        tags: ['scim'],
        operationId: 'createScimToken',
        summary: 'Create a SCIM bearer token for an account (the token is shown only in this response)',
        params: accountParams,
        body: optionalBody({ type: 'object', additionalProperties: false, properties: { description: { type: 'string', maxLength: 200, description: 'What the token is for (default: SCIM token)' } } } as const),
        response: {
          201: created({ ...tokenSchema, required: [...tokenSchema.required, 'token'], properties: { ...tokenSchema.properties, token: { type: 'string' } } }, 'SCIM token (GET there shows it without the token)'),
          ...errorResponses(400, 401, 404, 415),
        },
      },
    },
    async (request, reply) => {
      await accounts.require(request.params.id);
      const issued = await tokens.issue(request.params.id, request.body?.description ?? 'SCIM token', auditBy(request));
      reply.code(201).header('location', `/admin/v1/accounts/${request.params.id}/scim-tokens/${issued.id}`).header('cache-control', 'no-store');
      return issued;
    },
  );

  app.get<{ Params: { id: string }; Querystring: { limit?: number; after?: string } }>(
    '/admin/v1/accounts/:id/scim-tokens',
    {
      schema: {
        tags: ['scim'],
        operationId: 'listScimTokens',
        summary: "List an account's SCIM tokens (never the tokens themselves), newest first, page by page (cursor)",
        params: accountParams,
        querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
        response: { 200: pageSchema(tokenSchema, 'A page of SCIM tokens'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return tokens.list(paging, request.params.id, request.query);
    },
  );

  app.get<{ Params: { id: string; itemId: string } }>(
    '/admin/v1/accounts/:id/scim-tokens/:itemId',
    {
      schema: {
        tags: ['scim'],
        operationId: 'getScimToken',
        summary: 'Get a SCIM token as the list shows it (never the token itself); a revoked one names when it was revoked',
        params: itemParams,
        response: { 200: tokenSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      const token = await tokens.get(request.params.id, request.params.itemId);
      if (!token) throw problem('scim_token_not_found');
      return token;
    },
  );

  app.delete<{ Params: { id: string; itemId: string } }>(
    '/admin/v1/accounts/:id/scim-tokens/:itemId',
    {
      schema: { tags: ['scim'], operationId: 'revokeScimToken', summary: 'Revoke a SCIM token', params: itemParams, response: { 204: { type: 'null' }, ...errorResponses(401, 404) } },
    },
    async (request, reply) => {
      await accounts.require(request.params.id);
      if (!(await tokens.revoke(request.params.id, request.params.itemId, auditBy(request)))) throw problem('scim_token_not_found');
      reply.code(204);
    },
  );

  const saveRole = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RoleNameTaken) throw problem('role_name_taken', { detail: `A role named ${error.message} already exists` });
      throw error;
    }
  };

  app.post<{ Params: { id: string }; Body: RoleInput }>(
    '/admin/v1/accounts/:id/roles',
    {
      schema: {
        tags: ['roles'],
        operationId: 'createRole',
        summary: 'Create a role: the scopes its holders may consent to, and the groups (by displayName or externalId) that confer it',
        params: accountParams,
        body: roleBody,
        response: { 201: created(roleSchema, 'role'), ...errorResponses(400, 401, 404, 409, 415) },
      },
    },
    async (request, reply) => {
      await accounts.require(request.params.id);
      const role = await saveRole(() => roles.create(request.params.id, request.body, auditBy(request)));
      reply.code(201).header('location', `/admin/v1/accounts/${request.params.id}/roles/${role.id}`);
      return role;
    },
  );

  app.get<{ Params: { id: string }; Querystring: { limit?: number; after?: string } }>(
    '/admin/v1/accounts/:id/roles',
    {
      schema: {
        tags: ['roles'],
        operationId: 'listRoles',
        summary: "List an account's roles by name, page by page (cursor)",
        params: accountParams,
        querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
        response: { 200: pageSchema(roleSchema, 'A page of roles'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return roles.list(paging, request.params.id, request.query);
    },
  );

  app.get<{ Params: { id: string; itemId: string } }>(
    '/admin/v1/accounts/:id/roles/:itemId',
    { schema: { tags: ['roles'], operationId: 'getRole', summary: 'Get a role', params: itemParams, response: { 200: roleSchema, ...errorResponses(401, 404) } } },
    async (request) => {
      await accounts.require(request.params.id);
      const role = await roles.get(request.params.id, request.params.itemId);
      if (!role) throw problem('role_not_found');
      return role;
    },
  );

  app.put<{ Params: { id: string; itemId: string }; Body: RoleInput }>(
    '/admin/v1/accounts/:id/roles/:itemId',
    {
      schema: { tags: ['roles'], operationId: 'replaceRole', summary: 'Replace a role', params: itemParams, body: roleBody, response: { 200: roleSchema, ...errorResponses(400, 401, 404, 409, 415) } },
    },
    async (request) => {
      await accounts.require(request.params.id);
      const role = await saveRole(() => roles.replace(request.params.id, request.params.itemId, request.body, auditBy(request)));
      if (!role) throw problem('role_not_found');
      return role;
    },
  );

  app.delete<{ Params: { id: string; itemId: string } }>(
    '/admin/v1/accounts/:id/roles/:itemId',
    { schema: { tags: ['roles'], operationId: 'deleteRole', summary: 'Delete a role', params: itemParams, response: { 204: { type: 'null' }, ...errorResponses(401, 404) } } },
    async (request, reply) => {
      await accounts.require(request.params.id);
      if (!(await roles.delete(request.params.id, request.params.itemId, auditBy(request)))) throw problem('role_not_found');
      reply.code(204);
    },
  );
}
