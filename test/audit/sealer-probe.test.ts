/**
 * The audit sealer asks every second on every node whether anything is left to seal: idle, that
 * round must be one probe of the index of unsealed records (`audit_events_unsealed`), not a read
 * of the trail, however long the trail has grown. Checked on each database's own plan, over a
 * trail of sealed records with the statistics taken.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { accountsToSeal } from '../../src/audit/sealer.ts';

const SEALED = 20_000;

async function planOf(database: Database): Promise<string> {
  const probe = accountsToSeal.bind(database.db, {});
  const explain = database.dialect.name === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + probe.sql, [...probe.parameters]));
  return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
}

async function writeSealedTrail(database: Database): Promise<void> {
  const rows = Array.from({ length: SEALED }, (_, i) => ({
    id: `aud_${String(i).padStart(8, '0')}`,
    account_id: `acct_${i % 20}`,
    occurred_at: i,
    action: 'user.created',
    actor_type: 'admin',
    actor_id: 'admin',
    target_type: 'user',
    target_id: `usr_${i}`,
    seq: Math.floor(i / 20) + 1,
    hash: 'h',
    prev_hash: 'p',
  }));
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('audit_events').values(rows.slice(i, i + 500)).execute();
  });
  await database.db.executeQuery(CompiledQuery.raw('analyze'));
}

for (const target of databaseTargets()) {
  describe(`audit sealer when idle (${target.kind})`, () => {
    it('a round with nothing to seal is one probe of the unsealed index, whatever the length of the sealed trail', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        await migrateToLatest(database);
        await writeSealedTrail(database);
        const plan = await planOf(database);
        assert.match(plan, /audit_events_unsealed/, plan);
        assert.doesNotMatch(plan, /Seq Scan|SCAN audit_events(?! USING)/, plan);
        assert.deepEqual((await accountsToSeal.execute(database.db, {})).rows, []);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}
