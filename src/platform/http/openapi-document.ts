/**
 * Finishes the document @fastify/swagger generates from the route schemas, so that it reads
 * as a reference and generates clients: named schemas become `components/schemas` with `$ref`s,
 * every request and response body carries an example, every operation states its security
 * (an empty list for the open ones), answers get a description that says what they are, and
 * every operation lists the answers the server gives itself (openapi-answers.ts).
 * It only rewrites the document: validation and serialization keep the routes' own schemas.
 */
import { canonical, namedSchemas } from './openapi-components.ts';
import { addServerAnswers } from './openapi-answers.ts';

type Json = Record<string, unknown>;
interface MediaType {
  schema?: Json;
  example?: unknown;
  examples?: unknown;
}

const STATUS_TEXT: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No content',
  302: 'Found: a redirect',
  303: 'See other: a redirect',
  304: 'Not modified (the If-None-Match version is current)',
};

export function finishDocument(document: Json, answeredStatus?: (path: string, status: number) => number): Json {
  addServerAnswers(document, answeredStatus);
  const named = namedSchemas();
  const used = new Map<string, object>();
  const nameOf = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return undefined;
    const found = named.get(canonical(schema));
    if (found) used.set(found.name, found.schema);
    return found?.name;
  };
  const refs = (schema: Json): Json => referTo(schema, nameOf);

  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      operation.security ??= [];
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (parameter.schema) parameter.schema = refs(parameter.schema as Json);
      }
      const body = operation.requestBody as { content?: Record<string, MediaType> } | undefined;
      for (const media of Object.values(body?.content ?? {})) finishMedia(media, refs);
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        if (response.description === 'Default Response' || response.description === undefined) response.description = STATUS_TEXT[status] ?? 'Answer';
        for (const media of Object.values((response.content ?? {}) as Record<string, MediaType>)) finishMedia(media, refs);
        for (const header of Object.values((response.headers ?? {}) as Record<string, Json>)) {
          if (header.schema) header.schema = refs(header.schema as Json);
        }
      }
    }
  }

  // Named schemas may name others (a page names its rows); each is written once, referred to.
  const schemas: Record<string, unknown> = {};
  for (let pending = [...used.entries()]; pending.length > 0; ) {
    const [name, schema] = pending.shift()!;
    if (name in schemas) continue;
    schemas[name] = referTo(schema as Json, (s) => (s === schema ? undefined : nameOf(s)));
    for (const entry of used.entries()) if (!(entry[0] in schemas)) pending.push(entry);
  }
  const components = (document.components ?? {}) as Json;
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  document.components = { ...components, schemas: { ...(components.schemas as Json | undefined), ...sorted } };
  addExamples(document, schemas);
  return document;
}

function finishMedia(media: MediaType, refs: (schema: Json) => Json): void {
  if (media.schema) media.schema = refs(media.schema);
}

const SUBSCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'propertyNames'] as const;
const SUBSCHEMA_LISTS = ['oneOf', 'anyOf', 'allOf', 'prefixItems'] as const;

/** The schema with every named part (itself included) replaced by a `$ref`. */
function referTo(schema: Json, nameOf: (schema: unknown) => string | undefined): Json {
  const name = nameOf(schema);
  if (name) return { $ref: `#/components/schemas/${name}` };
  const out: Json = { ...schema };
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Json>).map(([k, v]) => [k, referTo(v, nameOf)]));
  }
  for (const key of SUBSCHEMA_KEYS) {
    const sub = schema[key];
    if (sub && typeof sub === 'object' && !Array.isArray(sub)) out[key] = referTo(sub as Json, nameOf);
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) out[key] = list.map((s: Json) => referTo(s, nameOf));
  }
  return out;
}

/** An example on every body that has none: the schema's own, or one built from the schema. */
function addExamples(document: Json, components: Record<string, unknown>): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const fill = (content: unknown) => {
    for (const media of Object.values((content ?? {}) as Record<string, MediaType>)) {
      if (media.schema && media.example === undefined && media.examples === undefined) media.example = exampleOf(media.schema, components, 0);
    }
  };
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      fill((operation.requestBody as Json | undefined)?.content);
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) fill(response.content);
    }
  }
}

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2026-03-14T09:26:53.000Z',
  date: '2026-03-14',
  uri: 'https://merchant.example.org/hooks/gatehouse',
  email: 'ada@example.org',
  uuid: '3f2c5d0e-8a1b-4c7d-9e6f-1a2b3c4d5e6f',
};

/** A value the schema accepts, as a reader would expect to see it. */
export function exampleOf(schema: Json, components: Record<string, unknown>, depth: number): unknown {
  if (typeof schema.$ref === 'string') {
    const target = components[schema.$ref.replace('#/components/schemas/', '')] as Json | undefined;
    return target && depth < 8 ? exampleOf(target, components, depth + 1) : {};
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) return exampleOf((schema[key] as Json[])[0]!, components, depth + 1);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? types[0] ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth < 8) {
        // Required members first, then the others while maxProperties allows.
        const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
        const members = Object.entries((schema.properties ?? {}) as Record<string, Json>).sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
        const most = typeof schema.maxProperties === 'number' ? schema.maxProperties : Infinity;
        for (const [name, sub] of members.slice(0, most)) out[name] = exampleOf(sub, components, depth + 1);
      }
      return out;
    }
    case 'array': {
      const items = schema.items as Json | undefined;
      return items && depth < 8 ? [exampleOf(items, components, depth + 1)] : [];
    }
    case 'string': {
      if (typeof schema.format === 'string' && FORMAT_EXAMPLES[schema.format]) return FORMAT_EXAMPLES[schema.format];
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return 'string'.padEnd(min, 's');
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}
