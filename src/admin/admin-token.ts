/**
 * The operator's credential for the admin listener. When GATEHOUSE_ADMIN_TOKEN is set it is
 * the token, and a generated token is revoked: its digest is deleted, so a node started later
 * without the setting generates a new one rather than accept the old (setting the variable is
 * how a leaked generated token is replaced). Otherwise the first node to start generates one,
 * stores only its digest in the database (so every node sharing the database accepts it) and
 * writes the token itself to `<data dir>/admin-token` with mode 0600; the caller prints it once.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { matchesDigest, randomSecret, safeEqual, sha256Hex } from '../platform/crypto.ts';

export const ADMIN_TOKEN_SETTING = 'admin_token_digest';

export interface AdminTokenCheck {
  (given: string): boolean;
}

export interface AdminTokenSetup {
  check: AdminTokenCheck;
  /** Set only on the start that generated the token. */
  generated?: { token: string; file: string };
  /** Set on the start whose configured token revoked a generated one. */
  revokedGenerated?: true;
}

export async function setUpAdminToken(deps: {
  db: Db;
  clock: Clock;
  configured: string | undefined;
  dataDir: string;
}): Promise<AdminTokenSetup> {
  const { db, clock, configured, dataDir } = deps;
  if (configured !== undefined) {
    const revoked = await db.deleteFrom('settings').where('name', '=', ADMIN_TOKEN_SETTING).executeTakeFirst();
    // `new,old` during a rotation: each node accepts both until every node has the new one.
    const tokens = configured.split(',');
    const check: AdminTokenCheck = (given) => {
      let accepted = false;
      for (const token of tokens) accepted = safeEqual(given, token) || accepted;
      return accepted;
    };
    if (Number(revoked.numDeletedRows) === 0) return { check };
    // This node's copy of the old token opens nothing now.
    fs.rmSync(path.join(dataDir, 'admin-token'), { force: true });
    return { check, revokedGenerated: true };
  }

  const existing = await db.selectFrom('settings').select('value').where('name', '=', ADMIN_TOKEN_SETTING).executeTakeFirst();
  if (existing) {
    const digest = existing.value;
    return { check: (given) => matchesDigest(given, digest) };
  }

  const token = randomSecret(32, 'gh_admin_');
  const inserted = await db
    .insertInto('settings')
    .values({ name: ADMIN_TOKEN_SETTING, value: sha256Hex(token), updated_at: clock.now() })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) {
    // Another node generated one first; use that one.
    return setUpAdminToken(deps);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'admin-token');
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  const digest = sha256Hex(token);
  return { check: (given) => matchesDigest(given, digest), generated: { token, file } };
}
