/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // One row per Idempotency-Key within a credential (account + client): the claim while the
  // request runs, then the stored response it replays until the retention ends.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('lease_token', 'text', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idempotency_keys_scope_key')
    .unique()
    .on('idempotency_keys')
    .columns(['account_id', 'client_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
