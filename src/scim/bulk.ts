/**
 * Bulk (RFC 7644 §3.7): operations run in order, each on its own; `bulkId:<id>` references are
 * replaced by the id created earlier in the same request; after `failOnErrors` failures the
 * remaining operations are not attempted.
 *
 * A reference is a value of its own: a whole string of `data` ("value": "bulkId:qwerty", as
 * the RFC's examples give it), or a part of a path, the operation's or a PATCH operation's
 * (`/Groups/bulkId:ytrewq`, `members[value eq "bulkId:qwerty"]`). Text that only contains
 * `bulkId:` (a title, a password) is stored as sent.
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
  const failOnErrors = failOnErrorsOf(body.failOnErrors);
  refuseRepeatedBulkIds(operations);
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
      if (typeof raw.path !== 'string') throw invalidSyntax('operation path is required');
      const path = resolveRefsIn(raw.path, created);
      const data = resolveData(raw.data ?? null, created, method === 'PATCH');
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

function failOnErrorsOf(value: Json | undefined): number {
  if (value === undefined || value === null) return Infinity;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalidValue('failOnErrors must be an integer of at least 1');
  return value;
}

/** bulkIds name operations, so each names one: a repeated one would make its references ambiguous. */
function refuseRepeatedBulkIds(operations: Json[]): void {
  const seen = new Set<string>();
  for (const operation of operations) {
    const bulkId = isObject(operation) ? operation.bulkId : undefined;
    if (typeof bulkId !== 'string') continue;
    if (seen.has(bulkId)) throw invalidValue(`bulkId ${bulkId} names more than one operation`);
    seen.add(bulkId);
  }
}

function resolvedId(id: string, created: Map<string, string>): string {
  const resolved = created.get(id);
  if (!resolved) throw invalidValue(`bulkId ${id} does not name an operation that succeeded earlier in this request`);
  return resolved;
}

const WHOLE_REFERENCE = /^bulkId:([A-Za-z0-9._~-]+)$/;
const REFERENCE_IN_PATH = /bulkId:([A-Za-z0-9._~-]+)/g;

/** A path (the operation's, or a PATCH operation's): every reference in it. */
function resolveRefsIn(path: string, created: Map<string, string>): string {
  return path.replace(REFERENCE_IN_PATH, (_all, id: string) => resolvedId(id, created));
}

/** `data`: whole-value references, and, in a PATCH's Operations, references in their paths. */
function resolveData(data: Json, created: Map<string, string>, patch: boolean): Json {
  const resolved = resolveValues(data, created);
  if (!patch || !isObject(resolved)) return resolved;
  const operations = resolved.Operations ?? resolved.operations;
  if (!Array.isArray(operations)) return resolved;
  const withPaths = operations.map((op) => (isObject(op) && typeof op.path === 'string' ? { ...op, path: resolveRefsIn(op.path, created) } : op));
  return { ...resolved, [resolved.Operations !== undefined ? 'Operations' : 'operations']: withPaths };
}

function resolveValues(value: Json, created: Map<string, string>): Json {
  if (typeof value === 'string') {
    const reference = WHOLE_REFERENCE.exec(value);
    return reference ? resolvedId(reference[1]!, created) : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveValues(v, created));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValues(v, created)]));
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
