/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * The trail's read indexes by actor, by target and across accounts by time hold sealed records
 * only. A record is written with `seq` null and enters them when the sealer gives it its place,
 * in the background; until then the reads take it from the index of unsealed records, which is
 * small (the sealer empties it every second or two). So an audited write enters three b-trees
 * fewer: its table, its key, the account's index by time and the unsealed index are all it
 * touches (docs/BENCHMARKS.md, "The audit trail's write-path cost").
 */
const SEALED_ONLY: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['audit_events_actor', ['actor_id', 'occurred_at']],
  ['audit_events_target', ['target_id', 'occurred_at']],
  ['audit_events_time', ['occurred_at', 'id']],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of SEALED_ONLY) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('audit_events').columns([...columns]).where(sql.ref('seq'), 'is not', null).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of SEALED_ONLY) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('audit_events').columns([...columns]).execute();
  }
}
