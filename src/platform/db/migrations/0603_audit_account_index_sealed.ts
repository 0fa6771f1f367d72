/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * The account's index by time holds sealed records only, as the other read indexes do since
 * 0602: every read of an account's records already runs once over the sealed records and once
 * over the unsealed few, which `audit_events_unsealed` holds under the same columns. So an
 * audited write enters its table, its key and the unsealed index, and nothing else: one b-tree
 * fewer in the write's transaction (on SQLite one page fewer in its commit), its entry here
 * added by the sealer, off the request's path (docs/BENCHMARKS.md, "The audit trail's write-path
 * cost").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_events_account_time').execute();
  await db.schema.createIndex('audit_events_account_time').on('audit_events').columns(['account_id', 'occurred_at', 'id']).where(sql.ref('seq'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_events_account_time').execute();
  await db.schema.createIndex('audit_events_account_time').on('audit_events').columns(['account_id', 'occurred_at', 'id']).execute();
}
