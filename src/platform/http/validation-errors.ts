/**
 * Schema validation failures as people read them: every problem at once, each with where it is
 * (a JSON Pointer, RFC 6901, into the part of the request named by `in`) and what to do about it,
 * for the `errors` member of a problem+json body (RFC 9457 §3.2, extension members).
 */

export interface SchemaError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
  parentSchema?: { description?: string };
}

export interface InvalidMember {
  /** Where, inside `in`: `#/amount`, `#/metadata/k`, `#/limit`. */
  pointer: string;
  in: 'body' | 'query' | 'path' | 'header';
  detail: string;
}

const PART: Record<string, InvalidMember['in']> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

const escapeToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

export function invalidMembers(part: string | undefined, errors: readonly SchemaError[]): InvalidMember[] {
  const where = PART[part ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const out: InvalidMember[] = [];
  for (const error of errors) {
    const params = error.params ?? {};
    const member = typeof params.missingProperty === 'string' ? params.missingProperty : typeof params.additionalProperty === 'string' ? params.additionalProperty : undefined;
    const pointer = `#${error.instancePath ?? ''}${member === undefined ? '' : `/${escapeToken(member)}`}`;
    // One sentence per member: an empty string breaks both minLength and pattern, say the first.
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const detail = `${nameOf(pointer, where)} ${explain(error)}`;
    out.push({ pointer, in: where, detail });
  }
  return out;
}

/** The problem's detail: every invalid member's sentence, in order. */
export function summary(members: readonly InvalidMember[]): string {
  if (members.length === 0) return 'The request is invalid';
  return members.map((m) => m.detail).join('; ');
}

function nameOf(pointer: string, where: InvalidMember['in']): string {
  const path = pointer.slice(2).split('/').filter(Boolean).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (path.length === 0) return where === 'body' ? 'The body' : `The ${where}`;
  return path.map((t, i) => (/^\d+$/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`)).join('');
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a JSON array',
  null: 'null',
};

const FORMAT_HINTS: Record<string, string> = {
  'date-time': 'an RFC 3339 date-time, e.g. 2026-03-14T09:26:53Z',
  date: 'a date, e.g. 2026-03-14',
  uri: 'an absolute URI',
  email: 'an email address',
  uuid: 'a UUID',
};

function explain(error: SchemaError): string {
  const p = error.params ?? {};
  const hint = error.parentSchema?.description ? ` (${error.parentSchema.description})` : '';
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a member of this object; remove it';
    case 'type': {
      const types = String(p.type ?? '').split(',').map((t) => TYPE_NAMES[t] ?? t);
      return `must be ${types.join(' or ')}`;
    }
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long`;
    case 'minItems':
      return `must have at least ${String(p.limit)} item${p.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} items`;
    case 'minProperties':
      return p.limit === 1 ? 'must name at least one member' : `must have at least ${String(p.limit)} members`;
    case 'maxProperties':
      return `must have at most ${String(p.limit)} members`;
    case 'enum': {
      const allowed = Array.isArray(p.allowedValues) ? p.allowedValues : [];
      // A long list (currencies) helps less than the schema's own words.
      if (allowed.length > 12 && hint) return `is not an accepted value${hint}`;
      return `must be one of ${allowed.map(String).join(', ')}`;
    }
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'format':
      return `must be ${FORMAT_HINTS[String(p.format)] ?? `in the format ${String(p.format)}`}`;
    case 'pattern':
      return `has a form that is not accepted${hint || ` (pattern ${String(p.pattern)})`}`;
    default:
      return error.message ?? 'is invalid';
  }
}
