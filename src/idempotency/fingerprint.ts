/**
 * What makes two requests "the same request" for an Idempotency-Key: the method, the route
 * pattern, its path parameters, the query and the parsed JSON body, written as canonical
 * JSON (object members sorted, no insignificant whitespace) so that key order, spacing and
 * number spelling (`1.0` vs `1`) do not matter while any changed value does.
 *
 * What is stored is an HMAC of that text under a key derived from the secrets key, never the
 * request. An unkeyed digest would not do: the audit record of a write holds most of its body,
 * so a copy of the database would let a low-entropy value it leaves out (a receiver's password
 * in a webhook endpoint's headers) be guessed offline against the digest.
 */
import type { FastifyRequest } from 'fastify';
import { createHmac, createSecretKey, hkdfSync } from 'node:crypto';
import { sha256Hex } from '../platform/crypto.ts';
import { decodedRequestPath } from '../platform/http/request-path.ts';

/** RFC 8785-style canonical JSON for values that came from JSON.parse. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const members = Object.keys(value)
    .filter((name) => (value as Record<string, unknown>)[name] !== undefined)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${canonicalJson((value as Record<string, unknown>)[name])}`);
  return `{${members.join(',')}}`;
}

/**
 * The body as the request means it: an empty object is no body. Actions that take none (settle,
 * enable, rotate_secret…) accept both, and a client library that adds `{}` on its retry asks the
 * same thing as the first try that sent nothing.
 */
function bodyOf(body: unknown): unknown {
  if (body === undefined || body === null) return null;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0 ? null : body;
}

/** A request's fingerprint: the keyed digest that is stored, and the canonical text it was taken of. */
export interface RequestFingerprint {
  value: string;
  canonical: string;
}

/** The fingerprint key: a purpose of its own under the secrets key. */
export function fingerprintKeyOf(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'gatehouse request fingerprint', 32));
}

export function requestFingerprints(key: Buffer) {
  const hmacKey = createSecretKey(key);
  /** `route`: the request's route options, when the caller has them already (fastify builds them on each read). */
  return (request: FastifyRequest, route: { url?: string } = request.routeOptions): RequestFingerprint => {
    const canonical = canonicalJson([
      request.method,
      // The route as declared, so that every spelling of one request target is the same request.
      route.url ?? decodedRequestPath(request),
      request.params ?? {},
      request.query ?? {},
      bodyOf(request.body),
    ]);
    return { value: createHmac('sha256', hmacKey).update(canonical).digest('hex'), canonical };
  };
}

/**
 * Whether a stored fingerprint is this request's. Keys stored by versions of Gatehouse that kept
 * the unkeyed SHA-256 of the same text stay good for their retention: a retry that spans an
 * upgrade is still answered with the stored response, never performed a second time.
 */
export function isFingerprintOf(stored: string, fingerprint: RequestFingerprint): boolean {
  return stored === fingerprint.value || stored === sha256Hex(fingerprint.canonical);
}
