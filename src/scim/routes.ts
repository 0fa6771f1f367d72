/**
 * The SCIM 2.0 endpoint at /scim/v2 (RFC 7644): Users, Groups, Bulk and discovery. This is
 * HTTP only: status codes, ETag/If-Match, Location, media types (`application/scim+json` in
 * and out, plain JSON accepted), list parameters (pagination.ts). Rules live in users.ts and
 * groups.ts. A collection's path with a trailing slash is the collection (`/Users/` lists and
 * creates); a resource path needs a non-empty id, so an empty one never reaches a lookup.
 * The SCIM media type parser and the SCIM error format are registered in an encapsulated
 * scope, so no other route changes behaviour.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { jsonBody } from '../platform/http/json-body.ts';
import { OAUTH2_SCHEME, principalOf, protectedRoute, type RouteAccess } from '../platform/auth.ts';
import { auditBy } from '../audit/index.ts';
import type { JsonObject } from './coerce.ts';
import { SCIM_CONTENT_TYPE, invalidFilter, invalidValue, notFound, scimError, scimErrorResponses, serializeScimError } from './errors.ts';
import { LIST_RESPONSE, SEARCH_REQUEST, USER_SCHEMA, GROUP_SCHEMA, type ResourceSchema } from './schema-catalog.ts';
import { listOf, resourceTypes, schemas, serviceProviderConfig } from './discovery.ts';
import { countOf, startIndexOf } from './pagination.ts';
import { parseProjection, project, wants, type Projection } from './projection.ts';
import { runBulk } from './bulk.ts';
import { checkSchemas, noneMatchHits } from './users.ts';
import type { ScimUsers } from './users.ts';
import type { ScimGroups } from './groups.ts';
import { SCIM_TOKEN_SCHEME } from './tokens.ts';
import type { ListQuery } from './users-store.ts';

export interface ScimRouteDeps {
  users: ScimUsers;
  groups: ScimGroups;
  authenticate: (request: FastifyRequest) => Promise<void>;
  baseUrl: string;
  maxPayloadSize: number;
}

interface ListParams {
  filter?: string;
  /** Integers, checked and bounded by pagination.ts: text in a query string, a number in a body. */
  startIndex?: unknown;
  count?: unknown;
  sortBy?: string;
  sortOrder?: string;
  attributes?: string;
  excludedAttributes?: string;
}

const resource = { type: 'object', description: 'A SCIM resource (application/scim+json)', additionalProperties: true, properties: { schemas: { type: 'array', items: { type: 'string' } }, id: { type: 'string' } } } as const;
const listResponse = {
  type: 'object',
  description: 'SCIM ListResponse',
  additionalProperties: true,
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    totalResults: { type: 'integer' },
    itemsPerPage: { type: 'integer' },
    startIndex: { type: 'integer' },
    Resources: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
} as const;
const listQuery = {
  type: 'object',
  properties: {
    filter: { type: 'string', maxLength: 4096 },
    // Text, read by pagination.ts: schema coercion would take 0x10 or Infinity for integers.
    startIndex: { type: 'string', maxLength: 64, description: 'integer, 1-based; below 1 means 1' },
    count: { type: 'string', maxLength: 64, description: 'integer; negative means 0, above filter.maxResults means maxResults' },
    sortBy: { type: 'string', maxLength: 256 },
    sortOrder: { type: 'string', enum: ['ascending', 'descending'] },
    attributes: { type: 'string', maxLength: 2048 },
    excludedAttributes: { type: 'string', maxLength: 2048 },
  },
} as const;
const projectionQuery = { type: 'object', properties: { attributes: listQuery.properties.attributes, excludedAttributes: listQuery.properties.excludedAttributes } } as const;
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 128 } } } as const;
const anyBody = { type: 'object', additionalProperties: true } as const;

function toListQuery(params: ListParams): ListQuery {
  return {
    filter: params.filter?.trim() || undefined,
    sortBy: params.sortBy || undefined,
    descending: params.sortOrder === 'descending',
    startIndex: startIndexOf(params.startIndex),
    count: countOf(params.count),
  };
}

/**
 * A SearchRequest's members as the list's query parameters (RFC 7644 §3.4.3): each of the type
 * the RFC gives it, or refused; a member of another type is an error, never left out (a filter
 * left out would answer the whole collection).
 */
function searchQuery(body: JsonObject): ListParams {
  const text = (name: 'filter' | 'sortBy' | 'sortOrder'): string | undefined => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') {
      // The bound the same parameter has in a query string.
      const bound = name === 'filter' ? listQuery.properties.filter.maxLength : listQuery.properties.sortBy.maxLength;
      if (value.length > bound) throw invalidValue(`${name} is longer than ${bound} characters`);
      return value;
    }
    throw name === 'filter' ? invalidFilter('filter must be a string') : invalidValue(`${name} must be a string`);
  };
  const names = (name: 'attributes' | 'excludedAttributes'): string | undefined => {
    const value = body[name];
    if (value === undefined || typeof value === 'string') return value;
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',');
    throw invalidValue(`${name} must be an array of attribute names`);
  };
  const sortOrder = text('sortOrder');
  if (sortOrder !== undefined && sortOrder !== 'ascending' && sortOrder !== 'descending') throw invalidValue('sortOrder must be "ascending" or "descending"');
  return { filter: text('filter'), sortBy: text('sortBy'), sortOrder, startIndex: body.startIndex, count: body.count, attributes: names('attributes'), excludedAttributes: names('excludedAttributes') };
}

function listBody(schema: ResourceSchema, page: { resources: JsonObject[]; total: number }, query: ListQuery, projection: Projection) {
  return {
    schemas: [LIST_RESPONSE],
    totalResults: page.total,
    itemsPerPage: page.resources.length,
    startIndex: query.startIndex,
    Resources: page.resources.map((r) => project(schema, r, projection)),
  };
}

/**
 * Sends `shown` (the resource, or what `attributes`/`excludedAttributes` keep of it) with the
 * resource's own ETag and, on 201, its Location: a projection that leaves `meta` out still
 * names the version a later If-Match needs.
 */
function sendResource(reply: FastifyReply, status: number, resource: JsonObject, shown: JsonObject = resource): JsonObject {
  const meta = resource.meta as JsonObject | undefined;
  if (meta?.version) reply.header('etag', meta.version as string);
  if (status === 201 && meta?.location) reply.header('location', meta.location as string);
  reply.code(status).type(SCIM_CONTENT_TYPE);
  return shown;
}

export async function registerScimRoutes(app: FastifyInstance, deps: ScimRouteDeps): Promise<void> {
  app.errorFormats.register('scim', serializeScimError, { prefixes: ['/scim/'] });
  await app.register(async (scope) => {
    scope.addContentTypeParser(['application/scim+json'], { parseAs: 'buffer' }, jsonBody(scope.getDefaultJsonParser('error', 'error')));
    scope.addHook('onRequest', (_request, reply, done) => {
      reply.type(SCIM_CONTENT_TYPE);
      done();
    });
    // Every route in here answers SCIM's media type and reads it or plain JSON (RFC 7644 §3.1).
    scope.addHook('onRoute', (route) => {
      route.schema = { consumes: ['application/scim+json', 'application/json'], produces: ['application/scim+json'], ...route.schema };
    });
    const config = { errorFormat: 'scim' };
    // A SCIM token, or an OAuth 2.0 access token with the scope scim.
    const access: RouteAccess = { onRequest: deps.authenticate, security: [{ [SCIM_TOKEN_SCHEME]: [] }, { [OAUTH2_SCHEME]: ['scim'] }] };
    const errors = scimErrorResponses(400, 401, 403, 404, 409, 412, 413, 415);

    const kinds = [
      { path: 'Users', singular: 'User', collection: '/scim/v2/Users', search: '/scim/v2/Users/.search', item: '/scim/v2/Users/:id', tag: 'scim', schema: USER_SCHEMA, service: deps.users, name: 'user' },
      { path: 'Groups', singular: 'Group', collection: '/scim/v2/Groups', search: '/scim/v2/Groups/.search', item: '/scim/v2/Groups/:id', tag: 'scim', schema: GROUP_SCHEMA, service: deps.groups, name: 'group' },
    ] as const;

    for (const kind of kinds) {
      const list = async (accountId: string, params: ListParams) => {
        const query = toListQuery(params);
        const projection = parseProjection(params.attributes, params.excludedAttributes);
        const page =
          kind.path === 'Users'
            ? await deps.users.list(accountId, query)
            : await deps.groups.list(accountId, query, wants(GROUP_SCHEMA, projection, 'members'));
        return listBody(kind.schema, page, query, projection);
      };

      for (const { path, hide } of collectionPaths(kind.collection)) {
        scope.get<{ Querystring: ListParams }>(
          path,
          protectedRoute(access, { config, schema: { hide, tags: [kind.tag], operationId: `listScim${kind.path}`, summary: `List or filter ${kind.name}s`, querystring: listQuery, response: { 200: listResponse, ...errors } } }),
          async (request) => list(principalOf(request).accountId, request.query),
        );
      }

      scope.post<{ Body: JsonObject }>(
        kind.search,
        protectedRoute(access, { config, schema: { tags: [kind.tag], operationId: `searchScim${kind.path}`, summary: `Search ${kind.name}s (POST /.search)`, body: anyBody, response: { 200: listResponse, ...errors } } }),
        async (request, reply) => {
          const body = request.body;
          checkSchemas(body, SEARCH_REQUEST);
          reply.code(200);
          return list(principalOf(request).accountId, searchQuery(body));
        },
      );

      for (const { path, hide } of collectionPaths(kind.collection)) {
        scope.post<{ Body: JsonObject }>(
          path,
          protectedRoute(access, { config, schema: { hide, tags: [kind.tag], operationId: `createScim${kind.singular}`, summary: `Create a ${kind.name}`, body: anyBody, response: { 201: resource, ...errors } } }),
          async (request, reply) => sendResource(reply, 201, await kind.service.create(principalOf(request).accountId, request.body, auditBy(request))),
        );
      }

      scope.get<{ Params: { id: string }; Querystring: ListParams }>(
        kind.item,
        protectedRoute(access, { config, schema: { tags: [kind.tag], operationId: `getScim${kind.singular}`, summary: `Get a ${kind.name}`, params: idParams, querystring: projectionQuery, response: { 200: resource, 304: { type: 'null' }, ...errors } } }),
        async (request, reply) => {
          const projection = parseProjection(request.query.attributes, request.query.excludedAttributes);
          const accountId = principalOf(request).accountId;
          const found =
            kind.path === 'Users'
              ? await deps.users.get(accountId, request.params.id)
              : await deps.groups.get(accountId, request.params.id, wants(GROUP_SCHEMA, projection, 'members'));
          const version = (found.meta as JsonObject).version as string;
          if (noneMatchHits(request.headers['if-none-match'], version)) return reply.code(304).header('etag', version).send();
          return sendResource(reply, 200, found, project(kind.schema, found, projection));
        },
      );

      scope.put<{ Params: { id: string }; Body: JsonObject }>(
        kind.item,
        protectedRoute(access, { config, schema: { tags: [kind.tag], operationId: `replaceScim${kind.singular}`, summary: `Replace a ${kind.name}`, params: idParams, body: anyBody, response: { 200: resource, ...errors } } }),
        async (request, reply) =>
          sendResource(reply, 200, await kind.service.replace(principalOf(request).accountId, request.params.id, request.body, ifMatch(request), auditBy(request))),
      );

      scope.delete<{ Params: { id: string } }>(
        kind.item,
        protectedRoute(access, { config, schema: { tags: [kind.tag], operationId: `deleteScim${kind.singular}`, summary: `Delete a ${kind.name}`, params: idParams, response: { 204: { type: 'null' }, ...errors } } }),
        async (request, reply) => {
          await kind.service.delete(principalOf(request).accountId, request.params.id, ifMatch(request), auditBy(request));
          return reply.code(204).removeHeader('content-type').send();
        },
      );
    }

    scope.patch<{ Params: { id: string }; Body: JsonObject; Querystring: ListParams }>(
      '/scim/v2/Users/:id',
      protectedRoute(access, { config, schema: { tags: ['scim'], operationId: 'patchScimUser', summary: 'Patch a user (RFC 7644 §3.5.2); answers 200 with the user', params: idParams, querystring: projectionQuery, body: anyBody, response: { 200: resource, ...errors } } }),
      async (request, reply) => {
        const patched = await deps.users.patch(principalOf(request).accountId, request.params.id, request.body, ifMatch(request), auditBy(request));
        return sendResource(reply, 200, patched, project(USER_SCHEMA, patched, parseProjection(request.query.attributes, request.query.excludedAttributes)));
      },
    );

    scope.patch<{ Params: { id: string }; Body: JsonObject; Querystring: ListParams }>(
      '/scim/v2/Groups/:id',
      protectedRoute(access, {
        config,
        schema: {
          tags: ['scim'],
          operationId: 'patchScimGroup',
          summary: 'Patch a group (RFC 7644 §3.5.2); 204 unless attributes are asked for, so member changes never read the member list',
          params: idParams,
          querystring: projectionQuery,
          body: anyBody,
          response: { 200: resource, 204: { type: 'null' }, ...errors },
        },
      }),
      async (request, reply) => {
        const accountId = principalOf(request).accountId;
        const row = await deps.groups.patch(accountId, request.params.id, request.body, ifMatch(request), auditBy(request));
        const { attributes, excludedAttributes } = request.query;
        if (attributes === undefined && excludedAttributes === undefined) {
          return reply.code(204).header('etag', `W/"${row.version}"`).removeHeader('content-type').send();
        }
        const projection = parseProjection(attributes, excludedAttributes);
        const group = await deps.groups.get(accountId, row.id, wants(GROUP_SCHEMA, projection, 'members'));
        return sendResource(reply, 200, group, project(GROUP_SCHEMA, group, projection));
      },
    );

    scope.post<{ Body: JsonObject }>(
      '/scim/v2/Bulk',
      protectedRoute(access, { config, schema: { tags: ['scim'], operationId: 'scimBulk', summary: 'Bulk operations (RFC 7644 §3.7) with bulkId references and failOnErrors', body: anyBody, response: { 200: resource, ...errors } } }),
      async (request, reply) => {
        reply.code(200);
        return runBulk({ users: deps.users, groups: deps.groups, baseUrl: deps.baseUrl }, principalOf(request).accountId, request.body, request);
      },
    );

    const discovery = protectedRoute(access, { config, schema: { tags: ['scim'], response: { 200: resource, ...scimErrorResponses(401, 404) } } });
    scope.get('/scim/v2/ServiceProviderConfig', { ...discovery, schema: { ...discovery.schema, operationId: 'getScimServiceProviderConfig', summary: 'What this SCIM service supports' } }, async () =>
      serviceProviderConfig(deps.baseUrl, deps.maxPayloadSize),
    );
    for (const { path, hide } of collectionPaths('/scim/v2/ResourceTypes')) {
      scope.get(path, { ...discovery, schema: { ...discovery.schema, hide, operationId: 'listScimResourceTypes', summary: 'Resource types' } }, async () => listOf(resourceTypes(deps.baseUrl)));
    }
    scope.get<{ Params: { id: string } }>('/scim/v2/ResourceTypes/:id', { ...discovery, schema: { ...discovery.schema, operationId: 'getScimResourceType', summary: 'A resource type', params: idParams } }, async (request) => {
      const found = resourceTypes(deps.baseUrl).find((r) => r.id === request.params.id);
      if (!found) throw notFound('ResourceType', request.params.id);
      return found;
    });
    for (const { path, hide } of collectionPaths('/scim/v2/Schemas')) {
      scope.get(path, { ...discovery, schema: { ...discovery.schema, hide, operationId: 'listScimSchemas', summary: 'Schemas' } }, async () => listOf(schemas(deps.baseUrl)));
    }
    scope.get<{ Params: { id: string } }>('/scim/v2/Schemas/:id', { ...discovery, schema: { ...discovery.schema, operationId: 'getScimSchema', summary: 'A schema', params: idParams } }, async (request) => {
      const found = schemas(deps.baseUrl).find((s) => s.id === request.params.id);
      if (!found) throw notFound('Schema', request.params.id);
      return found;
    });

    // RFC 7644 §3.11: an alias for the authenticated subject's own resource, which a SCIM token (a
    // directory, not a person) does not have: 501, as the RFC asks of a provider without it.
    scope.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE', 'POST'],
      url: '/scim/v2/Me',
      // Not in the API document: it describes what is offered, and ServiceProviderConfig says the rest.
      ...protectedRoute(access, { config, schema: { hide: true, response: scimErrorResponses(401, 501) } }),
      handler: async () => {
        throw scimError(501, null, '/Me is not supported: a SCIM token stands for a directory, not a person');
      },
    });
  });
}

/**
 * A collection's path and the same with a trailing slash (the router keeps the slash), so a
 * client that builds `…/Users/` plus a query reaches the list, not a resource with an empty id.
 * The documentation shows the first only.
 */
function collectionPaths(path: string): Array<{ path: string; hide: boolean }> {
  return [
    { path, hide: false },
    { path: `${path}/`, hide: true },
  ];
}

function ifMatch(request: FastifyRequest): string | undefined {
  const value = request.headers['if-match'];
  return typeof value === 'string' ? value : undefined;
}
