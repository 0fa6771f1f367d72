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
import { exampleOf } from './openapi-examples.ts';
import { isOptionalBody } from './validation.ts';

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
      const body = operation.requestBody as { required?: boolean; content?: Record<string, MediaType> } | undefined;
      // @fastify/swagger marks every body required; an action's optional one is not (validation.ts).
      if (body && Object.values(body.content ?? {}).some((media) => isOptionalBody(media.schema))) body.required = false;
      for (const media of Object.values(body?.content ?? {})) finishMedia(media, refs);
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
        if (response.$ref !== undefined) continue; // a shared answer, finished below
        if (response.description === 'Default Response' || response.description === undefined) response.description = STATUS_TEXT[status] ?? 'Answer';
        for (const media of Object.values((response.content ?? {}) as Record<string, MediaType>)) finishMedia(media, refs);
        for (const header of Object.values((response.headers ?? {}) as Record<string, Json>)) {
          if (header.schema) header.schema = refs(header.schema as Json);
        }
      }
    }
  }

  for (const response of Object.values(((document.components as Json | undefined)?.responses ?? {}) as Record<string, Json>)) {
    for (const media of Object.values((response.content ?? {}) as Record<string, MediaType>)) finishMedia(media, refs);
    for (const header of Object.values((response.headers ?? {}) as Record<string, Json>)) {
      if (header.schema) header.schema = refs(header.schema as Json);
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

/**
 * An error body built from its schema, made to say the status it is the example of (an integer in
 * problem details, a string in SCIM errors, with the SCIM Error schema URN); the per-member `errors`
 * list only on a 400, the one status that carries it.
 */
const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

function answered(example: unknown, status: string | undefined): unknown {
  if (status === undefined || !/^[45]\d\d$/.test(status) || !example || typeof example !== 'object' || !('status' in example)) return example;
  const { errors, ...rest } = example as Json;
  const scim = typeof rest.status === 'string';
  const said = scim ? { ...rest, ...(Array.isArray(rest.schemas) ? { schemas: [SCIM_ERROR] } : {}), status } : { ...rest, status: Number(status) };
  return status === '400' && errors !== undefined ? { ...said, errors } : said;
}

/** An example on every body that has none: the schema's own, or one built from the schema. */
function addExamples(document: Json, components: Record<string, unknown>): void {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const fill = (content: unknown, status?: string) => {
    for (const media of Object.values((content ?? {}) as Record<string, MediaType>)) {
      if (media.schema && media.example === undefined && media.examples === undefined) media.example = answered(exampleOf(media.schema, components, 0), status);
    }
  };
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      fill((operation.requestBody as Json | undefined)?.content);
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) fill(response.content, status);
    }
  }
  for (const response of Object.values(((document.components as Json | undefined)?.responses ?? {}) as Record<string, Json>)) fill(response.content);
}
