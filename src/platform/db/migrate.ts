/**
 * One ordered list of migrations for both databases, applied by `serve` at start and by
 * `gatehouse migrate`. Nodes starting at once on one PostgreSQL database take turns under an
 * advisory lock held around the whole run (creating the migrator's own bookkeeping tables
 * included, which Kysely does before its own lock), so each migration is applied exactly once
 * and a node starts serving only after the schema is complete.
 *
 * Migrations are numbered by capability (0001 platform, 01xx OAuth, 02xx payments, 03xx
 * idempotency, 04xx SCIM, 05xx webhooks) and never edited once released.
 */
import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.ts';
import { migrations } from './migrations/index.ts';

export async function migrateToLatest(database: Database): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: database.db,
    // Named explicitly: otherwise the migrator may take another schema's bookkeeping tables for its own.
    migrationTableSchema: database.schema,
    // Numbers are ranges per capability, so a capability's new migration may sort before
    // another capability's released one; each applies independently.
    allowUnorderedMigrations: true,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
  });
  const result = await database.exclusive('migrations', () => migrator.migrateToLatest());
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const error = new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(result.error)}`, {
      cause: result.error,
    });
    throw error;
  }
  return result;
}
