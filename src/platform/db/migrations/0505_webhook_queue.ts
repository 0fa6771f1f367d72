/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The deliveries still to be attempted get a table of their own, `webhook_queue`: the due time,
// the lease and the count of failures in the current retry cycle move there, with copies of
// what a claim needs of the delivery (account and event), so that claiming reads the queue
// alone. A delivery's row in `webhook_deliveries` keeps its state and history.
//
// Acknowledging a delivery changed its `state`, which the queue's indexes named (the due
// index's condition, the parked index's condition, the endpoint index's key). On PostgreSQL an
// update that changes any column an index names writes a new entry to every index of the table,
// so every acknowledgement wrote three. Now no index on `webhook_deliveries` names a column an
// acknowledgement changes, so the new row version stays on its page (a HOT update), and the
// delivery leaves the queue by a delete, which writes to no index at all. Parked deliveries are
// found by `parked_at`, which is set exactly while a delivery is parked.
//
// SQLite gets the same tables, so both databases run the same queue.
const MOVED = ['cycle_failures', 'next_attempt_at', 'lease_owner', 'lease_until'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('webhook_queue')
    .addColumn('delivery_id', 'text', (c) => c.primaryKey().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    /** Failed attempts in the current retry cycle (recovery starts a new cycle). */
    .addColumn('cycle_failures', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .execute();
  // Room on each page for a lease's new row version, as for deliveries (0503).
  if (postgres) await sql`alter table webhook_queue set (fillfactor = 50)`.execute(db);
  await sql`
    insert into webhook_queue (delivery_id, account_id, event_id, endpoint_id, cycle_failures, next_attempt_at, lease_owner, lease_until)
    select id, account_id, event_id, endpoint_id, cycle_failures, next_attempt_at, lease_owner, lease_until
    from webhook_deliveries where state = 'pending'`.execute(db);
  await db.schema.createIndex('webhook_queue_due').on('webhook_queue').column('next_attempt_at').execute();
  await db.schema.createIndex('webhook_queue_endpoint').on('webhook_queue').column('endpoint_id').execute();

  for (const index of ['webhook_deliveries_due', 'webhook_deliveries_parked', 'webhook_deliveries_endpoint_state']) {
    await db.schema.dropIndex(index).execute();
  }
  await db.schema.createIndex('webhook_deliveries_endpoint').on('webhook_deliveries').column('endpoint_id').execute();
  await sql`create index webhook_deliveries_parked on webhook_deliveries (endpoint_id, created_at) where parked_at is not null`.execute(db);
  for (const column of MOVED) await db.schema.alterTable('webhook_deliveries').dropColumn(column).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('cycle_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('next_attempt_at', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('lease_owner', 'text').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('lease_until', 'bigint').execute();
  await sql`
    update webhook_deliveries set
      cycle_failures = coalesce((select q.cycle_failures from webhook_queue q where q.delivery_id = webhook_deliveries.id), 0),
      next_attempt_at = coalesce((select q.next_attempt_at from webhook_queue q where q.delivery_id = webhook_deliveries.id), updated_at),
      lease_owner = (select q.lease_owner from webhook_queue q where q.delivery_id = webhook_deliveries.id),
      lease_until = (select q.lease_until from webhook_queue q where q.delivery_id = webhook_deliveries.id)`.execute(db);
  await db.schema.dropIndex('webhook_deliveries_parked').execute();
  await db.schema.dropIndex('webhook_deliveries_endpoint').execute();
  await db.schema.createIndex('webhook_deliveries_endpoint_state').on('webhook_deliveries').columns(['endpoint_id', 'state', 'parked_at']).execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_parked on webhook_deliveries (endpoint_id, created_at) where state = 'parked'`.execute(db);
  await db.schema.dropTable('webhook_queue').execute();
}
