/**
 * Named schemas of the API documents. A schema module names what it exports with
 * `component('Invoice', schema)`; the document generator then writes each named schema once
 * under `components/schemas` and refers to it (`$ref`) wherever routes use it, in requests and
 * responses alike. Routes keep using the plain objects for validation and serialization.
 */

const NAMED = new Map<string, object>();

/** Names `schema` for the API documents and returns it unchanged. */
export function component<T extends object>(name: string, schema: T): T {
  const known = NAMED.get(name);
  if (known !== undefined && known !== schema) throw new Error(`two schemas are named ${name}`);
  NAMED.set(name, schema);
  return schema;
}

/** The named schemas, by the canonical text of each, to find them in a generated document. */
export function namedSchemas(): Map<string, { name: string; schema: object }> {
  const byText = new Map<string, { name: string; schema: object }>();
  for (const [name, schema] of NAMED) byText.set(canonical(schema), { name, schema });
  return byText;
}

/**
 * JSON text with object keys sorted, so equal schemas give equal text whatever their key order.
 * `const` and `examples` are read as @fastify/swagger writes them (`enum` of one, `example`).
 */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const entries = Object.entries(v as Record<string, unknown>).flatMap(([k, x]): Array<[string, unknown]> => {
      if (k === 'const') return [['enum', [x]]];
      if (k === 'examples' && Array.isArray(x)) return x.length > 0 ? [['example', x[0]]] : [];
      return [[k, x]];
    });
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}
