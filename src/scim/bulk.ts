/**
 * Bulk (RFC 7644 §3.7): operations run in order, each on its own; `bulkId:<id>` references
 * in paths and data are replaced by the id created earlier in the same request; after
 * `failOnErrors` failures the remaining operations are not attempted.
 */
import type { FastifyRequest } from 'fastify';
import { isHttpError } from '../platform/errors/http-error.ts';
import { isObject, type Json, type JsonObject } from './coerce.ts';
import { invalidSyntax, invalidValue, scimError, serializeScimError } from './errors.ts';
import { BULK_REQUEST, BULK_RESPONSE } from './schema-catalog.ts';
import { MAX_BULK_OPERATIONS } from './discovery.ts';
import type { ScimUsers } from './users.ts';
import { auditBy, type AuditBy } from '../audit/index.ts';
import type { ScimGroups } from './groups.ts';
import { checkSchemas } from './users.ts';

interface BulkResult {
  method: string;
  bulkId?: string;
  version?: string;
  location?: string;
  status: string;
  response?: unknown;
}

export async function runBulk(
  deps: { users: ScimUsers; groups: ScimGroups; baseUrl: string },
  accountId: string,
  body: JsonObject,
  request: FastifyRequest,
): Promise<JsonObject> {
  checkSchemas(body, BULK_REQUEST);
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations)) throw invalidSyntax('Operations must be an array');
  if (operations.length > MAX_BULK_OPERATIONS) throw scimError(413, null, `a bulk request holds at most ${MAX_BULK_OPERATIONS} operations`);
  const failOnErrors = typeof body.failOnErrors === 'number' && body.failOnErrors > 0 ? body.failOnErrors : Infinity;
  const created = new Map<string, string>();
  const by = auditBy(request);
  const results: BulkResult[] = [];
  let errors = 0;
  for (const raw of operations) {
    if (errors >= failOnErrors) break;
    const method = isObject(raw) && typeof raw.method === 'string' ? raw.method.toUpperCase() : '';
    const bulkId = isObject(raw) && typeof raw.bulkId === 'string' ? raw.bulkId : undefined;
    try {
      if (!isObject(raw)) throw invalidSyntax('each operation must be an object');
      const path = resolveRefs(raw.path, created);
      if (typeof path !== 'string') throw invalidSyntax('operation path is required');
      const data = resolveRefs(raw.data ?? null, created);
      const ifMatch = typeof raw.version === 'string' ? raw.version : undefined;
      const outcome = await dispatch(deps, accountId, method, path, data, ifMatch, bulkId, by);
      if (bulkId && outcome.id) created.set(bulkId, outcome.id);
      results.push({ method, ...(bulkId ? { bulkId } : {}), ...outcome.result });
    } catch (error) {
      if (!isHttpError(error)) throw error;
      errors += 1;
      const out = serializeScimError(error, request);
      results.push({ method, ...(bulkId ? { bulkId } : {}), status: String(out.status), response: out.body });
    }
  }
  return { schemas: [BULK_RESPONSE], Operations: results as unknown as Json[] };
}

function resolveRefs(value: Json | undefined, created: Map<string, string>): Json | undefined {
  if (typeof value === 'string') {
    return value.replace(/bulkId:([A-Za-z0-9._~-]+)/g, (_all, id: string) => {
      const resolved = created.get(id);
      if (!resolved) throw invalidValue(`bulkId ${id} does not name an operation that succeeded earlier in this request`);
      return resolved;
    });
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, created) as Json);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, created) as Json]));
  return value;
}

async function dispatch(
  deps: { users: ScimUsers; groups: ScimGroups; baseUrl: string },
  accountId: string,
  method: string,
  path: string,
  data: Json | undefined,
  ifMatch: string | undefined,
  bulkId: string | undefined,
  by: AuditBy,
): Promise<{ id?: string; result: Omit<BulkResult, 'method' | 'bulkId'> }> {
  const match = /^\/(Users|Groups)(?:\/([^/]+))?$/.exec(path);
  if (!match) throw scimError(400, 'invalidPath', `unsupported bulk path ${path}`);
  const [, type, id] = match as unknown as [string, 'Users' | 'Groups', string | undefined];
  const body = isObject(data) ? data : undefined;
  const done = (resource: JsonObject, status: number) => {
    const meta = resource.meta as JsonObject;
    return { id: resource.id as string, result: { location: meta.location as string, version: meta.version as string, status: String(status) } };
  };
  if (method === 'POST' && !id) {
    if (!body) throw invalidSyntax('POST needs data');
    if (!bulkId) throw invalidSyntax('POST in a bulk request needs a bulkId');
    return done(type === 'Users' ? await deps.users.create(accountId, body, by) : await deps.groups.create(accountId, body, by), 201);
  }
  if (!id) throw scimError(400, 'invalidPath', `${method} needs a resource path such as /${type}/{id}`);
  const location = `${deps.baseUrl}/${type}/${id}`;
  switch (method) {
    case 'PUT':
      if (!body) throw invalidSyntax('PUT needs data');
      return done(type === 'Users' ? await deps.users.replace(accountId, id, body, ifMatch, by) : await deps.groups.replace(accountId, id, body, ifMatch, by), 200);
    case 'PATCH':
      if (!body) throw invalidSyntax('PATCH needs data');
      if (type === 'Users') return done(await deps.users.patch(accountId, id, body, ifMatch, by), 200);
      await deps.groups.patch(accountId, id, body, ifMatch, by);
      return { result: { location, status: '204' } };
    case 'DELETE':
      await (type === 'Users' ? deps.users.delete(accountId, id, ifMatch, by) : deps.groups.delete(accountId, id, ifMatch, by));
      return { result: { location, status: '204' } };
  }
  throw invalidSyntax(`unsupported bulk method ${method}`);
}
