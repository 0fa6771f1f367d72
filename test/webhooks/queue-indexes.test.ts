/**
 * Migration 0503: the webhook queue's indexes hold only open deliveries (the due index only
 * pending ones, the recovery index only parked ones), and the migration goes down and up again.
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
  });
}
