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
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { Migrator, type Migration } from 'kysely';
import type { DatabaseKind } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';

export interface DatabaseTarget {
  kind: DatabaseKind;
  /** Creates an empty database and returns its URL plus a function that removes it. */
  create(): Promise<{ url: string; drop(): Promise<void> }>;
  /**
   * As create(), with every migration already applied, where the target has a faster way than a
   * start's own migration run (PostgreSQL: a copy of a migrated template). For apps under test
   * whose start is not what is tested; tests of migrating use create().
   */
  createMigrated?(): Promise<{ url: string; drop(): Promise<void> }>;
}

/**
 * The secrets key of every app and command the tests start on PostgreSQL, where one must be set
 * (src/platform/secrets-key.ts). On SQLite none is set, so the generated key file is what runs.
 */
export const TEST_POSTGRES_SECRETS_KEY = createHash('sha256').update('gatehouse tests: secrets key').digest('base64');

/** GATEHOUSE_SECRETS_KEY for a database URL that needs one (PostgreSQL), else nothing. */
export function secretsKeyEnvFor(databaseUrl: string): { GATEHOUSE_SECRETS_KEY?: string } {
  return databaseUrl.startsWith('sqlite:') ? {} : { GATEHOUSE_SECRETS_KEY: TEST_POSTGRES_SECRETS_KEY };
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
  const createFrom = async (template: string) => {
    const name = `gatehouse_t_${process.pid}_${randomBytes(6).toString('hex')}`;
    await admin(baseUrl, `create database ${name} template ${template}`);
    return {
      url: databaseUrl(baseUrl, name),
      drop: () => admin(baseUrl, `drop database if exists ${name} with (force)`),
    };
  };
  return {
    kind: 'postgres',
    create: () => createFrom('template0'),
    createMigrated: async () => createFrom(await migratedTemplate(baseUrl)),
  };
}

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.href;
}

let template: Promise<string> | undefined;

/**
 * A template database with every migration applied, which nobody connects to once built (so
 * copies may be made in parallel). Migrating takes a PostgreSQL app's start about a second;
 * copying the template costs what copying template0 does. Its name carries a digest of the
 * migrations' source, so a changed or added migration gets a template of its own. Test
 * processes run at once: the first to need it builds it under an advisory lock, the others
 * wait and find it; one left half-built by a process that died is not marked a template and
 * is built again.
 */
function migratedTemplate(baseUrl: string): Promise<string> {
  template ??= buildTemplate(baseUrl).catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

async function buildTemplate(baseUrl: string): Promise<string> {
  const name = `gatehouse_template_${migrationsDigest()}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await client.query<{ datistemplate: boolean }>('select datistemplate from pg_database where datname = $1', [name]);
    if (found.rows[0]?.datistemplate) return name;
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name} template template0`);
    const database = await openDatabase({ databaseUrl: databaseUrl(baseUrl, name), poolSize: 1 });
    try {
      await migrateToLatest(database);
    } finally {
      await database.close();
    }
    await client.query(`alter database ${name} with is_template true allow_connections false`);
    return name;
  } finally {
    await client.end(); // and with the session, its advisory lock
  }
}

function migrationsDigest(): string {
  const dir = path.resolve('src/platform/db/migrations');
  const digest = createHash('sha256');
  for (const file of fs.readdirSync(dir).sort()) digest.update(file).update(fs.readFileSync(path.join(dir, file)));
  return digest.digest('hex').slice(0, 16);
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
