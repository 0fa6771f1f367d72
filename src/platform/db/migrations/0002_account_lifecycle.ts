/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

/**
 * The account's lifecycle (accounts/service.ts, docs/DECISIONS.md "Closing an account"):
 * - branding of the sign-in pages: a brand colour (`#rrggbb`) and a small logo kept as a
 *   `data:` URI, so the browser never fetches it from anyone;
 * - `deleted_at`: a closed account stays as a tombstone, because its ledger, payouts, invoices,
 *   events and audit trail are kept; nothing of it can authenticate any more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('accounts').addColumn('brand_color', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('logo', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('updated_at', 'bigint').execute();
  await db.schema.alterTable('accounts').addColumn('deleted_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['deleted_at', 'updated_at', 'logo', 'brand_color']) await db.schema.alterTable('accounts').dropColumn(column).execute();
}
