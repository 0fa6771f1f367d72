/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

/**
 * An operator can end every token a client holds (oauth/clients.ts `revokeTokens`). Its sealed
 * client-credentials tokens are stored nowhere to revoke one by one, so the client keeps the
 * instant they were ended: a sealed token issued at or before it is no longer valid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('tokens_not_before', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').dropColumn('tokens_not_before').execute();
}
