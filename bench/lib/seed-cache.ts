/**
 * Seeded bench data kept between runs: seeding a million rows takes minutes on a busy machine
 * and is not what is measured. A cache entry is a SQLite file in bench/.cache (or a schema on
 * PostgreSQL) plus a small JSON record; its name carries the seed's name and a digest of the
 * migration list, so a schema change builds it afresh. The record is written only after the
 * seeding finished, so an interrupted seeding is never reused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import type { BenchDatabase } from '../run.ts';

export interface SeedRecord {
  accountId: string;
  /** How long building it took, seconds. */
  seconds: number;
  builtAt: string;
  /** Base64 of the paging cursor key the seeded cursors are sealed with. */
  cursorKey: string;
}

const CACHE_DIR = path.join('bench', '.cache');

export function seedCache(name: string, database: BenchDatabase) {
  const schemaDigest = createHash('sha256').update(Object.keys(migrations).join(',')).digest('hex').slice(0, 10);
  const id = `${name}-${schemaDigest}`;
  const recordFile = path.join(CACHE_DIR, `${id}-${database.kind}.json`);
  const sqliteFile = path.resolve(CACHE_DIR, `${id}.db`);
  const schema = `bench_${id.replace(/[^a-z0-9]/gi, '_')}`.toLowerCase();
  const url =
    database.kind === 'sqlite'
      ? `sqlite:${sqliteFile}`
      : (() => {
          const u = new URL(database.url!);
          u.searchParams.set('schema', schema);
          return u.href;
        })();

  async function postgres(statement: string, values: unknown[] = []): Promise<pg.QueryResult> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return await client.query(statement, values);
    } finally {
      await client.end();
    }
  }

  return {
    url,
    /** The record of a complete earlier seeding whose data is still there. */
    async find(): Promise<SeedRecord | undefined> {
      if (!fs.existsSync(recordFile)) return undefined;
      const record = JSON.parse(fs.readFileSync(recordFile, 'utf8')) as SeedRecord;
      if (database.kind === 'sqlite') return fs.existsSync(sqliteFile) ? record : undefined;
      const found = await postgres(`select 1 from ${schema}.accounts where id = $1`, [record.accountId]).catch(() => undefined);
      return found?.rowCount ? record : undefined;
    },
    async clear(): Promise<void> {
      fs.mkdirSync(CACHE_DIR, { recursive: true });
      fs.rmSync(recordFile, { force: true });
      if (database.kind === 'sqlite') for (const suffix of ['', '-wal', '-shm']) fs.rmSync(sqliteFile + suffix, { force: true });
      else await postgres(`drop schema if exists ${schema} cascade`);
    },
    async save(record: SeedRecord): Promise<void> {
      fs.writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    },
  };
}
