/**
 * Object identifiers: a short type prefix and 20 base62 characters, e.g. `acct_4fJ1…`. The
 * prefix tells a reader what an id names. Records written at the rate of requests (invoices,
 * payouts, ledger entries, events, deliveries, idempotency records, access tokens, SCIM users)
 * take time-ordered ids: their primary-key index then grows at its end, so a commit writes the
 * few pages at that edge instead of one page per row scattered across the index. The rest are
 * wholly random. Either way an id is unguessable (71 random bits at least) and grants nothing
 * by itself; a time-ordered id tells its creation time, which its record shows anyway.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from a pool refilled 4 KiB at a time: one system call per ~150 ids
// instead of one per id, which shows on hot paths that mint an id per request.
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let offset = 0;

function nextByte(): number {
  if (offset === POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  return pool[offset++]!;
}

const ALPHABET_CODES = Buffer.from(ALPHABET, 'latin1');
// The characters of an id are written as bytes and read as one string: built a character at a
// time, an id is a chain of small strings that costs a busy server more than its randomness.
const chars = Buffer.alloc(64);

/** Random base62 characters into `out` from `from` up to `to`. */
function fillRandom(out: Buffer, from: number, to: number): void {
  for (let filled = from; filled < to; ) {
    // Rejection sampling keeps every character equally likely (248 = 4 * 62).
    const byte = nextByte();
    if (byte < 248) out[filled++] = ALPHABET_CODES[byte % 62]!;
  }
}

export function randomBase62(length: number): string {
  const out = length <= chars.length ? chars : Buffer.alloc(length);
  fillRandom(out, 0, length);
  return out.toString('latin1', 0, length);
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

/**
 * An id of the same shape whose first 8 characters are the time (`at` in milliseconds, base62,
 * fixed width, so ids sort by time for thousands of years), then 12 random characters (~71 bits).
 * For records written at a high rate whose time is recorded beside them anyway: minted one
 * after another they sort together, so their index grows at its end instead of everywhere.
 */
export function newTimeOrderedId(prefix: string, at: number): string {
  for (let rest = Math.max(0, Math.floor(at)), i = 7; i >= 0; i--, rest = Math.floor(rest / 62)) chars[i] = ALPHABET_CODES[rest % 62]!;
  fillRandom(chars, 8, 20);
  return `${prefix}_${chars.toString('latin1', 0, 20)}`;
}

export function hasPrefix(id: string, prefix: string): boolean {
  return id.startsWith(`${prefix}_`) && /^[0-9A-Za-z]{20}$/.test(id.slice(prefix.length + 1));
}
