/** Examples built from a schema, for the bodies of the API documents that give none of their own. */

type Json = Record<string, unknown>;

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
