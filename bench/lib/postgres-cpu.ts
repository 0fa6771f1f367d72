/**
 * The CPU time PostgreSQL spends serving one Gatehouse process: the server processes (backends)
 * of that process's connections, found in pg_stat_activity by the `application_name` the bench
 * puts in Gatehouse's database URL, read from /proc/<pid>/stat (user + system) before and after
 * a measurement. The database is local, so its backends are processes of this machine; other
 * workers' backends, and the server's shared processes (WAL writer, checkpointer), are not
 * counted. A backend that starts during the measurement counts from its start; one that ends
 * during it is lost (the pool keeps its connections for 30 s idle, longer than a measurement).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { cpuMicros } from './load.ts';

export interface PostgresCpu {
  /** The database URL Gatehouse is given: `url` with this measurement's application name. */
  url: string;
  /** CPU µs of the backends now, by pid. */
  sample(): Promise<Map<number, number>>;
}

export function postgresCpuOf(url: string): PostgresCpu {
  const name = `gh_bench_${randomBytes(4).toString('hex')}`;
  const tagged = new URL(url);
  tagged.searchParams.set('application_name', name);
  const admin = new URL(url);
  admin.searchParams.delete('schema');
  return {
    url: tagged.href,
    async sample() {
      const client = new pg.Client({ connectionString: admin.href });
      await client.connect();
      try {
        const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name]);
        const cpu = new Map<number, number>();
        for (const { pid } of rows) {
          try {
            cpu.set(pid, cpuMicros(pid));
          } catch {
            // ended meanwhile
          }
        }
        return cpu;
      } finally {
        await client.end();
      }
    },
  };
}

/** CPU µs the backends used between two samples (a backend first seen in `after` counts whole). */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}

/**
 * Counts the statements the pg clients of this process send from now on, at the client every query
 * passes, whichever pool connection takes it; returns the count so far. (test/helpers/sent-statements.ts
 * is the scoped form a test uses.)
 */
export function countSentStatements(): () => number {
  let sent = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    sent += 1;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return () => sent;
}
