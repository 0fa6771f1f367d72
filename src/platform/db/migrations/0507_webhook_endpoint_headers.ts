/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

// Headers an endpoint's owner adds to every delivery, sealed like the secret
// (webhooks/endpoint-headers.ts). Null when there are none, which is every endpoint before this.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('headers_sealed', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('headers_sealed').execute();
}
