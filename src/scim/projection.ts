/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5, §3.9): which attributes a response
 * carries. `id` and `schemas` are always returned; names are case-insensitive and may be
 * URN-qualified or name a sub-attribute (`name.givenName`); an extension's schema URN alone names
 * all of it.
 */
import { isObject, type JsonObject } from './coerce.ts';
import { invalidValue } from './errors.ts';
import { extensionOf, resolvePath, type ResolvedPath, type ResourceSchema } from './schema-catalog.ts';

export interface Projection {
  attributes: string[] | null;
  excluded: string[];
}

// Helpers of hot paths are module functions, not closures made per call: the service runs
// through tsx, which keeps function names by redefining `name` on every closure it creates.

function splitNames(value: string | undefined): string[] {
  return value ? value.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

/** The names of `list` resolved; an extension's schema URN alone stands for the whole extension. */
function resolveAll(schema: ResourceSchema, list: string[]): Array<ResolvedPath | { urn: string; def: null; sub: null }> {
  return list.map((p) => {
    const extension = extensionOf(schema, p);
    if (extension) return { urn: extension.urn, def: null, sub: null };
    const resolved = resolvePath(schema, p);
    if (!resolved) throw invalidValue(`unknown attribute ${p}`);
    return resolved;
  });
}

export function parseProjection(attributes: string | undefined, excluded: string | undefined): Projection {
  return { attributes: attributes ? splitNames(attributes) : null, excluded: splitNames(excluded) };
}

/** Whether the response needs `name` (top-level attribute) at all, to skip work (e.g. members). */
export function wants(schema: ResourceSchema, projection: Projection, name: string): boolean {
  const matchesName = (p: string) => resolvePath(schema, p)?.def.name === name;
  if (projection.attributes) return projection.attributes.some(matchesName);
  return !projection.excluded.some((p) => matchesName(p) && !p.includes('.'));
}

export function project(schema: ResourceSchema, resource: JsonObject, projection: Projection): JsonObject {
  if (projection.attributes) {
    const out: JsonObject = { schemas: resource.schemas!, id: resource.id! };
    for (const { urn, def, sub } of resolveAll(schema, projection.attributes)) {
      if (def === null) {
        if (resource[urn] !== undefined) out[urn] = resource[urn]!;
        continue;
      }
      const from = urn ? resource[urn] : resource;
      if (!isObject(from) || from[def.name] === undefined) continue;
      const into = urn ? ((out[urn] as JsonObject | undefined) ?? (out[urn] = {})) : out;
      if (!isObject(into)) continue;
      const value = from[def.name]!;
      if (!sub) into[def.name] = value;
      else if (Array.isArray(value)) into[def.name] = value.map((e) => (isObject(e) && e[sub.name] !== undefined ? { [sub.name]: e[sub.name]! } : {}));
      else if (isObject(value) && value[sub.name] !== undefined) into[def.name] = { ...(isObject(into[def.name]) ? (into[def.name] as JsonObject) : {}), [sub.name]: value[sub.name]! };
    }
    return out;
  }
  if (projection.excluded.length === 0) return resource;
  const out = structuredClone(resource);
  for (const { urn, def, sub } of resolveAll(schema, projection.excluded)) {
    if (def === null) {
      delete out[urn];
      continue;
    }
    if (def.returned === 'always') continue;
    const from = urn ? out[urn] : out;
    if (!isObject(from)) continue;
    if (!sub) delete from[def.name];
    else {
      const value = from[def.name];
      if (Array.isArray(value)) for (const e of value) if (isObject(e)) delete e[sub.name];
      if (isObject(value)) delete value[sub.name];
    }
  }
  return out;
}
