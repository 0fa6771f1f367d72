/**
 * The server's signing keys and the JWKS that publishes them (RFC 7517, RFC 8414 `jwks_uri`).
 *
 * Access tokens are opaque, so the ES256 keys sign what leaves the server as a JWT: RFC 9701
 * introspection responses. The HS256 keys seal client-credentials tokens and are never
 * published. One key of each kind is active; rotation makes new ones active and keeps the old
 * ones (published, and accepted) until anything they signed has expired (`retainSeconds`, the
 * longest access-token lifetime), after which they are dropped and deleted. Private keys are
 * stored sealed under the secrets key (platform/secrets-key.ts).
 */
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { KeyVault } from '../platform/secrets-key.ts';
import { MAC_ALG, createMacKey } from './token-sealing.ts';

const ALG = 'ES256';

export function createSigningKeys(deps: { db: Db; clock: Clock; vault: KeyVault; retainSeconds: number }) {
  const { db, clock, vault } = deps;

  async function create(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = newId('key');
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    await db
      .insertInto('oauth_signing_keys')
      .values({ kid, alg: ALG, public_jwk: JSON.stringify(publicJwk), private_jwk: vault.seal(JSON.stringify(privateJwk), kid), created_at: clock.now(), retired_at: null, publish_until: null })
      .execute();
    return kid;
  }

  async function active(alg = ALG) {
    return db.selectFrom('oauth_signing_keys').selectAll().where('alg', '=', alg).where('retired_at', 'is', null).orderBy('created_at', 'desc').executeTakeFirst();
  }

  return {
    /** Makes sure one key is active (first start). */
    async ensureActive(): Promise<void> {
      if (!(await active())) await create();
      if (!(await active(MAC_ALG))) await createMacKey(db, vault, clock.now());
      // Opened once at start, so a node given the wrong secrets key stops now, not at its first token.
      for (const row of [await active(), await active(MAC_ALG)]) if (row) vault.open(row.private_jwk, row.kid);
    },

    /** A new active key; the previous ones stay published for `retainSeconds`. Returns the new kid. */
    async rotate(): Promise<{ kid: string; retired: string[] }> {
      const now = clock.now();
      const retiring = await db.selectFrom('oauth_signing_keys').select('kid').where('retired_at', 'is', null).where('alg', '=', ALG).execute();
      await db
        .updateTable('oauth_signing_keys')
        .set({ retired_at: now, publish_until: now + deps.retainSeconds * 1000 })
        .where('retired_at', 'is', null)
        .execute();
      await db.deleteFrom('oauth_signing_keys').where('publish_until', '<=', now).execute();
      await createMacKey(db, vault, now);
      return { kid: await create(), retired: retiring.map((r) => r.kid) };
    },

    async jwks(): Promise<{ keys: JWK[] }> {
      const now = clock.now();
      const rows = await db
        .selectFrom('oauth_signing_keys')
        .select(['public_jwk', 'publish_until'])
        .where('alg', '=', ALG)
        .orderBy('created_at', 'desc')
        .execute();
      return { keys: rows.filter((r) => r.publish_until === null || r.publish_until > now).map((r) => JSON.parse(r.public_jwk) as JWK) };
    },

    /** Signs `claims` as a JWT of `type` with the active key. */
    async sign(claims: Record<string, unknown>, type: string): Promise<string> {
      const row = await active();
      if (!row) throw new Error('no active signing key');
      const key = await importJWK(JSON.parse(vault.open(row.private_jwk, row.kid)) as JWK, row.alg);
      return new SignJWT(claims).setProtectedHeader({ alg: row.alg, kid: row.kid, typ: type }).setIssuedAt(Math.floor(clock.now() / 1000)).sign(key);
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;
