/**
 * What each database is sent, read as SQL text and parameters without a server: SQLite
 * through the project's own dialect on an in-memory database (its query compiler writes LIMIT
 * as a literal), PostgreSQL through kysely's stock PostgreSQL compiler over a driver that never
 * connects (the project uses the stock PostgresDialect).
 */
import { after } from 'node:test';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { DatabaseKind } from '../../src/config.ts';
import { openDatabase, type Db } from '../../src/platform/db/database.ts';

const postgres: Db = new Kysely({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** A compiling Kysely per database; the in-memory SQLite one is closed when the file's tests end. */
export async function compilers(): Promise<Record<DatabaseKind, Db>> {
  const sqlite = await openDatabase({ databaseUrl: 'sqlite::memory:' });
  after(() => sqlite.close());
  return { sqlite: sqlite.db, postgres };
}
