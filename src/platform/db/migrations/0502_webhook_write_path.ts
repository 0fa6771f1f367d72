/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

// What every delivery writes, made cheaper.
//
// The attempt log belongs to its endpoint: its rows go when the endpoint goes (deliveries are
// only ever deleted along with their endpoint or their account, which takes the endpoint), so
// they need no key on the delivery, nor the index on delivery_id that such a key needs. That
// index was the one every attempt wrote to at a random place; with attempt ids that sort by
// time, an attempt now appends to each of the log's indexes.
//
// PostgreSQL: deliveries leave room in their pages, so that taking a lease (which changes no
// indexed column) can write the new row version beside the old one without touching any index.
const COLUMNS =
  'id, account_id, delivery_id, endpoint_id, event_id, event_type, outcome, response_status, response_body, error, latency_ms, attempted_at';

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table webhook_attempts drop constraint webhook_attempts_delivery_id_fkey`.execute(db);
    await sql`alter table webhook_attempts add constraint webhook_attempts_endpoint_id_fkey
      foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade`.execute(db);
    await db.schema.dropIndex('webhook_attempts_delivery').execute();
    await sql`alter table webhook_deliveries set (fillfactor = 80)`.execute(db);
    return;
  }
  // SQLite changes a table's keys by copying it into a new one.
  await createLog(db, 'webhook_attempts_next', 'endpoint');
  await sql.raw(`insert into webhook_attempts_next (${COLUMNS}) select ${COLUMNS} from webhook_attempts`).execute(db);
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.alterTable('webhook_attempts_next').renameTo('webhook_attempts').execute();
  await db.schema.createIndex('webhook_attempts_endpoint_attempted').on('webhook_attempts').columns(['endpoint_id', 'attempted_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table webhook_deliveries reset (fillfactor)`.execute(db);
    await sql`alter table webhook_attempts drop constraint webhook_attempts_endpoint_id_fkey`.execute(db);
    await sql`alter table webhook_attempts add constraint webhook_attempts_delivery_id_fkey
      foreign key (delivery_id) references webhook_deliveries (id) on delete cascade`.execute(db);
  } else {
    await createLog(db, 'webhook_attempts_previous', 'delivery');
    await sql.raw(`insert into webhook_attempts_previous (${COLUMNS}) select ${COLUMNS} from webhook_attempts`).execute(db);
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.alterTable('webhook_attempts_previous').renameTo('webhook_attempts').execute();
    await db.schema.createIndex('webhook_attempts_endpoint_attempted').on('webhook_attempts').columns(['endpoint_id', 'attempted_at', 'id']).execute();
  }
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').column('delivery_id').execute();
}

/** The attempt log's columns as 0501 made them, its key on the endpoint or on the delivery. */
async function createLog(db: Kysely<any>, name: string, owner: 'endpoint' | 'delivery'): Promise<void> {
  const key = (column: 'endpoint' | 'delivery') => (c: ColumnDefinitionBuilder) =>
    owner !== column ? c.notNull() : c.notNull().references(column === 'endpoint' ? 'webhook_endpoints.id' : 'webhook_deliveries.id').onDelete('cascade');
  await db.schema
    .createTable(name)
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', key('delivery'))
    .addColumn('endpoint_id', 'text', key('endpoint'))
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
}
