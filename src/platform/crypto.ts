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

/** A key of HMAC-SHA256 as `hmacSha256` takes it: its two padded blocks, made once. */
export interface HmacSha256Key {
  readonly inner: Buffer;
  readonly outer: Buffer;
}

const SHA256_BLOCK_BYTES = 64;

export function hmacSha256Key(key: Buffer): HmacSha256Key {
  const block = key.length > SHA256_BLOCK_BYTES ? sha256(key) : key;
  const inner = Buffer.alloc(SHA256_BLOCK_BYTES, 0x36);
  const outer = Buffer.alloc(SHA256_BLOCK_BYTES, 0x5c);
  for (let i = 0; i < block.length; i++) {
    inner[i] = inner[i]! ^ block[i]!;
    outer[i] = outer[i]! ^ block[i]!;
  }
  return { inner, outer };
}

/**
 * HMAC-SHA256 (RFC 2104: H(K ⊕ opad ‖ H(K ⊕ ipad ‖ m))) from two one-shot digests, for a MAC on
 * every request or delivery (sealed access tokens, issued and checked; webhook signatures); `m`
 * may be given in parts, which are signed as one. Node's Hmac is a native object per
 * MAC; in a busy server that costs several times the two digests (docs/BENCHMARKS.md, "POST
 * /token"). test/unit/crypto.test.ts holds it to `createHmac` and RFC 4231's vectors.
 */
export function hmacSha256(key: HmacSha256Key, message: string | Buffer | ReadonlyArray<string | Buffer>, encoding: 'base64' | 'base64url' | 'hex'): string {
  const parts = typeof message === 'string' || Buffer.isBuffer(message) ? [message] : message;
  // The inner digest as hex, written into the outer block as bytes: a Buffer digest costs more.
  const inner = hash('sha256', padded(key.inner, parts), 'hex');
  key.outer.copy(scratch, 0);
  scratch.write(inner, SHA256_BLOCK_BYTES, 'hex');
  return hash('sha256', scratch.subarray(0, SHA256_BLOCK_BYTES + 32), encoding);
}

// The padded key and the message are written into one buffer kept for the purpose (MACs are
// made synchronously, one at a time), not a new one per MAC: a typical message fits.
const scratch = Buffer.alloc(SHA256_BLOCK_BYTES + 1024);

function padded(pad: Buffer, parts: ReadonlyArray<string | Buffer>): Buffer {
  let length = SHA256_BLOCK_BYTES;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part.length;
  const out = length <= scratch.length ? scratch : Buffer.alloc(length);
  pad.copy(out, 0);
  let at = SHA256_BLOCK_BYTES;
  for (const part of parts) at += typeof part === 'string' ? out.write(part, at, 'utf8') : part.copy(out, at);
  return out.subarray(0, length);
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
