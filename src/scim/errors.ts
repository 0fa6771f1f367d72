/**
 * SCIM errors (RFC 7644 §3.12): every failure under /scim/ is a JSON body with the Error
 * schema, `status` as a string and, for 400s and 409s, a `scimType` from the RFC's table.
 * Errors thrown by the platform (bad JSON, body too large, validation) are mapped here too,
 * so an identity provider never sees problem+json.
 */
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../platform/errors/http-error.ts';
import type { SerializedError } from '../platform/errors/error-formats.ts';
import { component } from '../platform/http/openapi-components.ts';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

/** RFC 7644 §3.12 table 9. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export function scimError(status: number, scimType: ScimType | null, detail: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, scimType ? `scim_${scimType}` : `scim_${status}`, detail, {
    detail,
    headers,
    extensions: scimType ? { scimType } : {},
  });
}

export const invalidFilter = (detail: string) => scimError(400, 'invalidFilter', detail);
export const invalidPath = (detail: string) => scimError(400, 'invalidPath', detail);
export const invalidValue = (detail: string) => scimError(400, 'invalidValue', detail);
export const invalidSyntax = (detail: string) => scimError(400, 'invalidSyntax', detail);
export const noTarget = (detail: string) => scimError(400, 'noTarget', detail);
export const mutability = (detail: string) => scimError(400, 'mutability', detail);
export const uniqueness = (detail: string) => scimError(409, 'uniqueness', detail);
export const notFound = (what: string, id: string) => scimError(404, null, `${what} ${id} not found`);
export const preconditionFailed = () => scimError(412, null, 'The resource has changed: its version no longer matches If-Match');

/** The challenge of SCIM's bearer credentials (RFC 6750 §3). */
export const SCIM_CHALLENGE = 'Bearer realm="scim"';

/**
 * A bearer credential that is not, or no longer, valid: unknown, expired or revoked, or one whose
 * account was closed while its request was on its way (platform/db/failures.ts).
 */
export const invalidCredential = () => scimError(401, null, 'The bearer token is invalid, expired or revoked', { 'www-authenticate': `${SCIM_CHALLENGE}, error="invalid_token"` });

/** Platform codes that a SCIM client must see as a 400 with a scimType. */
const SCIM_TYPE_OF_PLATFORM_CODE: Record<string, ScimType> = {
  validation_failed: 'invalidValue',
  malformed_json: 'invalidSyntax',
  malformed_request: 'invalidSyntax',
};

export function serializeScimError(error: HttpError, _request: FastifyRequest): SerializedError {
  const scimType = (error.extensions.scimType as ScimType | undefined) ?? SCIM_TYPE_OF_PLATFORM_CODE[error.code];
  const body: Record<string, unknown> = { schemas: [SCIM_ERROR_SCHEMA], status: String(error.status) };
  if (scimType && (error.status === 400 || error.status === 409)) body.scimType = scimType;
  body.detail = error.detail ?? error.title;
  return { status: error.status, contentType: SCIM_CONTENT_TYPE, headers: error.headers, body };
}

export const scimErrorSchema = component('ScimError', {
  type: 'object',
  description: 'RFC 7644 §3.12 SCIM Error',
  required: ['schemas', 'status'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    status: { type: 'string' },
    scimType: { type: 'string' },
    detail: { type: 'string' },
  },
} as const);

export function scimErrorResponses(...statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((s) => [s, { description: `SCIM Error (${s})`, content: { 'application/scim+json': { schema: scimErrorSchema } } }]),
  );
}
