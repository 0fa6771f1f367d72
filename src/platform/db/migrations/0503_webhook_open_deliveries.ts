/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The queue's indexes hold only the deliveries still to be sent or recovered.
//
// Nearly every delivery is acknowledged and stays so; an index over (state, next_attempt_at)
// kept all of them, so it grew with every delivery ever made and every acknowledgement wrote an
// entry to it. Partial indexes on the states the queue reads hold the pending and the parked
// deliveries alone: claims walk only what is pending, an acknowledgement writes no entry to
// either, and parked deliveries are found by endpoint and time for recovery. Queries name the
// state as a literal, as both databases need to choose a partial index.
//
// PostgreSQL: new delivery rows fill half a page, not 80 % (0502). Taking a lease writes a new
// version of the row, which stays on its page, and out of every index, only if the page has room
// for it; claims lease every row of a page in one statement, so a page must have room for a new
// version of each of its rows. At 80 % most leases found none (and wrote an entry to each of the
// table's indexes), and a claim of 20,000 deliveries took about 40 % longer.
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table webhook_deliveries set (fillfactor = 50)`.execute(db);
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_parked on webhook_deliveries (endpoint_id, created_at) where state = 'parked'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table webhook_deliveries set (fillfactor = 80)`.execute(db);
  await db.schema.dropIndex('webhook_deliveries_parked').execute();
  await db.schema.dropIndex('webhook_deliveries_due').execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
}
