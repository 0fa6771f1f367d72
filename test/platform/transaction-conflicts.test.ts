/**
 * PostgreSQL ends one of two deadlocked transactions with 40P01. Writes that can meet that way
 * (SCIM user and group writes lock users and groups) run through transactWithRetry, which runs
 * the loser again; what still conflicts is answered 503 with Retry-After, never 500. Runs when
 * GATEHOUSE_TEST_DATABASE_URL is set: SQLite has one writer and cannot deadlock.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { describeOnDatabase } from '../helpers/databases.ts';
import { isTransactionConflict, openDatabase, transactWithRetry, type Database } from '../../src/platform/db/database.ts';
import { toHttpError } from '../../src/platform/http/server.ts';

/** Resolves once the other connection is queued on a row lock: the order the deadlock needs. */
async function someoneWaitsOnALock(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      if (Number(rows[0]!.n) > 0) return;
      await new Promise((r) => setImmediate(r));
    }
  } finally {
    await client.end();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describeOnDatabase('postgres', 'transaction conflicts on PostgreSQL', (postgres) => {
  let target: { url: string; drop(): Promise<void> };
  let database: Database;
  before(async () => {
    target = await postgres.create();
    database = await openDatabase({ databaseUrl: target.url, poolSize: 4 });
    await sql`create table conflict_probe (id integer primary key, v integer not null)`.execute(database.db);
  });
  after(async () => {
    await database.close();
    await target.drop();
  });

  /**
   * `second` locks row 2, then waits for row 1 while `first` (holding row 1) already waits for
   * row 2. The second's deadlock_timeout is the shorter, so it is the one PostgreSQL ends.
   */
  async function deadlock(attempts: { count: number }, retry: (work: Parameters<typeof transactWithRetry>[1]) => Promise<unknown>) {
    await sql`delete from conflict_probe`.execute(database.db);
    await sql`insert into conflict_probe (id, v) values (1, 1), (2, 1)`.execute(database.db);
    const firstHoldsRow1 = deferred();
    const secondHoldsRow2 = deferred();
    const first = database.db.transaction().execute(async (trx) => {
      await sql`update conflict_probe set v = v + 10 where id = 1`.execute(trx);
      firstHoldsRow1.resolve();
      await secondHoldsRow2.promise;
      await sql`update conflict_probe set v = v + 10 where id = 2`.execute(trx);
    });
    const second = retry(async (trx) => {
      attempts.count++;
      await sql`set local deadlock_timeout = '50ms'`.execute(trx);
      await firstHoldsRow1.promise;
      await sql`update conflict_probe set v = v * 3 where id = 2`.execute(trx);
      if (attempts.count === 1) {
        secondHoldsRow2.resolve();
        await someoneWaitsOnALock(target.url);
      }
      await sql`update conflict_probe set v = v * 3 where id = 1`.execute(trx);
    });
    return Promise.allSettled([first, second]);
  }

  it('the transaction PostgreSQL ends for a deadlock runs again and commits, after its rival', async () => {
    const attempts = { count: 0 };
    const [first, second] = await deadlock(attempts, (work) => transactWithRetry(database.db, work));
    assert.equal(first.status, 'fulfilled');
    assert.equal(second.status, 'fulfilled');
    assert.equal(attempts.count, 2);
    // The rival's +10 first, then the retried ×3 over it: both committed, in that order.
    const { rows } = await sql<{ id: number; v: number }>`select id, v from conflict_probe order by id`.execute(database.db);
    assert.deepEqual(rows, [
      { id: 1, v: 33 },
      { id: 2, v: 33 },
    ]);
  });

  it('a deadlock that is not retried is a 503 with Retry-After, and leaves nothing of the loser', async () => {
    const attempts = { count: 0 };
    const [first, second] = await deadlock(attempts, (work) => database.db.transaction().execute(work));
    assert.equal(first.status, 'fulfilled');
    assert.equal(second.status, 'rejected');
    const error = (second as PromiseRejectedResult).reason;
    assert.ok(isTransactionConflict(error), `expected a deadlock, got ${String(error)}`);
    const logged: string[] = [];
    const request = { id: 'req-1', log: { warn: (_: unknown, m: string) => logged.push(`warn ${m}`), error: (_: unknown, m: string) => logged.push(`error ${m}`) } };
    const answer = toHttpError(error, request as unknown as FastifyRequest);
    assert.equal(answer.status, 503);
    assert.equal(answer.code, 'service_unavailable');
    assert.equal(answer.headers?.['retry-after'], '1');
    assert.deepEqual(logged, ['warn transaction conflict']);
    const { rows } = await sql<{ id: number; v: number }>`select id, v from conflict_probe order by id`.execute(database.db);
    assert.deepEqual(rows, [
      { id: 1, v: 11 },
      { id: 2, v: 11 },
    ]);
  });
});
