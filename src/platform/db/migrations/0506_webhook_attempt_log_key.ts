/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The attempt log is read one way: an endpoint's attempts, newest first (the attempt log of
// endpoint 10), which its index on (endpoint_id, attempted_at, id) serves. No query finds an
// attempt by its id alone, and attempt ids are unique by construction (time-ordered, with
// twelve random base-62 characters), so the key on `id` was an index every attempt wrote for
// nothing. The listing's columns become the primary key instead: each attempt recorded writes
// one index, not two.
//
// SQLite stores the table itself in that order (WITHOUT ROWID): one B-tree, where there were
// three (the rows, the key on id and the listing index). Rows are small; a failed attempt's
// excerpt (at most 1 KiB) is the largest part of any.
const COLUMNS =
  'id, account_id, delivery_id, endpoint_id, event_id, event_type, outcome, response_status, response_body, error, latency_ms, attempted_at';

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table webhook_attempts drop constraint webhook_attempts_pkey`.execute(db);
    await sql`alter table webhook_attempts add constraint webhook_attempts_pkey primary key (endpoint_id, attempted_at, id)`.execute(db);
    await db.schema.dropIndex('webhook_attempts_endpoint_attempted').execute();
    return;
  }
  await createLog(db, 'webhook_attempts_next', 'listing');
  await sql.raw(`insert into webhook_attempts_next (${COLUMNS}) select ${COLUMNS} from webhook_attempts`).execute(db);
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.alterTable('webhook_attempts_next').renameTo('webhook_attempts').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await db.schema.createIndex('webhook_attempts_endpoint_attempted').on('webhook_attempts').columns(['endpoint_id', 'attempted_at', 'id']).execute();
    await sql`alter table webhook_attempts drop constraint webhook_attempts_pkey`.execute(db);
    await sql`alter table webhook_attempts add constraint webhook_attempts_pkey primary key (id)`.execute(db);
    return;
  }
  await createLog(db, 'webhook_attempts_previous', 'id');
  await sql.raw(`insert into webhook_attempts_previous (${COLUMNS}) select ${COLUMNS} from webhook_attempts`).execute(db);
  await db.schema.dropTable('webhook_attempts').execute();
  await db.schema.alterTable('webhook_attempts_previous').renameTo('webhook_attempts').execute();
  await db.schema.createIndex('webhook_attempts_endpoint_attempted').on('webhook_attempts').columns(['endpoint_id', 'attempted_at', 'id']).execute();
}

/** SQLite's attempt log as 0502 made it, keyed by its id or (from here on) by the listing's columns. */
async function createLog(db: Kysely<any>, name: string, key: 'id' | 'listing'): Promise<void> {
  let table = db.schema
    .createTable(name)
    .addColumn('id', 'text', (c) => (key === 'id' ? c.primaryKey() : c.notNull()))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    /** succeeded | failed */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('error', 'text')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('attempted_at', 'bigint', (c) => c.notNull());
  if (key === 'listing') table = table.addPrimaryKeyConstraint('webhook_attempts_pkey', ['endpoint_id', 'attempted_at', 'id']).modifyEnd(sql`without rowid`);
  await table.execute();
}
