/**
 * Migration 0701: consents of people deleted before deletion forgot them are forgotten; those of
 * people still present, deactivated or not, are kept.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets, migratorFor } from '../helpers/databases.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';

for (const target of databaseTargets()) {
  describe(`migration 0701 (${target.kind})`, () => {
    it('forgets the consents of people no longer there and keeps the others', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const before = await migratorFor(database).migrateTo('0700_oidc');
        assert.equal(before.error, undefined);
        const { db } = database;
        await db.insertInto('accounts').values({ id: 'acct_m', name: 'M', created_at: 1 }).execute();
        for (const [id, active] of [['usr_kept', 1], ['usr_off', 0]] as const) {
          await db.insertInto('users').values({ id, account_id: 'acct_m', user_name: id, user_name_lower: id, active, created_at: 1, updated_at: 1 } as never).execute();
        }
        for (const user_id of ['usr_kept', 'usr_off', 'usr_deleted']) {
          await db.insertInto('oauth_consents').values({ account_id: 'acct_m', user_id, client_id: 'cli_1', scope: 'openid', updated_at: 1 }).execute();
        }
        await migrateToLatest(database);
        const kept = await db.selectFrom('oauth_consents').select('user_id').orderBy('user_id').execute();
        assert.deepEqual(kept.map((row) => row.user_id), ['usr_kept', 'usr_off']);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}
