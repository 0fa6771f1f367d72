/**
 * Every store and integration test runs against every database: SQLite always, PostgreSQL
 * when GATEHOUSE_TEST_DATABASE_URL is set. Each suite gets a database of its own (a fresh
 * SQLite file, or a fresh PostgreSQL database), so runs and parallel files never collide.
 * A suite that needs a service the environment may not name (PostgreSQL, Redis) is reported
 * as skipped, with the variable to set, when it is absent: a run never counts a file that
 * tested nothing as passed.
 */
import { describe, it } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Migrator, type Migration } from 'kysely';
import type { DatabaseKind } from '../../src/config.ts';
import type { Database } from '../../src/platform/db/database.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';

export interface DatabaseTarget {
  kind: DatabaseKind;
  /** Creates an empty database and returns its URL plus a function that removes it. */
  create(): Promise<{ url: string; drop(): Promise<void> }>;
}

const sqliteTarget: DatabaseTarget = {
  kind: 'sqlite',
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-test-'));
    return {
      url: `sqlite:${path.join(dir, 'gatehouse.db')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** One statement on a connection of its own, opened and closed around it (setup and inspection, not the code under test). */
export async function queryOnce<R extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function admin(baseUrl: string, statement: string): Promise<void> {
  await queryOnce(baseUrl, statement);
}

/**
 * A fresh database per suite (from template0, which nobody connects to, so creations may run
 * in parallel). Databases rather than schemas: catalogue introspection then never sees another
 * suite's objects while that suite is dropping them.
 */
function postgresTarget(baseUrl: string): DatabaseTarget {
  return {
    kind: 'postgres',
    async create() {
      const name = `gatehouse_t_${process.pid}_${randomBytes(6).toString('hex')}`;
      await admin(baseUrl, `create database ${name} template template0`);
      const url = new URL(baseUrl);
      url.pathname = `/${name}`;
      return {
        url: url.href,
        drop: () => admin(baseUrl, `drop database if exists ${name} with (force)`),
      };
    },
  };
}

export function databaseTargets(): DatabaseTarget[] {
  const pgUrl = process.env.GATEHOUSE_TEST_DATABASE_URL;
  return pgUrl ? [sqliteTarget, postgresTarget(pgUrl)] : [sqliteTarget];
}

/** Why a suite that runs only on PostgreSQL was skipped. */
export const NEEDS_POSTGRES = 'set GATEHOUSE_TEST_DATABASE_URL to run on PostgreSQL';

/**
 * `describe(name)` running `suite` with `needed` (a service's URL, a target) when it is set;
 * otherwise `suite` does not run and `name` is reported as a skipped test with `reason`, so
 * the run's count of skipped tests shows it.
 */
export function describeIf<T>(needed: T | undefined, reason: string, name: string, suite: (needed: T) => void): void {
  if (needed === undefined) it(name, { skip: reason });
  else describe(name, () => suite(needed));
}

/** A suite on one kind of database; on PostgreSQL, skipped with the reason when none is set. */
export function describeOnDatabase(kind: DatabaseKind, name: string, suite: (target: DatabaseTarget) => void): void {
  describeIf(databaseTargets().find((target) => target.kind === kind), NEEDS_POSTGRES, name, suite);
}

/** A migrator over every migration, for tests that stop at one or go back to it. */
export function migratorFor(database: Database): Migrator {
  return new Migrator({
    db: database.db,
    migrationTableSchema: database.schema,
    allowUnorderedMigrations: true,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
  });
}
