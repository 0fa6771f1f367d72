/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

/**
 * Where retention cut an account's chain, signed (audit/retention.ts): `verify` accepts a chain
 * that starts after its first record only with this statement, so deleting the oldest records
 * and moving the start by hand is reported, not taken for pruning. Nothing signs the starts of
 * chains pruned before: whatever did it later could sign a forged one as well, so `verify` reports
 * them (which needs a retention shorter than the trail's age at the time).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_chains').addColumn('first_jws', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_chains').dropColumn('first_jws').execute();
}
