/**
 * Sealed access tokens for client credentials: the token itself carries who it is for
 * (account, client, scope, expiry) under an HMAC-SHA256 by a server key, so issuing one writes
 * nothing. It stays opaque to clients (no format is promised) and is still checked against
 * the database on every use: the client must still exist and the token id must not be on the
 * revocation list, so revocation and client deletion take effect on the next request.
 *
 * MAC keys live in `oauth_signing_keys` (alg HS256, never published), sealed under the secrets
 * key (platform/secrets-key.ts). Every node reads them
 * from the database; a token naming a key this node has not seen makes it reload, and the keys
 * are re-read every minute so a rotation, or a withdrawal, reaches every node.
 */
import { randomBytes } from 'node:crypto';
import { hmacSha256, hmacSha256Key, safeEqual, type HmacSha256Key } from '../platform/crypto.ts';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { KeyVault } from '../platform/secrets-key.ts';

export const MAC_ALG = 'HS256';
const REFRESH_MS = 60_000;
const RELOAD_MIN_MS = 1_000;

export interface SealedClaims {
  id: string;
  accountId: string;
  clientId: string;
  scope: string;
  issuedAt: number;
  expiresAt: number;
}

interface MacKey {
  kid: string;
  /** Its padded blocks, made once at load. */
  key: HmacSha256Key;
  active: boolean;
  createdAt: number;
}

export async function createMacKey(db: Db, vault: KeyVault, now: number): Promise<string> {
  const kid = newId('mac');
  const jwk = { kty: 'oct', kid, alg: MAC_ALG, k: randomBytes(32).toString('base64url') };
  await db
    .insertInto('oauth_signing_keys')
    .values({ kid, alg: MAC_ALG, public_jwk: '{}', private_jwk: vault.seal(JSON.stringify(jwk), kid), created_at: now, retired_at: null, publish_until: null })
    .execute();
  return kid;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

export function createTokenSealer(deps: { db: Db; clock: Clock; vault: KeyVault }) {
  const { db, clock, vault } = deps;
  let keys = new Map<string, MacKey>();
  let loadedAt = -Infinity;
  let loading: Promise<void> | undefined;

  async function load(): Promise<void> {
    const now = clock.now();
    const rows = await db
      .selectFrom('oauth_signing_keys')
      .select(['kid', 'private_jwk', 'retired_at', 'publish_until', 'created_at'])
      .where('alg', '=', MAC_ALG)
      .execute();
    const next = new Map<string, MacKey>();
    for (const row of rows) {
      if (row.publish_until !== null && row.publish_until <= now) continue;
      const jwk = JSON.parse(vault.open(row.private_jwk, row.kid)) as { k: string };
      next.set(row.kid, { kid: row.kid, key: hmacSha256Key(Buffer.from(jwk.k, 'base64url')), active: row.retired_at === null, createdAt: row.created_at });
    }
    keys = next;
    loadedAt = now;
  }

  async function reload(): Promise<void> {
    loading ??= load().finally(() => (loading = undefined));
    await loading;
  }

  function activeKey(): MacKey | undefined {
    let best: MacKey | undefined;
    for (const k of keys.values()) if (k.active && (!best || k.createdAt > best.createdAt)) best = k;
    return best;
  }

  // Encoded by the digest itself: a Buffer digest and its toString cost twice as much.
  function mac(key: HmacSha256Key, body: string): string {
    return hmacSha256(key, body, 'base64url');
  }

  return {
    async seal(claims: SealedClaims, prefix: string): Promise<string> {
      if (clock.now() - loadedAt > REFRESH_MS || !activeKey()) await reload();
      const key = activeKey();
      if (!key) throw new Error('no active token MAC key');
      const body = b64([key.kid, claims.id, claims.accountId, claims.clientId, claims.issuedAt, claims.expiresAt, claims.scope].join('\n'));
      return `${prefix}${body}.${mac(key.key, body)}`;
    },

    /** The claims of a well-formed token with a valid MAC, or undefined. Expiry is the caller's check. */
    async open(token: string, prefix: string): Promise<SealedClaims | undefined> {
      const dot = token.lastIndexOf('.');
      if (!token.startsWith(prefix) || dot < 0) return undefined;
      const body = token.slice(prefix.length, dot);
      const fields = Buffer.from(body, 'base64url').toString('utf8').split('\n');
      if (fields.length !== 7) return undefined;
      const [kid, id, accountId, clientId, issuedAt, expiresAt, scope] = fields as [string, string, string, string, string, string, string];
      // Re-read every minute here too: a key withdrawn by `rotate-keys --revoke` must stop
      // verifying on a node that seals nothing.
      if (clock.now() - loadedAt > REFRESH_MS) await reload();
      let key = keys.get(kid);
      if (!key && clock.now() - loadedAt > RELOAD_MIN_MS) {
        await reload();
        key = keys.get(kid);
      }
      if (!key) return undefined;
      // The MAC is compared as text: decoding first would accept other spellings of the same
      // bytes (base64url's unused low bits), so one token would have several valid forms.
      if (!safeEqual(token.slice(dot + 1), mac(key.key, body))) return undefined;
      return { id, accountId, clientId, scope, issuedAt: Number(issuedAt), expiresAt: Number(expiresAt) };
    },
  };
}

export type TokenSealer = ReturnType<typeof createTokenSealer>;
