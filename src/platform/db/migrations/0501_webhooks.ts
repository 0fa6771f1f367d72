/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Receivers an account registered. Secrets are kept encrypted (AES-256-GCM) because they
  // must be recovered to sign; the previous secret keeps signing until its overlap ends.
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', 'bigint')
    .addColumn('failing_since', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_account_created')
    .on('webhook_endpoints')
    .columns(['account_id', 'created_at', 'id'])
    .execute();

  // One row per (event, endpoint): the unit the dispatcher claims with a lease.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    /** pending | acknowledged | parked */
    .addColumn('state', 'text', (c) => c.notNull())
    /** Failed attempts in the current retry cycle (recovery starts a new cycle). */
    .addColumn('cycle_failures', 'integer', (c) => c.notNull())
    .addColumn('attempt_count', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('parked_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['state', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_event_endpoint')
    .unique()
    .on('webhook_deliveries')
    .columns(['event_id', 'endpoint_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint_state')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'state', 'parked_at'])
    .execute();

  // The attempt log; an attempt's id is the Delivery-Id header it was sent with.
  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    /** succeeded | failed */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_attempts_endpoint_attempted')
    .on('webhook_attempts')
    .columns(['endpoint_id', 'attempted_at', 'id'])
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').column('delivery_id').execute();
  await db.schema.createIndex('events_account_type_created').on('events').columns(['account_id', 'type', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_endpoints').execute();
}
