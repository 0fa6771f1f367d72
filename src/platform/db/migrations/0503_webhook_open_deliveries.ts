/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

// The queue's indexes hold only the deliveries still to be sent or recovered.
//
// Nearly every delivery is acknowledged and stays so; an index over (state, next_attempt_at)
// kept all of them, so it grew with every delivery ever made and every acknowledgement wrote an
// entry to it. Partial indexes on the states the queue reads hold the pending and the parked
// deliveries alone: claims walk only what is pending, an acknowledgement writes no entry to
// either, and parked deliveries are found by endpoint and time for recovery. Queries name the
// state as a literal, as both databases need to choose a partial index.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_parked on webhook_deliveries (endpoint_id, created_at) where state = 'parked'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_parked').execute();
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
}
