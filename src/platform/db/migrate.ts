/**
 * One ordered list of migrations for both databases, applied by `serve` at start and by
 * `gatehouse migrate`. Nodes starting at once on one PostgreSQL database take turns under an
 * advisory lock held around the whole run (creating the migrator's own bookkeeping tables
 * included, which Kysely does before its own lock), so each migration is applied exactly once
 * and a node starts serving only after the schema is complete.
 *
 * Commands that read the data (`audit export`, `audit verify`) or change its keys (`rotate-keys`)
 * require a migrated database instead (`requireMigrated`).
 *
 * Migrations are numbered by capability (0001 platform, 01xx OAuth, 02xx payments, 03xx
 * idempotency, 04xx SCIM, 05xx webhooks) and never edited once released.
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.ts';
import type { Tables } from './tables.ts';
import { migrations } from './migrations/index.ts';

/** What a migration run says while it runs: that it waits for another node's, and what it applies. */
export interface MigrationProgress {
  waiting?(): void;
  /** Before a run that has migrations to apply (a long one may take minutes), their names. */
  applying?(names: string[]): void;
  applied?(name: string): void;
}

function migratorOn(database: Database, db: Kysely<Tables>): Migrator {
  return new Migrator({
    db,
    // Named explicitly: otherwise the migrator may take another schema's bookkeeping tables for its own.
    migrationTableSchema: database.schema,
    // Numbers are ranges per capability, so a capability's new migration may sort before
    // another capability's released one; each applies independently.
    allowUnorderedMigrations: true,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
  });
}

/**
 * The migrations run on PostgreSQL: on one pooled connection whose statement timeout is lifted
 * for them. `GATEHOUSE_DATABASE_STATEMENT_TIMEOUT` bounds what a request may wait; a migration
 * rewrites or indexes whole tables, and cancelled at 15 s it would fail every node's start alike.
 */
async function migrateUnbounded(database: Database): Promise<MigrationResultSet> {
  return database.db.connection().execute(async (connection) => {
    await sql`set statement_timeout = 0`.execute(connection);
    try {
      return await migratorOn(database, connection).migrateToLatest();
    } finally {
      // Back to the connection's own setting before the pool lends it to a request.
      await sql`reset statement_timeout`.execute(connection);
    }
  });
}

export async function migrateToLatest(database: Database, progress: MigrationProgress = {}): Promise<MigrationResultSet> {
  const result = await database.exclusive(
    'migrations',
    async () => {
      if (progress.applying) {
        const pending = await pendingMigrations(database);
        if (pending.length > 0) progress.applying(pending);
      }
      return database.dialect.name === 'postgres' ? migrateUnbounded(database) : migratorOn(database, database.db).migrateToLatest();
    },
    progress.waiting,
  );
  for (const applied of result.results ?? []) if (applied.status === 'Success') progress.applied?.(applied.migrationName);
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const error = new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(result.error)}`, {
      cause: result.error,
    });
    throw error;
  }
  return result;
}

/**
 * The migrations of this release the database has not applied. Commands that only read the
 * service's data (or change keys in it) refuse to run on a database behind them rather than
 * migrate it: on a host upgraded ahead of the fleet, a scheduled `audit verify` would otherwise
 * change the schema under every node still running the release before.
 */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const known = await migratorOn(database, database.db).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Thrown by `requireMigrated`: the message says what to run. */
export class DatabaseBehind extends Error {}

export async function requireMigrated(database: Database): Promise<void> {
  const pending = await pendingMigrations(database);
  if (pending.length > 0) {
    throw new DatabaseBehind(
      `the database is behind this release: ${pending.length} migration(s) not applied (${pending.join(', ')}); run \`gatehouse migrate\` first (this command does not change the schema)`,
    );
  }
}
