/**
 * Where the cursor keys come from. Every node must seal and open with the same keys, or a
 * cursor issued by one node would be refused by the next. When GATEHOUSE_CURSOR_KEYS is set,
 * those keys are used (the first seals, all open: add a new key in front to rotate, drop the
 * old one once its cursors have expired). Otherwise the first node to start generates a key
 * and stores it, sealed under the secrets key, in the `settings` table, and every node sharing
 * the database reads it there.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { randomBase62 } from '../platform/ids.ts';
import type { KeyVault } from '../platform/secrets-key.ts';
import { createKeyRing, type CursorKey, type CursorKeyRing } from './cursor.ts';

const SETTING = 'cursor_key';

export async function setUpCursorKeys(deps: { db: Db; clock: Clock; vault: KeyVault; configured: readonly CursorKey[] | undefined }): Promise<CursorKeyRing> {
  const { db, clock, vault, configured } = deps;
  if (configured !== undefined && configured.length > 0) return createKeyRing(configured);

  const existing = await db.selectFrom('settings').select('value').where('name', '=', SETTING).executeTakeFirst();
  if (existing) return createKeyRing([parseStoredKey(vault.open(existing.value, SETTING))]);

  const generated: CursorKey = { id: `g${randomBase62(6)}`, key: randomBytes(32) };
  await db
    .insertInto('settings')
    .values({ name: SETTING, value: vault.seal(`${generated.id}:${generated.key.toString('base64')}`, SETTING), updated_at: clock.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  // Whoever inserted first wins; read back so every node uses the same key.
  return setUpCursorKeys(deps);
}

function parseStoredKey(value: string): CursorKey {
  const [id, key] = value.split(':');
  if (!id || !key) throw new Error(`setting ${SETTING} is corrupt`);
  return { id, key: Buffer.from(key, 'base64') };
}
