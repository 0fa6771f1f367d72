/**
 * The Idempotency-Key request header (IETF draft-ietf-httpapi-idempotency-key-header): a
 * string the client generates once per logical operation and repeats on every retry of it.
 * Gatehouse requires it on every POST under /v1 and accepts 1-255 printable ASCII characters
 * (U+0020-U+007E), sent once.
 */
import type { FastifyRequest } from 'fastify';
import { problem } from '../platform/errors/catalogue.ts';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const MAX_KEY_LENGTH = 255;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** The key of the request, or the 400 that says why there is none. */
export function readIdempotencyKey(request: FastifyRequest): string {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) {
    throw problem('idempotency_key_missing', {
      detail: 'Send an Idempotency-Key header: a random value you generate per operation and repeat on every retry of it',
    });
  }
  if (typeof value !== 'string' || sentMoreThanOnce(request)) {
    throw problem('idempotency_key_invalid', { detail: 'Send exactly one Idempotency-Key header' });
  }
  if (value.length === 0 || value.length > MAX_KEY_LENGTH || !PRINTABLE_ASCII.test(value)) {
    throw problem('idempotency_key_invalid', {
      detail: `Idempotency-Key must be 1-${MAX_KEY_LENGTH} printable ASCII characters`,
    });
  }
  return value;
}

/** Node joins repeated unknown headers with ", ", which would silently make a new valid key. */
function sentMoreThanOnce(request: FastifyRequest): boolean {
  const raw = request.raw.rawHeaders;
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === IDEMPOTENCY_KEY_HEADER.length && raw[i]!.toLowerCase() === IDEMPOTENCY_KEY_HEADER) seen++;
  }
  return seen > 1;
}
