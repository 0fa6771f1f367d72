/**
 * The server's signing keys and the JWKS that publishes them (RFC 7517, RFC 8414 `jwks_uri`).
 *
 * Access tokens are opaque, so the ES256 keys sign what leaves the server as a JWT: RFC 9701
 * introspection responses, ID tokens and logout tokens (OpenID Connect). The first RS256 key is
 * made when a client that asks for RS256 ID tokens (id_token_signed_response_alg) is registered,
 * so the JWKS publishes it before its first ID token is signed (or, for a client brought in by
 * `gatehouse import`, when first needed).
 * The HS256 keys seal client-credentials tokens and are never published.
 *
 * One key of each kind signs. A rotation publishes the new signing keys at once but lets them
 * sign only `SIGNING_LEAD_SECONDS` later, once every JWKS a relying party may have cached (for
 * `JWKS_MAX_AGE_SECONDS`) has been fetched again with them in it: a relying party never meets a
 * kid it cannot find. Until then the old keys go on signing; `rotate({ revoke: true })` skips the
 * wait and withdraws the old keys, for a key that may have leaked. The new MAC key seals at once
 * (nobody outside verifies it). Retired keys stay published, and accepted, until anything they signed has
 * expired (`retainSeconds`, the longest access-token lifetime). Then a signing key's private
 * part is dropped and its public part kept, sealed (`expireRetired`): the audit trail's signed
 * checkpoints must stay verifiable for as long as the records they cover are kept, and the seal,
 * which nobody without the secrets key can make, shows the key was this server's
 * (audit/verify.ts). Retired MAC keys are deleted. Private keys are stored sealed under the
 * secrets key (platform/secrets-key.ts).
 */
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { ExpressionBuilder } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import type { KeyVault } from '../platform/secrets-key.ts';
import { PLATFORM_ACCOUNT } from '../audit/catalogue.ts';
import { recordAudit, type AuditBy } from '../audit/record.ts';
import { MAC_ALG, createMacKey } from './token-sealing.ts';
import { dialectOf } from '../platform/db/dialect.ts';

const ALG = 'ES256';
/** The longest lifetime of a token any node has issued, in seconds: how long a retired key stays. */
const RETENTION_SETTING = 'signing_key_retention_seconds';
/** How long a relying party may cache the JWKS (its Cache-Control max-age). */
export const JWKS_MAX_AGE_SECONDS = 300;
/**
 * How long after a rotation its new signing keys start signing: every cached JWKS has expired by
 * then, with a minute's margin for the clocks of the nodes and of the caches in between.
 */
export const SIGNING_LEAD_SECONDS = JWKS_MAX_AGE_SECONDS + 60;
/** The published (asymmetric) algorithms; ES256 always has an active key, RS256 once used. */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

export function createSigningKeys(deps: { db: Db; clock: Clock; vault: KeyVault; retainSeconds: number }) {
  const { db, clock, vault } = deps;

  // Imported private keys by kid: a key never changes under its kid.
  const imported = new Map<string, CryptoKey>();

  async function create(alg: SigningAlg = ALG, into: Db = db, signsFrom: number | null = null): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
    const kid = newId('key');
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg };
    await into
      .insertInto('oauth_signing_keys')
      .values({ kid, alg, public_jwk: JSON.stringify(publicJwk), private_jwk: vault.seal(JSON.stringify(privateJwk), kid), created_at: clock.now(), retired_at: null, publish_until: null, signs_from: signsFrom })
      .execute();
    return kid;
  }

  /** Holds the retention's row until `trx` ends: the turn of whoever makes keys (see ensureActive). */
  const holdKeyMaking = (trx: Db) => dialectOf(trx).lockForWrite(trx.selectFrom('settings').select('value').where('name', '=', RETENTION_SETTING)).executeTakeFirst();

  /**
   * The key of `alg` that signs now: the newest whose signing has begun and not ended. A rotated
   * key goes on signing until its successor's `signs_from`, when it is retired.
   */
  async function active(alg: string = ALG, from: Db = db) {
    const now = clock.now();
    return from
      .selectFrom('oauth_signing_keys')
      .selectAll()
      .where('alg', '=', alg)
      .where(stillSigningAt(now))
      .where((eb) => eb.or([eb('signs_from', 'is', null), eb('signs_from', '<=', now)]))
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /**
   * Makes the first key of `alg` unless one signs already: when a client asking for it is
   * registered, so the key is in the JWKS before anything is signed with it. Under the row
   * ensureActive holds, so nodes doing this at once make one key.
   */
  async function prepare(alg: SigningAlg): Promise<void> {
    if (await active(alg)) return;
    await db.transaction().execute(async (trx) => {
      await holdKeyMaking(trx);
      if (!(await active(alg, trx))) await create(alg, trx);
    });
  }

  /**
   * Drops what retired keys past their publication still hold secret: a MAC key is deleted, a
   * signing key keeps only its public part, sealed (`publicOnly`), for the checkpoints and ID
   * tokens it signed. Idempotent; returns how many keys it changed.
   */
  async function expireRetired(into: Db = db): Promise<number> {
    const now = clock.now();
    const macs = await into.deleteFrom('oauth_signing_keys').where('publish_until', '<=', now).where('alg', '=', MAC_ALG).executeTakeFirst();
    const unpublished = await into.selectFrom('oauth_signing_keys').select(['kid', 'public_jwk', 'private_jwk']).where('publish_until', '<=', now).where('alg', 'in', [...SIGNING_ALGS]).execute();
    let changed = Number(macs.numDeletedRows);
    for (const key of unpublished) {
      // A handful of rows, one per rotation: opening each tells which still hold a private key.
      if (!holdsPrivateKey(vault, key)) continue;
      await into.updateTable('oauth_signing_keys').set({ private_jwk: publicOnly(vault, key.kid, key.public_jwk) }).where('kid', '=', key.kid).execute();
      changed += 1;
    }
    return changed;
  }

  return {
    /**
     * Makes sure one key of each kind is active (first start), and records how long this node's
     * tokens live (`retainSeconds`) where a rotation run from anywhere reads it. One transaction
     * holding the retention's row: nodes starting at once on an empty database take turns, so
     * exactly one makes the keys.
     */
    async ensureActive(): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values({ name: RETENTION_SETTING, value: String(deps.retainSeconds), updated_at: clock.now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
        const held = await holdKeyMaking(trx);
        if (Number(held!.value) < deps.retainSeconds) {
          await trx.updateTable('settings').set({ value: String(deps.retainSeconds), updated_at: clock.now() }).where('name', '=', RETENTION_SETTING).execute();
        }
        if (!(await active(ALG, trx))) await create(ALG, trx);
        if (!(await active(MAC_ALG, trx))) await createMacKey(trx, vault, clock.now());
      });
      // Opened once at start, so a node given the wrong secrets key stops now, not at its first token.
      for (const row of [await active(), await active(MAC_ALG)]) if (row) vault.open(row.private_jwk, row.kid);
    },

    /**
     * New keys: the signing keys published now and signing from `signsFrom`
     * (`SIGNING_LEAD_SECONDS` later), the MAC key sealing at once. The previous ones retire as
     * their successors take over and stay published, and accepted, for as long as the longest
     * token any node issues lives: `retainSeconds`, or what a serving node recorded if longer
     * (the host that runs the rotation may not have the nodes' settings).
     * With `revoke` (a key that may have leaked) the new keys sign at once and every earlier key
     * is withdrawn now: unpublished, and no longer accepted, so nothing it signed or sealed
     * verifies any more (the audit checkpoints excepted: their keys' public parts stay, sealed).
     * One transaction: the rotation and its audit record (the kids, never key material) commit
     * together, and no reader ever sees the old keys retired before the new ones exist.
     */
    async rotate(by?: AuditBy, options: { revoke?: boolean } = {}): Promise<{ kid: string; signsFrom: number; retired: string[]; withdrawn: string[]; retainSeconds: number }> {
      const now = clock.now();
      const signsFrom = options.revoke ? now : now + SIGNING_LEAD_SECONDS * 1000;
      return db.transaction().execute(async (trx) => {
        // Rotations, and the first RS256 key made by `sign`, take turns: each sees the keys the
        // one before made, so no key is left signing unretired beside its successor.
        const held = await holdKeyMaking(trx);
        const retainSeconds = Math.max(deps.retainSeconds, Number(held?.value ?? 0));
        // The keys signing now, whose successors these are; a key still waiting to sign (an
        // earlier rotation's, inside its lead) is superseded too, and never signs.
        const signing = (await Promise.all(SIGNING_ALGS.map((alg) => active(alg, trx)))).filter((row) => row !== undefined);
        const superseded = await trx.selectFrom('oauth_signing_keys').select('kid').where('retired_at', 'is', null).where('alg', 'in', [...SIGNING_ALGS]).execute();
        let withdrawn: string[] = [];
        if (options.revoke) {
          withdrawn = (await trx.selectFrom('oauth_signing_keys').select('kid').where('withdrawn_at', 'is', null).where(published(now)).execute()).map((row) => row.kid);
          // Every key still published stops now, its retirement kept where it had one.
          await trx.updateTable('oauth_signing_keys').set({ retired_at: now }).where(stillSigningAt(now)).execute();
          await trx.updateTable('oauth_signing_keys').set({ publish_until: now, withdrawn_at: now }).where('withdrawn_at', 'is', null).where(published(now)).execute();
        } else {
          await trx
            .updateTable('oauth_signing_keys')
            .set({ retired_at: signsFrom, publish_until: signsFrom + retainSeconds * 1000 })
            .where('retired_at', 'is', null)
            .where('alg', 'in', [...SIGNING_ALGS])
            .execute();
          await trx
            .updateTable('oauth_signing_keys')
            .set({ retired_at: now, publish_until: now + retainSeconds * 1000 })
            .where('retired_at', 'is', null)
            .where('alg', '=', MAC_ALG)
            .execute();
        }
        await expireRetired(trx);
        const macKid = await createMacKey(trx, vault, now);
        const kid = await create(ALG, trx, signsFrom);
        // An RS256 key in use is replaced too; one never used is still made only when needed.
        const usesRs256 = signing.some((row) => row.alg === 'RS256');
        const rsKid = usesRs256 ? await create('RS256', trx, signsFrom) : undefined;
        const retired = signing.map((row) => row.kid);
        const pending = superseded.map((row) => row.kid).filter((k) => !retired.includes(k));
        const changes = {
          active_kids: { before: retired, after: [kid, ...(rsKid ? [rsKid] : [])] },
          signs_from: { after: new Date(signsFrom).toISOString() },
          mac_kid: { after: macKid },
          ...(pending.length > 0 ? { superseded_kids: { after: pending } } : {}),
          ...(options.revoke ? { withdrawn_kids: { after: withdrawn } } : {}),
        };
        await recordAudit(trx, by, { accountId: PLATFORM_ACCOUNT, action: 'signing_keys.rotated', target: { type: 'signing_keys', id: 'jwks' }, changes, at: now });
        return { kid, signsFrom, retired, withdrawn, retainSeconds };
      });
    },

    expireRetired: () => expireRetired(),

    async jwks(): Promise<{ keys: JWK[] }> {
      const now = clock.now();
      const rows = await db
        .selectFrom('oauth_signing_keys')
        .select(['public_jwk', 'publish_until'])
        .where('alg', 'in', [...SIGNING_ALGS])
        .orderBy('created_at', 'desc')
        .execute();
      return { keys: rows.filter((r) => r.publish_until === null || r.publish_until > now).map((r) => JSON.parse(r.public_jwk) as JWK) };
    },

    prepare,

    /**
     * The public key of a signing key this server made, by kid: active, retired or no longer
     * published (its public part is kept, sealed), so what it signed can be read for as long as
     * it is kept, e.g. an ID token given back as a hint hours after a rotation. Not a key
     * withdrawn by `rotate({ revoke })`: whoever holds its private part could sign anything.
     */
    async publicKeyOf(kid: string): Promise<JWK | undefined> {
      const row = await db
        .selectFrom('oauth_signing_keys')
        .select(['kid', 'public_jwk', 'private_jwk'])
        .where('kid', '=', kid)
        .where('alg', 'in', [...SIGNING_ALGS])
        .where('withdrawn_at', 'is', null)
        .executeTakeFirst();
      return row && authenticPublicKey(vault, row);
    },

    /** Signs `claims` as a JWT of `type` with the active key of `alg` (made when first needed). */
    async sign(claims: Record<string, unknown>, type: string | undefined, alg: SigningAlg = ALG): Promise<string> {
      let row = await active(alg);
      if (!row && alg !== ALG) {
        await prepare(alg);
        row = await active(alg);
      }
      if (!row) throw new Error('no active signing key');
      let key = imported.get(row.kid);
      if (!key) {
        key = (await importJWK(JSON.parse(vault.open(row.private_jwk, row.kid)) as JWK, row.alg)) as CryptoKey;
        imported.set(row.kid, key);
      }
      const header = { alg: row.alg, kid: row.kid, ...(type === undefined ? {} : { typ: type }) };
      return new SignJWT(claims).setProtectedHeader(header).setIssuedAt(Math.floor(clock.now() / 1000)).sign(key);
    },
  };
}

export type SigningKeys = ReturnType<typeof createSigningKeys>;

type KeyRows = ExpressionBuilder<Tables, 'oauth_signing_keys'>;
/** Keys not retired at `now`: signing, or waiting to (a rotated key signs until its successor's start). */
const stillSigningAt = (now: number) => (eb: KeyRows) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', now)]);
/** Keys still published at `now` (a MAC key: still accepted). */
const published = (now: number) => (eb: KeyRows) => eb.or([eb('publish_until', 'is', null), eb('publish_until', '>', now)]);

/** Whether a stored signing key's sealed part is still its private key (`d`), not the public part kept after retirement. */
function holdsPrivateKey(vault: KeyVault, row: { kid: string; private_jwk: string }): boolean {
  try {
    return typeof (JSON.parse(vault.open(row.private_jwk, row.kid)) as JWK).d === 'string';
  } catch {
    // Not sealed here (a row someone else wrote): nothing of ours to drop.
    return false;
  }
}

/** A retired signing key as kept: its public JWK, sealed under the secrets key in place of the private one. */
function publicOnly(vault: KeyVault, kid: string, publicJwk: string): string {
  return vault.seal(publicJwk, kid);
}

/**
 * The public JWK of a stored signing key, when the row is this server's: its sealed part (the
 * private key, or the public one of a retired key) opens under the secrets key and names the same
 * public key. Undefined for a row someone else wrote, who could not seal it.
 */
export function authenticPublicKey(vault: KeyVault, row: { kid: string; public_jwk: string; private_jwk: string }): JWK | undefined {
  try {
    if (!vault.isSealedHere(row.private_jwk, row.kid)) return undefined;
    const sealed = JSON.parse(vault.open(row.private_jwk, row.kid)) as JWK;
    const published = JSON.parse(row.public_jwk) as JWK;
    const members = published.kty === 'RSA' ? (['kty', 'n', 'e'] as const) : (['kty', 'crv', 'x', 'y'] as const);
    return members.every((m) => typeof published[m] === 'string' && sealed[m] === published[m]) ? published : undefined;
  } catch {
    return undefined;
  }
}
