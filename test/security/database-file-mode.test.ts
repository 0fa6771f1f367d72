/**
 * An SQLite database Gatehouse creates is readable by its owner only, and so are the -wal and
 * -shm files SQLite makes beside it: they hold password hashes, people's data and the trail.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('SQLite database files', () => {
  it('a new database and its -wal and -shm are 0600, its new directory 0700; an existing file keeps the mode it was given', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-file-mode-'));
    try {
      const file = path.join(dir, 'data', 'gatehouse.db');
      const database = await openDatabase({ databaseUrl: `sqlite:${file}` });
      try {
        await migrateToLatest(database);
        for (const f of [file, `${file}-wal`, `${file}-shm`]) assert.equal(modeOf(f).toString(8), '600', f);
        assert.equal(modeOf(path.dirname(file)).toString(8), '700');
      } finally {
        await database.close();
      }
      const shared = path.join(dir, 'shared.db');
      fs.writeFileSync(shared, '');
      fs.chmodSync(shared, 0o640);
      const kept = await openDatabase({ databaseUrl: `sqlite:${shared}` });
      await kept.close();
      assert.equal(modeOf(shared).toString(8), '640');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
