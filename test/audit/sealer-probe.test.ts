/**
 * The audit sealer asks every second on every node whether anything is left to seal: idle, that
 * round must be one probe of the index of unsealed records (`audit_events_unsealed`), not a read
 * of the trail, however long the trail has grown. Checked on each database's own plan, over a
 * trail of sealed records with the statistics taken.
 *
 * Busy, a pass seals what was pending when it began, a batch per account, and goes round again
 * only for a backlog: a record committed during the pass waits for the next tick, so under
 * steady writes the sealer spends one transaction per account per tick, not one per few records.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { randomBytes } from 'node:crypto';
import { accountsToSeal, createAuditSealer } from '../../src/audit/sealer.ts';
import { recordAudit } from '../../src/audit/record.ts';
import { createTestClock } from '../../src/platform/clock.ts';

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
  describe(`audit sealer rounds (${target.kind})`, () => {
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

    it('a pass seals a backlog beyond one batch, and leaves a record committed during the pass to the next tick', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        await migrateToLatest(database);
        const { db } = database;
        const clock = createTestClock();
        const write = () => {
          clock.advance(1);
          return recordAudit(db, { actor: { type: 'admin', id: 'admin_api' } }, { accountId: 'acct_a', action: 'account.updated', target: { type: 'account', id: 'acct_a' }, at: clock.now() });
        };
        const unsealed = async () => (await db.selectFrom('audit_events').select('id').where('seq', 'is', null).execute()).map((row) => row.id);
        // Checkpoints every pass, and the signer commits a record of the account while the pass runs.
        const writtenDuringPass: string[] = [];
        const signer = {
          sign: async () => {
            if (writtenDuringPass.length === 0) writtenDuringPass.push(await write());
            return 'unsigned';
          },
        };
        const sealer = createAuditSealer({ db, clock, macKey: randomBytes(32), signer, issuer: 'test', checkpointIntervalMs: 0, batchSize: 2 });
        for (let i = 0; i < 5; i++) await write();

        // Batches of 2, 2 and 1: the backlog is sealed in the one pass; the record written during
        // the first round's checkpoint, after the five, is sealed in that pass's last batch.
        assert.equal(await sealer.sealPending(), 6);
        assert.deepEqual(await unsealed(), []);

        const late = await write();
        const quiet = createAuditSealer({ db, clock, macKey: randomBytes(32), signer: { sign: async () => { writtenDuringPass.push(await write()); return 'unsigned'; } }, issuer: 'test', checkpointIntervalMs: 0 });
        assert.equal(await quiet.sealPending(), 1, 'the pass seals the one record pending when it began');
        const committedDuringPass = writtenDuringPass.slice(1);
        assert.equal(committedDuringPass.length, 1, 'one checkpoint signed in the pass');
        assert.deepEqual(await unsealed(), committedDuringPass, 'the record committed during the pass waits for the next one');
        const { seq } = await db.selectFrom('audit_events').select('seq').where('id', '=', late).executeTakeFirstOrThrow();
        assert.equal(Number(seq), 7);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}
