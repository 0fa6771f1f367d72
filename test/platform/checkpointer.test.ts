/**
 * SQLite checkpoints in a worker thread (src/platform/db/checkpointer.ts): the worker's own
 * connection copies the log back into the database file while the writer goes on, and the
 * writer then starts the log over.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { startCheckpointer, type Checkpointer } from '../../src/platform/db/checkpointer.ts';
import { loadSqliteDriver } from '../../src/platform/db/sqlite-driver.ts';

describe('WAL checkpoints off the event loop (sqlite)', () => {
  const Sqlite = loadSqliteDriver();
  let dir: string;
  let file: string;
  let writer: BetterSqlite3.Database;
  let checkpointer: Checkpointer;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-checkpoint-'));
    file = path.join(dir, 'gatehouse.db');
    writer = new Sqlite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    // Only the worker checkpoints here.
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table notes (id integer primary key, body text not null)');
    checkpointer = startCheckpointer(file);
  });

  after(async () => {
    await checkpointer.stop();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (rows: number) => {
    const insert = writer.prepare('insert into notes (body) values (?)');
    writer.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run('x'.repeat(500));
    })();
  };

  it('copies every committed page of the log into the database file, and the writer then starts the log over', async () => {
    write(200);
    const first = await checkpointer.checkpoint();
    assert.ok(first !== undefined && first.log > 20, `the log held the writes: ${JSON.stringify(first)}`);
    assert.equal(first.checkpointed, first.log, 'every frame was copied');

    write(1);
    const second = await checkpointer.checkpoint();
    assert.ok(second !== undefined && second.log < first.log, `the next write started the log over: ${JSON.stringify(second)}`);
    assert.equal(second.checkpointed, second.log);

    const reader = new Sqlite(file, { readonly: true });
    try {
      assert.equal((reader.prepare('select count(*) as n from notes').get() as { n: number }).n, 201);
    } finally {
      reader.close();
    }
  });
});
