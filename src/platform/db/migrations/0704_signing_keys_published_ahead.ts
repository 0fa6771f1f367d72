/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

/**
 * A rotated signing key is published before it signs (oauth/keys.ts): relying parties cache the
 * JWKS, and one that met a kid it had not fetched yet would refuse the token. `signs_from` is when
 * a key starts signing; null for keys that signed from their creation. `withdrawn_at` marks a key
 * withdrawn as possibly leaked (`rotate-keys --revoke`): what it signed is no longer trusted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_signing_keys').addColumn('signs_from', 'bigint').execute();
  await db.schema.alterTable('oauth_signing_keys').addColumn('withdrawn_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_signing_keys').dropColumn('withdrawn_at').execute();
  await db.schema.alterTable('oauth_signing_keys').dropColumn('signs_from').execute();
}
