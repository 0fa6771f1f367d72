/**
 * Group commit on PostgreSQL, by key (src/platform/db/group-commit.ts): work of one key (an
 * account) submitted together shares one transaction, each in a savepoint of its own; a work
 * whose statement fails (which aborts a PostgreSQL transaction) is rolled back alone; work of
 * another key commits in a transaction of its own without waiting, unless both are combinable and
 * arrive together, when they share one. A second pool shows what is committed at each moment.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { openDatabase, type Database, type Db } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { createGroupCommit, type GroupCommit } from '../../src/platform/db/group-commit.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

async function accountIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('accounts').select('id').orderBy('id').execute()).map((row) => row.id);
}

async function addAccount(db: Db, id: string): Promise<void> {
  await db.insertInto('accounts').values({ id, name: id, created_at: 0 }).execute();
}

describe('group commit (postgres, by key)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let drop: () => Promise<void>;
  let writer: Database;
  let observer: Database;
  let group: GroupCommit;

  before(async () => {
    const created = await postgres!.create();
    drop = created.drop;
    writer = await openDatabase({ databaseUrl: created.url });
    await migrateToLatest(writer);
    observer = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
    group = createGroupCommit({ db: writer.db });
  });

  after(async () => {
    await observer?.close();
    await writer?.close();
    await drop?.();
  });

  it('work of one key shares a transaction: each sees its predecessors and nothing is committed until the last has run', async () => {
    const seen: Array<{ inBatch: string[]; committed: string[] }> = [];
    const submit = (id: string) =>
      group.run(async (trx) => {
        await addAccount(trx, id);
        seen.push({ inBatch: await accountIds(trx), committed: await accountIds(observer.db) });
        return id;
      }, 'acct_key');
    assert.deepEqual(await Promise.all([submit('acct_a'), submit('acct_b'), submit('acct_c')]), ['acct_a', 'acct_b', 'acct_c']);
    assert.deepEqual(seen, [
      { inBatch: ['acct_a'], committed: [] },
      { inBatch: ['acct_a', 'acct_b'], committed: [] },
      { inBatch: ['acct_a', 'acct_b', 'acct_c'], committed: [] },
    ]);
    assert.deepEqual(await accountIds(observer.db), ['acct_a', 'acct_b', 'acct_c']);
    await writer.db.deleteFrom('accounts').execute();
  });

  it('a work whose statement fails is rolled back alone: its caller gets the error, the works before and after it commit', async () => {
    const outcomes = await Promise.allSettled([
      group.run((trx) => addAccount(trx, 'acct_d'), 'acct_key'),
      group.run(async (trx) => {
        await addAccount(trx, 'acct_e');
        await addAccount(trx, 'acct_d'); // a unique violation: PostgreSQL aborts the transaction
      }, 'acct_key'),
      group.run(async (trx) => {
        await addAccount(trx, 'acct_f');
        return accountIds(trx);
      }, 'acct_key'),
    ]);
    assert.equal(outcomes[0].status, 'fulfilled');
    assert.equal(outcomes[1].status === 'rejected' && (outcomes[1].reason as { code?: string }).code, '23505');
    assert.deepEqual(outcomes[2], { status: 'fulfilled', value: ['acct_d', 'acct_f'] });
    assert.deepEqual(await accountIds(observer.db), ['acct_d', 'acct_f']);
    await writer.db.deleteFrom('accounts').execute();
  });

  it('work of another key runs in a transaction of its own: it commits while a batch of the first key is still open', async () => {
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = group.run(async (trx) => {
      await addAccount(trx, 'acct_g');
      await held;
    }, 'acct_one');
    await group.run((trx) => addAccount(trx, 'acct_h'), 'acct_two');
    assert.deepEqual(await accountIds(observer.db), ['acct_h']);
    releaseFirst();
    await first;
    assert.deepEqual(await accountIds(observer.db), ['acct_g', 'acct_h']);
    await writer.db.deleteFrom('accounts').execute();
  });
  async function transactionId(trx: Db): Promise<string> {
    const { rows } = await sql<{ id: string }>`select txid_current()::text as id`.execute(trx);
    return rows[0]!.id;
  }

  it('combinable work of several keys that arrives together shares one transaction', async () => {
    const combinable = { oneStatement: true, combinable: true };
    const submit = (id: string, key: string) =>
      group.run(async (trx) => {
        await addAccount(trx, id);
        return transactionId(trx);
      }, key, combinable);
    const ids = await Promise.all([submit('acct_i', 'acct_one'), submit('acct_j', 'acct_two'), submit('acct_k', 'acct_three')]);
    assert.equal(new Set(ids).size, 1, `one transaction: ${ids.join(', ')}`);
    assert.deepEqual(await accountIds(observer.db), ['acct_i', 'acct_j', 'acct_k']);
    await writer.db.deleteFrom('accounts').execute();
  });

  it('when one of them fails, each key runs again in a transaction of its own: the others commit, the failing one gets its error', async () => {
    await addAccount(writer.db, 'acct_taken');
    const combinable = { oneStatement: true, combinable: true };
    const outcomes = await Promise.allSettled([
      group.run(async (trx) => (await addAccount(trx, 'acct_l'), transactionId(trx)), 'acct_one', combinable),
      group.run((trx) => addAccount(trx, 'acct_taken'), 'acct_two', combinable), // a unique violation
      group.run(async (trx) => (await addAccount(trx, 'acct_m'), transactionId(trx)), 'acct_three', combinable),
    ]);
    assert.equal(outcomes[1].status === 'rejected' && (outcomes[1].reason as { code?: string }).code, '23505');
    assert.ok(outcomes[0].status === 'fulfilled' && outcomes[2].status === 'fulfilled');
    assert.notEqual(outcomes[0].value, outcomes[2].value, 'each in its own transaction');
    assert.deepEqual(await accountIds(observer.db), ['acct_l', 'acct_m', 'acct_taken']);
    await writer.db.deleteFrom('accounts').execute();
  });
});
