/**
 * Webhook secrets and the key that protects them.
 *
 * A webhook secret must be recovered to sign, so unlike client secrets it cannot be stored as
 * a digest: it is sealed with AES-256-GCM under the secrets key. The key is
 * GATEHOUSE_SECRETS_KEY when set; otherwise the first node generates one and keeps it in the
 * `settings` table, so every node sharing the database agrees (operators who want the
 * database alone not to reveal secrets set the key explicitly). Sub-keys are derived with
 * HKDF so sealing secrets and sealing cursors never share a key.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';

const SETTING = 'secrets_key';

/** `whsec_` + base64 of 24 random bytes: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

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
