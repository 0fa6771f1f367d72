/**
 * Schema validation with two rule sets: query strings, path parameters and headers arrive as
 * text and are coerced to their declared types; JSON bodies are taken exactly as sent, so
 * `"100"` is not an amount and unknown members are refused where a schema says so.
 */
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

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

export function createValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...base, coerceTypes: false }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? exact : coercing;
    return ajv.compile(schema as object);
  };
}
