/**
 * A closing and a write that race (PostgreSQL), made to meet in one order: another connection
 * holds rows the closing reaches after it has taken its account, so the closing waits there with
 * the account held; the write is sent once it does, and queues behind the closing on the account.
 * Then the rows are let go: the closing ends first, and the write meets what it left.
 */
import { until } from './until.ts';
import { connectBeside, waitersBehind } from './held-ahead.ts';
import type { TestApp } from './test-app.ts';

export async function closingAhead<T>(
  t: TestApp,
  accountId: string,
  held: { rows: string; lock: string },
  write: () => Promise<T>,
): Promise<{ closed: Awaited<ReturnType<TestApp['admin']>>; written: T }> {
  const holder = await connectBeside(t);
  const waiting = await waitersBehind(holder);
  try {
    await holder.query('begin');
    await holder.query(held.lock, [accountId]);
    const closing = t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
    await until(async () => (await waiting()) === 1, 10_000, `the closing to wait on ${held.rows}`);
    const writing = write();
    await until(async () => (await waiting()) === 2, 10_000, 'the write to wait behind the closing');
    await holder.query('commit');
    const [closed, written] = await Promise.all([closing, writing]);
    return { closed, written };
  } finally {
    await holder.end();
  }
}
