/**
 * Digests and comparisons for secrets. Secrets that Gatehouse generates (client secrets,
 * tokens, SCIM tokens) are high-entropy, so a SHA-256 digest is a sufficient stored form and
 * keeps verification off the slow path that password hashes need.
 */
import { hash, randomBytes } from 'node:crypto';

// One-shot `hash` returning text: several times cheaper than a Hash object, and than a Buffer
// digest, for the short inputs hashed on every request (tokens, secrets).

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
 * Equality of two strings in time that depends only on their length: every character pair is
 * compared, with no early exit. Used on digests, whose length is fixed and public.
 */
export function sameLengthEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Constant-time string equality. Both sides are hashed first so that neither the content
 * nor the length of the expected value leaks through timing.
 */
export function safeEqual(given: string, expected: string): boolean {
  return sameLengthEqual(hash('sha256', given, 'base64'), hash('sha256', expected, 'base64'));
}

/** Constant-time comparison of a presented secret with a stored SHA-256 hex digest. */
export function matchesDigest(given: string, storedHexDigest: string): boolean {
  return sameLengthEqual(sha256Hex(given), storedHexDigest.toLowerCase());
}
