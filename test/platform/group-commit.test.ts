/**
 * Group commit on SQLite (src/platform/db/group-commit.ts): work submitted together shares one
 * transaction, each in a savepoint of its own, and nobody hears back before the COMMIT. A second
 * connection to the same file shows what is committed at each moment.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { openDatabase, type Database, type Db } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { createGroupCommit, type GroupCommit } from '../../src/platform/db/group-commit.ts';

const [sqlite] = databaseTargets().filter((target) => target.kind === 'sqlite');

async function accountIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('accounts').select('id').orderBy('id').execute()).map((row) => row.id);
}

async function addAccount(db: Db, id: string): Promise<void> {
  await db.insertInto('accounts').values({ id, name: id, created_at: 0 }).execute();
}

describe('group commit (sqlite)', () => {
  let drop: () => Promise<void>;
  let writer: Database;
  let observer: Database;
  let group: GroupCommit;

  before(async () => {
    const created = await sqlite!.create();
    drop = created.drop;
    writer = await openDatabase({ databaseUrl: created.url });
    await migrateToLatest(writer);
    // A foreign key checked only at COMMIT lets a test make the COMMIT itself fail.
    await sql`create table deferred_refs (id text primary key, account_id text references accounts (id) deferrable initially deferred)`.execute(writer.db);
    observer = await openDatabase({ databaseUrl: created.url });
    group = createGroupCommit({ db: writer.db });
  });

  after(async () => {
    await observer.close();
    await writer.close();
    await drop();
  });

  it('work submitted together shares one transaction: each sees its predecessors, nothing is committed until all ran, and every caller hears back after the COMMIT', async () => {
    const seen: Array<{ inBatch: string[]; committed: string[] }> = [];
    const heard: string[][] = [];
    const submit = (id: string) =>
      group
        .run(async (trx) => {
          await addAccount(trx, id);
          seen.push({ inBatch: await accountIds(trx), committed: await accountIds(observer.db) });
          return id;
        })
        .then(async (value) => {
          heard.push(await accountIds(observer.db));
          return value;
        });

    assert.deepEqual(await Promise.all([submit('acct_a'), submit('acct_b'), submit('acct_c')]), ['acct_a', 'acct_b', 'acct_c']);
    assert.deepEqual(seen, [
      { inBatch: ['acct_a'], committed: [] },
      { inBatch: ['acct_a', 'acct_b'], committed: [] },
      { inBatch: ['acct_a', 'acct_b', 'acct_c'], committed: [] },
    ]);
    assert.deepEqual(heard, [['acct_a', 'acct_b', 'acct_c'], ['acct_a', 'acct_b', 'acct_c'], ['acct_a', 'acct_b', 'acct_c']]);
    await writer.db.deleteFrom('accounts').execute();
  });

  it('a work that throws is rolled back alone: its caller gets its error, the others commit', async () => {
    const refused = new Error('refused');
    const outcomes = await Promise.allSettled([
      group.run((trx) => addAccount(trx, 'acct_d')),
      group.run(async (trx) => {
        await addAccount(trx, 'acct_e');
        throw refused;
      }),
      group.run(async (trx) => {
        await addAccount(trx, 'acct_f');
        return accountIds(trx);
      }),
    ]);
    assert.deepEqual(outcomes, [
      { status: 'fulfilled', value: undefined },
      { status: 'rejected', reason: refused },
      { status: 'fulfilled', value: ['acct_d', 'acct_f'] },
    ]);
    assert.deepEqual(await accountIds(observer.db), ['acct_d', 'acct_f']);
    await writer.db.deleteFrom('accounts').execute();
  });

  it('a COMMIT that fails fails every work of the batch and stores none of it; the next batch commits', async () => {
    const outcomes = await Promise.allSettled([
      group.run((trx) => addAccount(trx, 'acct_g')),
      group.run(async (trx) => {
        await sql`insert into deferred_refs (id, account_id) values ('ref_1', 'acct_missing')`.execute(trx);
      }),
      group.run((trx) => addAccount(trx, 'acct_h')),
    ]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: string }).code),
      ['SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_FOREIGNKEY'],
    );
    assert.deepEqual(await accountIds(observer.db), []);
    assert.equal((await sql<{ n: number }>`select count(*) as n from deferred_refs`.execute(observer.db)).rows[0]!.n, 0);

    await group.run((trx) => addAccount(trx, 'acct_i'));
    assert.deepEqual(await accountIds(observer.db), ['acct_i']);
    await writer.db.deleteFrom('accounts').execute();
  });

  it('at most maxBatch works share a COMMIT; the rest start the next batch', async () => {
    const small = createGroupCommit({ db: writer.db, maxBatch: 2 });
    const committedBefore: string[][] = [];
    await Promise.all(
      ['acct_j', 'acct_k', 'acct_l'].map((id) =>
        small.run(async (trx) => {
          committedBefore.push(await accountIds(observer.db));
          await addAccount(trx, id);
        }),
      ),
    );
    assert.deepEqual(committedBefore, [[], [], ['acct_j', 'acct_k']]);
    await writer.db.deleteFrom('accounts').execute();
  });
});
