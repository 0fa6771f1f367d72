/** Admin routes for OAuth clients: register (RFC 7591 metadata), list, get, update (PATCH), delete, rotate secret, revoke every token. */
import type { FastifyInstance } from 'fastify';
import { auditBy } from '../audit/index.ts';
import type { Accounts } from '../accounts/service.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { pageQueryProperties, pageSchema, type Paging } from '../paging/page.ts';
import { AUTH_METHODS, GRANT_TYPES, ID_TOKEN_ALGS, SUBJECT_TYPES, presentClient, type ClientMetadata, type Clients } from './clients.ts';
import { component } from '../platform/http/openapi-components.ts';
import type { SigningKeys } from './keys.ts';
import type { IdTokenAlg } from './client-metadata.ts';

const clientSchema = component('Client', {
  type: 'object',
  required: ['object', 'client_id', 'account_id', 'client_name', 'redirect_uris', 'grant_types', 'response_types', 'token_endpoint_auth_method', 'scope'],
  properties: {
    object: { type: 'string', const: 'client' },
    client_id: { type: 'string' },
    client_secret: { type: 'string', description: 'Shown only when generated' },
    client_secret_expires_at: { type: 'integer' },
    client_id_issued_at: { type: 'integer' },
    account_id: { type: 'string' },
    client_name: { type: 'string' },
    redirect_uris: { type: 'array', items: { type: 'string' } },
    grant_types: { type: 'array', items: { type: 'string' } },
    response_types: { type: 'array', items: { type: 'string' } },
    token_endpoint_auth_method: { type: 'string' },
    scope: { type: 'string' },
    jwks: { type: 'object', additionalProperties: true },
    jwks_uri: { type: 'string' },
    post_logout_redirect_uris: { type: 'array', items: { type: 'string' } },
    id_token_signed_response_alg: { type: 'string' },
    subject_type: { type: 'string' },
    backchannel_logout_uri: { type: 'string' },
    backchannel_logout_session_required: { type: 'boolean' },
    require_pkce: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const);

const tokenRevocationSchema = component('ClientTokenRevocation', {
  type: 'object',
  required: ['object', 'client_id', 'tokens_not_before', 'revoked'],
  properties: {
    object: { type: 'string', const: 'client_token_revocation' },
    client_id: { type: 'string' },
    tokens_not_before: { type: 'string', format: 'date-time', description: 'Tokens issued at or before this instant no longer work; the client-credentials tokens among them are counted nowhere, as none is stored' },
    revoked: {
      type: 'object',
      required: ['access_tokens', 'refresh_tokens', 'grants', 'codes'],
      description: 'The live stored tokens and grants revoked, and the authorization codes not yet redeemed, deleted',
      properties: { access_tokens: { type: 'integer' }, refresh_tokens: { type: 'integer' }, grants: { type: 'integer' }, codes: { type: 'integer' } },
    },
  },
} as const);

/** The account's routes name only the account; a client's name both. */
const accountParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const params = {
  type: 'object',
  required: ['id', 'clientId'],
  properties: { id: { type: 'string', maxLength: 64 }, clientId: { type: 'string', maxLength: 64 } },
} as const;

const metadataBody = component('ClientMetadata', {
  type: 'object',
  additionalProperties: false,
  properties: {
    client_name: { type: 'string', maxLength: 200 },
    redirect_uris: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 2000 } },
    grant_types: { type: 'array', maxItems: 3, items: { type: 'string', enum: [...GRANT_TYPES] } },
    response_types: { type: 'array', maxItems: 1, items: { type: 'string' } },
    token_endpoint_auth_method: { type: 'string', enum: [...AUTH_METHODS] },
    scope: { type: 'string', maxLength: 1000 },
    jwks: {
      type: 'object',
      required: ['keys'],
      properties: { keys: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'object' } } },
    },
    jwks_uri: { type: 'string', minLength: 1, maxLength: 2000 },
    post_logout_redirect_uris: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 2000 } },
    id_token_signed_response_alg: { type: 'string', enum: [...ID_TOKEN_ALGS] },
    subject_type: { type: 'string', enum: [...SUBJECT_TYPES] },
    backchannel_logout_uri: { type: 'string', minLength: 1, maxLength: 2000 },
    require_pkce: { type: 'boolean' },
  },
} as const);

/** A PATCH names at least one field, as an account's does: `{}` is a caller's mistake (a body built from nothing), told rather than answered 200. */
const metadataPatch = component('ClientMetadataPatch', { ...metadataBody, minProperties: 1 } as const);

export function registerClientRoutes(app: FastifyInstance, deps: { accounts: Accounts; clients: Clients; paging: Paging; keys: Pick<SigningKeys, 'prepare'> }): void {
  const { accounts, clients, paging, keys } = deps;
  /** A client's ID tokens are signed with a key the JWKS published when it was registered (keys.ts `prepare`). */
  const prepareIdTokenKey = (client: { id_token_signed_response_alg: IdTokenAlg }) => keys.prepare(client.id_token_signed_response_alg);
  type P = { Params: { id: string; clientId: string } };

  app.post<{ Params: { id: string }; Body: ClientMetadata }>(
    '/admin/v1/accounts/:id/clients',
    {
      schema: {
        tags: ['clients'],
        operationId: 'createClient',
        summary: 'Register an OAuth client (RFC 7591 metadata); a secret is shown once',
        params: accountParams,
        body: metadataBody,
        response: { 201: clientSchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request, reply) => {
      await accounts.require(request.params.id);
      const client = await clients.register(request.params.id, request.body, auditBy(request));
      await prepareIdTokenKey(client);
      reply.code(201).header('location', `/admin/v1/accounts/${request.params.id}/clients/${client.client_id}`).header('cache-control', 'no-store');
      return client;
    },
  );

  app.get<{ Params: { id: string }; Querystring: { limit?: number; after?: string } }>(
    '/admin/v1/accounts/:id/clients',
    {
      schema: {
        tags: ['clients'],
        operationId: 'listClients',
        summary: 'List the clients of an account, newest first, page by page (cursor)',
        params: accountParams,
        querystring: { type: 'object', additionalProperties: false, properties: pageQueryProperties },
        response: { 200: pageSchema(clientSchema, 'A page of clients'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return clients.list(paging, request.params.id, request.query);
    },
  );

  app.get<P>(
    '/admin/v1/accounts/:id/clients/:clientId',
    {
      schema: { tags: ['clients'], operationId: 'getClient', summary: 'Get a client', params, response: { 200: clientSchema, ...errorResponses(401, 404) } },
    },
    async (request) => presentClient(await clients.get(request.params.id, request.params.clientId)),
  );

  app.patch<P & { Body: ClientMetadata }>(
    '/admin/v1/accounts/:id/clients/:clientId',
    {
      schema: {
        tags: ['clients'],
        operationId: 'updateClient',
        summary: 'Update a client in place: the fields given replace the registered ones; a new secret is shown once when one is generated',
        params,
        body: metadataPatch,
        response: { 200: clientSchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request, reply) => {
      await accounts.require(request.params.id);
      reply.header('cache-control', 'no-store');
      const client = await clients.update(request.params.id, request.params.clientId, request.body, auditBy(request));
      await prepareIdTokenKey(client);
      return client;
    },
  );

  app.delete<P>(
    '/admin/v1/accounts/:id/clients/:clientId',
    {
      schema: {
        tags: ['clients'],
        operationId: 'deleteClient',
        summary: 'Delete a client and revoke every token it was issued',
        params,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await clients.remove(request.params.id, request.params.clientId, auditBy(request));
      reply.code(204).send();
    },
  );

  app.delete<P>(
    '/admin/v1/accounts/:id/clients/:clientId/tokens',
    {
      schema: {
        tags: ['clients'],
        operationId: 'revokeClientTokens',
        summary: 'Revoke every token the client holds: access and refresh tokens, grants; the client and its secret stay',
        params,
        response: { 200: tokenRevocationSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      await accounts.require(request.params.id);
      return clients.revokeTokens(request.params.id, request.params.clientId, auditBy(request));
    },
  );

  app.post<P>(
    '/admin/v1/accounts/:id/clients/:clientId/secret',
    {
      schema: {
        tags: ['clients'],
        operationId: 'rotateClientSecret',
        summary: 'Rotate the client secret; the new one is shown once, the old one stops working',
        params,
        response: { 200: clientSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return clients.rotateSecret(request.params.id, request.params.clientId, auditBy(request));
    },
  );
}
