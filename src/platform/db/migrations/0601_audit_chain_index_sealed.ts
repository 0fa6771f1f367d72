/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * The chain's index holds sealed records only. A record is written with `seq` null and gets its
 * place from the sealer, in the background; every read of the chain asks for places (`seq >=`),
 * which only sealed records have. So the write no longer adds an entry to this index: the sealer
 * does, off the request's path (docs/BENCHMARKS.md, "The audit trail's write-path cost").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_events_chain').execute();
  await db.schema.createIndex('audit_events_chain').on('audit_events').columns(['account_id', 'seq']).unique().where(sql.ref('seq'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_events_chain').execute();
  await db.schema.createIndex('audit_events_chain').on('audit_events').columns(['account_id', 'seq']).unique().execute();
}
