/**
 * Migration 0503: the webhook queue's indexes hold only open deliveries (the due index only
 * pending ones, the recovery index only parked ones). Migration 0504: on PostgreSQL the attempt
 * log follows its endpoint by a trigger, not a key checked per attempt. Each goes down and up again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { databaseTargets, migratorFor } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';

async function indexDefinition(database: Database, name: string): Promise<string | undefined> {
  const { rows } =
    database.kind === 'sqlite'
      ? await sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'index' and name = ${name}`.execute(database.db)
      : await sql<{ definition: string }>`select indexdef as definition from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(database.db);
  return rows[0]?.definition.toLowerCase().replaceAll('"', '');
}

/** PostgreSQL's storage setting for the deliveries' pages (SQLite has none). */
async function fillfactor(database: Database): Promise<string | undefined> {
  if (database.kind === 'sqlite') return undefined;
  const { rows } = await sql<{ options: string[] | null }>`select reloptions as options from pg_class where oid = 'webhook_deliveries'::regclass`.execute(database.db);
  return rows[0]?.options?.find((o) => o.startsWith('fillfactor='));
}

/** How the attempt log is tied to its endpoint: by a foreign key, by a deletion trigger, or both. */
async function attemptLogOwner(database: Database): Promise<{ key: boolean; trigger: boolean }> {
  if (database.kind === 'sqlite') {
    const { rows } = await sql<{ table: string }>`select "table" from pragma_foreign_key_list('webhook_attempts')`.execute(database.db);
    return { key: rows.some((r) => r.table === 'webhook_endpoints'), trigger: false };
  }
  const { rows } = await sql<{ key: boolean; trigger: boolean }>`
    select exists (select 1 from pg_constraint where conrelid = 'webhook_attempts'::regclass and contype = 'f') as key,
      exists (select 1 from pg_trigger where tgrelid = 'webhook_endpoints'::regclass and tgname = 'webhook_attempts_follow_endpoint') as trigger`.execute(database.db);
  return rows[0]!;
}

for (const target of databaseTargets()) {
  describe(`webhook queue indexes (${target.kind})`, () => {
    it('0503 makes the due index pending-only and adds a parked-only one (PostgreSQL: pages half full); down restores 0502', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /\(next_attempt_at\) where \(?state = 'pending'/);
        assert.match((await indexDefinition(database, 'webhook_deliveries_parked'))!, /\(endpoint_id, created_at\) where \(?state = 'parked'/);
        assert.equal(await fillfactor(database), database.kind === 'postgres' ? 'fillfactor=50' : undefined);

        assert.equal((await migrator.migrateTo('0502_webhook_write_path')).error, undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /\(state, next_attempt_at\)$/);
        assert.equal(await indexDefinition(database, 'webhook_deliveries_parked'), undefined);
        assert.equal(await fillfactor(database), database.kind === 'postgres' ? 'fillfactor=80' : undefined);

        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /where \(?state = 'pending'/);
      } finally {
        await database.close();
        await created.drop();
      }
    });

    it('0504: on PostgreSQL a deletion trigger replaces the attempt log\'s key (SQLite keeps its key); down restores the key', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        const postgres = database.kind === 'postgres';
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.deepEqual(await attemptLogOwner(database), { key: !postgres, trigger: postgres });
        assert.equal((await migrator.migrateTo('0503_webhook_open_deliveries')).error, undefined);
        assert.deepEqual(await attemptLogOwner(database), { key: true, trigger: false });
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.deepEqual(await attemptLogOwner(database), { key: !postgres, trigger: postgres });
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}
