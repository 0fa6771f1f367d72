/**
 * Requests made to meet a change in one order, every time (PostgreSQL): `hold` runs on a
 * connection of its own in a transaction left open, each of `requests` is sent in turn once the
 * one before waits on a lock (the first on what `hold` holds, a later one on what an earlier
 * request holds by then), and then the held transaction commits. Each request's answer, in order.
 */
import assert from 'node:assert/strict';
import pg from 'pg';
import { until } from './until.ts';
import type { TestApp } from './test-app.ts';

export interface Held {
  sql: string;
  params: unknown[];
  /** Rows `sql` must change (a check that the hold holds what the test means). */
  rows?: number;
}

export async function heldAhead<T extends unknown[]>(t: TestApp, hold: Held, requests: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  const holder = await connectBeside(t);
  const waiting = await waitersBehind(holder);
  try {
    await holder.query('begin');
    const held = await holder.query(hold.sql, hold.params);
    if (hold.rows !== undefined) assert.equal(held.rowCount, hold.rows, `${hold.sql} changed ${held.rowCount} rows`);
    const sent: Array<Promise<unknown>> = [];
    for (const [i, request] of requests.entries()) {
      let settled: string | undefined;
      const answer = request();
      // Nothing unhandled while the next waits: its outcome is read below.
      answer.then((value) => (settled = `answered ${JSON.stringify(value)?.slice(0, 300)}`), (error: unknown) => (settled = `failed: ${String(error)}`));
      sent.push(answer);
      try {
        // At least: a request may wait on more than one connection (a statement of its own and one it shares).
        await until(async () => settled !== undefined || (await waiting()) >= i + 1, 20_000, `request ${i + 1} to wait on a lock`);
      } catch (error) {
        const locks = await holder.query('select pid, locktype, mode, pg_blocking_pids(pid) as blockers from pg_locks where not granted');
        throw new Error(`${String(error)}; holder ${await holderPid(holder)}, waits now: ${JSON.stringify(locks.rows)}`, { cause: error });
      }
      // A request that answered without waiting met nothing of the hold: the race was not arranged.
      if (settled !== undefined) assert.fail(`request ${i + 1} did not wait on the held rows: it ${settled}`);
    }
    await holder.query('commit');
    return (await Promise.all(sent)) as T;
  } finally {
    await holder.end();
  }
}

/** A connection of its own to the test app's database and schema, for a test to hold rows with. */
export async function connectBeside(t: TestApp): Promise<pg.Client> {
  const url = new URL(t.config.databaseUrl);
  const schema = url.searchParams.get('schema') ?? 'public';
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.href, options: `-c search_path=${schema}` });
  await client.connect();
  return client;
}

/**
 * How many backends wait, directly or behind one another, on `holder`'s: read from pg_locks and
 * pg_blocking_pids, which answer as things are now (pg_stat_activity would answer from a snapshot
 * taken once per transaction), and only of waits that lead to `holder`, so tests running beside
 * this one on the same server do not count.
 */
async function holderPid(holder: pg.Client): Promise<number> {
  return Number((await holder.query('select pg_backend_pid() as pid')).rows[0].pid);
}

export async function waitersBehind(holder: pg.Client): Promise<() => Promise<number>> {
  const pid = await holderPid(holder);
  return async () => {
    const { rows } = await holder.query<{ pid: number; blockers: number[] }>('select distinct pid, pg_blocking_pids(pid) as blockers from pg_locks where not granted');
    const behind = new Set([pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of rows) {
        if (!behind.has(row.pid) && row.blockers.some((b) => behind.has(b))) {
          behind.add(row.pid);
          grew = true;
        }
      }
    }
    return behind.size - 1;
  };
}
