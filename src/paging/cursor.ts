/**
 * Sealed paging cursors. A cursor is opaque to callers (interface, collection reads rule 3):
 * AES-256-GCM over the keyset position, the order and filter it was issued for, the account
 * that received it and when it was issued, so a cursor cannot be read, forged, moved to
 * another account, replayed forever or used against another order or filter.
 *
 * Wire form: `<kid>.<base64url(iv ‖ ciphertext ‖ tag)>`. The key id names the key that sealed
 * it, which lets keys rotate: the first key of the ring seals, every key in it opens. The kid
 * is also the additional authenticated data, so it cannot be swapped.
 *
 * Opening distinguishes what went wrong with a distinct problem code each:
 * `cursor_malformed` (not ours or altered), `cursor_foreign` (another account's),
 * `cursor_expired`, `cursor_mismatch` (issued for another order or filter).
 */
import { createCipheriv, createDecipheriv, createHash, randomFillSync } from 'node:crypto';
import { problem } from '../platform/errors/catalogue.ts';

export interface CursorKey {
  /** Short identifier written in every cursor it seals: [A-Za-z0-9_-]{1,16}. */
  id: string;
  /** 32 bytes (AES-256). */
  key: Buffer;
}

export interface CursorKeyRing {
  /** The key new cursors are sealed with. */
  sealing: CursorKey;
  /** Every key that may open a cursor, by id (the sealing key included). */
  opening: ReadonlyMap<string, CursorKey>;
}

/** A position in a keyset order: the sort key of the last row returned and its id. */
export interface CursorPosition {
  key: number | string;
  id: string;
}

export interface CursorClaims {
  position: CursorPosition;
  /** Names the collection and its order, e.g. `invoices:created_at.desc,id.desc`. */
  order: string;
  /** `filterFingerprint(filters)` of the read the cursor belongs to. */
  filter: string;
  accountId: string;
  /** Epoch milliseconds. */
  issuedAt: number;
}

export interface CursorExpectations {
  order: string;
  filter: string;
  accountId: string;
  now: number;
  /** How long a cursor stays valid after it was issued, milliseconds. */
  ttlMs: number;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_VERSION = 1;

export function createKeyRing(keys: readonly CursorKey[]): CursorKeyRing {
  const [sealing] = keys;
  if (!sealing) throw new Error('a cursor key ring needs at least one key');
  for (const k of keys) {
    if (k.key.length !== 32) throw new Error(`cursor key ${k.id} must be 32 bytes`);
    if (!/^[A-Za-z0-9_-]{1,16}$/.test(k.id)) throw new Error(`cursor key id ${k.id} is not [A-Za-z0-9_-]{1,16}`);
  }
  return { sealing, opening: new Map(keys.map((k) => [k.id, k])) };
}

// Nonces are random, taken from a pool refilled a few kilobytes at a time: one call to the
// CSPRNG per cursor costs about half as much as sealing it.
const noncePool = Buffer.alloc(IV_BYTES * 256);
let nonceOffset = noncePool.length;

/** 96 fresh random bits, valid until the next call (the cipher and the cursor copy them at once). */
function nextNonce(): Buffer {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  nonceOffset += IV_BYTES;
  return noncePool.subarray(nonceOffset - IV_BYTES, nonceOffset);
}

/** Seals `claims` into an opaque cursor string. */
export function sealCursor(ring: CursorKeyRing, claims: CursorClaims): string {
  const { id, key } = ring.sealing;
  const plaintext = JSON.stringify([
    FORMAT_VERSION,
    claims.position.key,
    claims.position.id,
    claims.order,
    claims.filter,
    claims.accountId,
    claims.issuedAt,
  ]);
  const iv = nextNonce();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(id));
  const sealed = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${id}.${sealed.toString('base64url')}`;
}

/**
 * Opens a cursor and checks it against the read it is used for; returns its position.
 * Throws a 400 problem for anything else; never anything that would become a 500.
 */
export function openCursor(ring: CursorKeyRing, cursor: string, expect: CursorExpectations): CursorPosition {
  const claims = unseal(ring, cursor);
  if (!claims) throw problem('cursor_malformed', { detail: 'Pass next_cursor back exactly as it was received' });
  // The account is checked before anything else that could reveal how the cursor was made.
  if (claims.accountId !== expect.accountId) {
    throw problem('cursor_foreign', { detail: 'This cursor was issued to another account' });
  }
  if (claims.order !== expect.order || claims.filter !== expect.filter) {
    throw problem('cursor_mismatch', {
      detail: 'This cursor was issued for another collection, order or filter; start again without after',
    });
  }
  if (claims.issuedAt + expect.ttlMs <= expect.now) {
    throw problem('cursor_expired', { detail: 'Cursors expire; start the read again without after' });
  }
  return claims.position;
}

function unseal(ring: CursorKeyRing, cursor: string): CursorClaims | undefined {
  const dot = cursor.indexOf('.');
  if (dot < 1) return undefined;
  const key = ring.opening.get(cursor.slice(0, dot));
  if (!key) return undefined;
  const encoded = cursor.slice(dot + 1);
  const sealed = Buffer.from(encoded, 'base64url');
  // Node's decoder skips characters it does not know; only the canonical encoding is ours.
  if (sealed.length < IV_BYTES + TAG_BYTES + 2 || sealed.toString('base64url') !== encoded) return undefined;
  let plaintext: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(key.id));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    plaintext = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return undefined;
  }
  return parseClaims(plaintext);
}

function parseClaims(plaintext: string): CursorClaims | undefined {
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 7 || value[0] !== FORMAT_VERSION) return undefined;
  const [, key, id, order, filter, accountId, issuedAt] = value as unknown[];
  if (typeof key !== 'number' && typeof key !== 'string') return undefined;
  if (typeof id !== 'string' || typeof order !== 'string' || typeof filter !== 'string') return undefined;
  if (typeof accountId !== 'string' || typeof issuedAt !== 'number') return undefined;
  return { position: { key, id }, order, filter, accountId, issuedAt };
}

/**
 * A short, stable digest of the filters a read was made with. Keys are sorted and absent
 * filters dropped, so the same filters always give the same fingerprint.
 */
export function filterFingerprint(filters: Record<string, string | number | boolean | undefined | null>): string {
  const entries = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== null)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return '-';
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 22);
}
