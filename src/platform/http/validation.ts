/**
 * Schema validation with two rule sets: query strings, path parameters and headers arrive as
 * text and are coerced to their declared types; JSON bodies are taken exactly as sent, so
 * `"100"` is not an amount and unknown members are refused where a schema says so.
 */
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { canonical } from './openapi-components.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const base: Options = {
  // Every problem at once, each with the schema it broke (for its description).
  allErrors: true,
  verbose: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
};

const mayBeAbsent = new WeakSet<object>();
/** The same schemas by content, as the API document carries them (openapi-document.ts). */
const mayBeAbsentByContent = new Set<string>();

/**
 * A body schema that a request may also meet by sending no body at all (an action whose members
 * are all optional): fastify validates an absent body as `null`, which no object schema accepts.
 * A JSON `null` reads the same, and says no more. Any other body is validated as usual.
 */
export function optionalBody<T extends object>(schema: T): T {
  mayBeAbsent.add(schema);
  mayBeAbsentByContent.add(canonical(schema));
  return schema;
}

/** Whether a body schema of the API document is one a request may leave out (`requestBody.required: false`). */
export function isOptionalBody(schema: unknown): boolean {
  return schema !== undefined && mayBeAbsentByContent.has(canonical(schema));
}

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...base, coerceTypes: false }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? exact : coercing;
    const validate = ajv.compile(schema as object);
    if (httpPart !== 'body') return decimalIntegersOnly(schema, validate);
    if (!mayBeAbsent.has(schema as object)) return validate;
    const absentOrValid = (body: unknown) => body === null || body === undefined || validate(body);
    // fastify reads the failures from the validator it was given.
    return Object.defineProperty(absentOrValid, 'errors', { get: () => validate.errors });
  };
}

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/**
 * Text that coercion would read as a number but a person would not write as a whole one:
 * `0x10`, `1e1`, `+5`, ` 1`. Ajv coerces with Number(), which takes them all; an integer in a
 * query, a path or a header is written in decimal digits, and anything else is refused as not
 * a whole number (for `limit`: 400 limit_out_of_range, as for any other bad limit).
 */
function decimalIntegersOnly(schema: unknown, validate: ValidateFunction): ValidateFunction {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  const integers = Object.entries(properties).filter(([, p]) => p.type === 'integer' || (Array.isArray(p.type) && p.type.includes('integer')));
  if (integers.length === 0) return validate;
  let refused: unknown[] | null = null;
  const checked = (data: unknown): boolean => {
    refused = null;
    const values = (data ?? {}) as Record<string, unknown>;
    const bad = integers.find(([name]) => typeof values[name] === 'string' && !DECIMAL_INTEGER.test(values[name] as string));
    if (bad) {
      const [name, property] = bad;
      refused = [{ instancePath: `/${name}`, schemaPath: `#/properties/${name}/type`, keyword: 'type', params: { type: 'integer' }, message: 'must be integer', schema: 'integer', parentSchema: property, data: values[name] }];
      return false;
    }
    return validate(data) as boolean;
  };
  // fastify reads the failures from the validator it was given.
  return Object.defineProperty(checked, 'errors', { get: () => refused ?? validate.errors }) as unknown as ValidateFunction;
}
