/**
 * Digests and comparisons for secrets. Secrets that Gatehouse generates (client secrets,
 * tokens, SCIM tokens) are high-entropy, so a SHA-256 digest is a sufficient stored form and
 * keeps verification off the slow path that password hashes need.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

// One-shot digests: every bearer request and every write digests something, and crypto.hash
// costs half of building a Hash object, updating and finishing it.

export function sha256(input: string | Buffer): Buffer {
  return hash('sha256', input, 'buffer');
}

export function sha256Hex(input: string | Buffer): string {
  return hash('sha256', input, 'hex');
}

export function sha256Base64Url(input: string | Buffer): string {
  return hash('sha256', input, 'base64url');
}

/** A random secret of `bytes` bytes, base64url encoded, optionally with a readable prefix. */
export function randomSecret(bytes = 32, prefix = ''): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/**
 * Constant-time string equality. Both sides are hashed first so that neither the content
 * nor the length of the expected value leaks through timing.
 */
export function safeEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digestBytes(given), digestBytes(expected));
}

/** Constant-time comparison of a presented secret with a stored SHA-256 hex digest. */
export function matchesDigest(given: string, storedHexDigest: string): boolean {
  const expected = Buffer.from(storedHexDigest, 'hex');
  const actual = digestBytes(given);
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}

/** The SHA-256 digest as bytes, by way of the one-shot hex digest (cheaper than a Buffer digest). */
function digestBytes(input: string): Buffer {
  return Buffer.from(hash('sha256', input, 'hex'), 'hex');
}
