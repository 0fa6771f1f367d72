/**
 * The SQLite driver matched to the running Node (src/platform/db/sqlite-driver.ts):
 * better-sqlite3 12 on Node 20, better-sqlite3 13 (installed as better-sqlite3-node22) on
 * Node 22 and later, and an error naming the driver and what to run when it cannot load.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  SQLITE_DRIVER_NODE20,
  SQLITE_DRIVER_NODE22,
  loadSqliteDriver,
  sqliteDriverError,
  sqliteDriverFor,
  sqliteDriverPath,
} from '../../src/platform/db/sqlite-driver.ts';

describe('SQLite driver matched to the running Node', () => {
  it('picks better-sqlite3 12 on Node 20 and better-sqlite3 13 on Node 22 and later', () => {
    assert.equal(sqliteDriverFor('20.19.0'), SQLITE_DRIVER_NODE20);
    assert.equal(sqliteDriverFor('20.20.2'), SQLITE_DRIVER_NODE20);
    assert.equal(sqliteDriverFor('22.14.0'), SQLITE_DRIVER_NODE22);
    assert.equal(sqliteDriverFor('24.21.0'), SQLITE_DRIVER_NODE22);
    assert.equal(sqliteDriverFor('26.0.0'), SQLITE_DRIVER_NODE22);
  });

  it('loads the release matched to this Node, and it opens a database', () => {
    const expected = sqliteDriverFor(process.versions.node);
    const manifest = path.join(path.dirname(sqliteDriverPath()), '..', 'package.json');
    const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
    assert.ok(sqliteDriverPath().includes(`${path.sep}${expected.module}${path.sep}`), sqliteDriverPath());
    assert.equal(version.split('.')[0], expected === SQLITE_DRIVER_NODE22 ? '13' : '12');

    const Sqlite = loadSqliteDriver();
    assert.equal(loadSqliteDriver(), Sqlite, 'loaded once');
    const connection = new Sqlite(':memory:');
    try {
      assert.deepEqual(connection.prepare('select 1 + 1 as two').get(), { two: 2 });
    } finally {
      connection.close();
    }
  });

  it('says which driver failed, for which Node, why, and what to run', () => {
    const cause = new Error("Cannot find module 'better-sqlite3-node22'\nRequire stack: ...");
    const error = sqliteDriverError(SQLITE_DRIVER_NODE22, '24.21.0', cause);
    assert.equal(
      error.message,
      "cannot load the SQLite driver for Node 24.21.0: better-sqlite3-node22 (better-sqlite3 13, for Node 22 and later): Cannot find module 'better-sqlite3-node22'. " +
        'Run `npm ci` with this Node version (node_modules installed under another Node lack the driver it needs), ' +
        'or use PostgreSQL (GATEHOUSE_DATABASE_URL=postgres://...).',
    );
    assert.equal(error.cause, cause);
  });
});
