/**
 * The secrets key, and what it protects at rest.
 *
 * Some secrets must be recovered, not only checked: webhook secrets (to sign), the server's
 * signing and token MAC keys, the generated cursor key, the stored answers that show a secret
 * (to replay them under their Idempotency-Key). They are stored sealed with
 * AES-256-GCM under sub-keys derived (HKDF) per purpose from one secrets key, so sealing one
 * kind of thing never shares a key with another.
 *
 * The key is GATEHOUSE_SECRETS_KEY when set. Otherwise the first node generates one and keeps
 * it in the `settings` table, so every node sharing the database agrees; the database alone
 * then reveals the secrets, which is why production sets the key (docs/OPERATIONS.md).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from './db/database.ts';
import type { Clock } from './clock.ts';

const SETTING = 'secrets_key';

export interface Sealer {
  seal(plaintext: string, associated?: string): string;
  /** undefined when the box was altered, sealed under another key or for other associated data. */
  open(box: string, associated?: string): string | undefined;
}

export function createSealer(key: Buffer, purpose: string): Sealer {
  const subkey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `gatehouse ${purpose}`, 32));
  return {
    seal(plaintext, associated = '') {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', subkey, iv);
      cipher.setAAD(Buffer.from(associated));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(box, associated = '') {
      const raw = Buffer.from(box, 'base64url');
      if (raw.length < 28) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', subkey, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(associated));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/** The configured key, or the one shared through the database (generated on first start). */
export async function loadSecretsKey(deps: { db: Db; clock: Clock; configured: string | undefined }): Promise<Buffer> {
  const { db, clock, configured } = deps;
  if (configured !== undefined) return Buffer.from(configured, 'base64');
  const existing = await db.selectFrom('settings').select('value').where('name', '=', SETTING).executeTakeFirst();
  if (existing) return Buffer.from(existing.value, 'base64');
  await db
    .insertInto('settings')
    .values({ name: SETTING, value: randomBytes(32).toString('base64'), updated_at: clock.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  // Whether this node or another won the race, the stored key is the one everyone uses.
  return loadSecretsKey(deps);
}

const SEALED = 'sealed:';

/**
 * Key material stored in the database: sealed, with the row's name (a kid, a setting) as
 * associated data so a sealed value cannot be moved to another row. Values stored before keys
 * were sealed are plain and still read; they are sealed when next written.
 */
export interface KeyVault {
  seal(plaintext: string, name: string): string;
  /** The plaintext; throws, naming the setting to check, when the value was sealed under another key. */
  open(stored: string, name: string): string;
}

export function createKeyVault(key: Buffer): KeyVault {
  const sealer = createSealer(key, 'stored keys');
  return {
    seal: (plaintext, name) => SEALED + sealer.seal(plaintext, name),
    open(stored, name) {
      if (!stored.startsWith(SEALED)) return stored;
      const plaintext = sealer.open(stored.slice(SEALED.length), name);
      if (plaintext === undefined) {
        throw new Error(`stored key ${name} cannot be opened: GATEHOUSE_SECRETS_KEY is not the key it was sealed under`);
      }
      return plaintext;
    },
  };
}

/** The vault of an installation: its secrets key, configured or shared through the database. */
export async function openKeyVault(deps: { db: Db; clock: Clock; configured: string | undefined }): Promise<KeyVault> {
  return createKeyVault(await loadSecretsKey(deps));
}
