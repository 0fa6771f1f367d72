/**
 * RFC 9457 serializer: `application/problem+json` with `type`, `title`, `status`, `detail`,
 * `instance`, plus the stable `code` member. `type` points at the code's entry in the
 * service's own error documentation (/docs/errors).
 */
import type { HttpError } from './http-error.ts';
import type { SerializedError } from './error-formats.ts';

export function serializeProblem(error: HttpError, context: { issuer: string; instance?: string }): SerializedError {
  const body: Record<string, unknown> = {
    type: `${context.issuer}/docs/errors#error-${error.code}`,
    title: error.title,
    status: error.status,
    code: error.code,
  };
  if (error.detail !== undefined) body.detail = error.detail;
  if (context.instance !== undefined) body.instance = context.instance;
  for (const [name, value] of Object.entries(error.extensions)) {
    if (!(name in body)) body[name] = value;
  }
  return { status: error.status, contentType: 'application/problem+json; charset=utf-8', headers: error.headers, body };
}
