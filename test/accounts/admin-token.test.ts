/**
 * The admin token (admin/admin-token.ts): generated once per database when GATEHOUSE_ADMIN_TOKEN
 * is unset; revoked when the variable is set, so a node started later without it makes a new
 * one and never accepts the old again; on each database.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseTargets } from '../helpers/databases.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { setUpAdminToken } from '../../src/admin/admin-token.ts';

for (const target of databaseTargets()) {
  describe(`the admin token (${target.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('setting GATEHOUSE_ADMIN_TOKEN revokes a generated token: its digest and its file go, and a later start without the setting generates a new one', async () => {
      const created = await target.create();
      cleanups.push(created.drop);
      const database = await openDatabase({ databaseUrl: created.url });
      cleanups.push(() => database.close());
      await migrateToLatest(database);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-admin-token-'));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const setUp = (configured?: string) => setUpAdminToken({ db: database.db, clock: systemClock, configured, dataDir });
      const stored = () => database.db.selectFrom('settings').select('value').where('name', '=', 'admin_token_digest').execute();

      const first = await setUp();
      const generated = first.generated!.token;
      assert.equal(first.check(generated), true);
      assert.equal((await setUp()).check(generated), true, 'every node on the database accepts it');

      const configured = 'rotated-admin-token-0123456789';
      const replaced = await setUp(configured);
      assert.equal(replaced.revokedGenerated, true);
      assert.equal(replaced.check(generated), false);
      assert.equal(replaced.check(configured), true);
      assert.deepEqual(await stored(), []);
      assert.equal(fs.existsSync(path.join(dataDir, 'admin-token')), false, 'the file with the revoked token is gone');
      assert.equal((await setUp(configured)).revokedGenerated, undefined, 'said once');

      // A rotation: `new,old` on every node during the rolling restart accepts both, and nothing else.
      const next = 'next-admin-token-0123456789abcdef';
      const during = await setUp(`${next},${configured}`);
      assert.equal(during.check(next), true);
      assert.equal(during.check(configured), true);
      assert.equal(during.check(`${next},${configured}`), false);
      assert.equal(during.check(generated), false);

      // A node started without the setting (an env file not updated, a rollback).
      const later = await setUp();
      assert.equal(later.check(generated), false, 'the revoked token never comes back');
      assert.ok(later.generated && later.generated.token !== generated);
      assert.equal(later.check(later.generated.token), true);
    });
  });
}
