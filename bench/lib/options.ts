/**
 * Run-wide bench options, applied before any scenario module reads its settings (run.ts imports
 * this first). `--quick` shortens every measurement to 3 s and shrinks the seeded data (100,000
 * invoices, 10,000 SCIM users, 5,000 webhook events) for a check that the scenarios run; the
 * published figures in docs/BENCHMARKS.md come from a full run, so a quick run writes only
 * bench/results/latest.md. Explicit BENCH_* variables win over both.
 * PostgreSQL is measured beside SQLite when BENCH_DATABASE_URL (or GATEHOUSE_TEST_DATABASE_URL) is set.
 */
import fs from 'node:fs';

export const quick = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

if (quick) {
  process.env.BENCH_SECONDS ??= '3';
  process.env.BENCH_INVOICES ??= '100000';
  process.env.BENCH_SCIM_USERS ??= '10000';
  process.env.BENCH_WEBHOOK_EVENTS ??= '5000';
}
// process.env turns an assigned undefined into the string "undefined", so assign only a URL.
const fallbackDatabaseUrl = process.env.GATEHOUSE_TEST_DATABASE_URL;
if (!process.env.BENCH_DATABASE_URL && fallbackDatabaseUrl) process.env.BENCH_DATABASE_URL = fallbackDatabaseUrl;
if (process.env.BENCH_DATABASE_URL) process.env.BENCH_DATABASE_URL = throughLocalSocket(process.env.BENCH_DATABASE_URL);

/**
 * A PostgreSQL URL on this machine's loopback, as its Unix socket when the server listens on one
 * at the usual place for that port (as docs/OPERATIONS.md advises a node on the database's host):
 * each query then costs both sides less CPU. BENCH_PG_TCP=1 keeps TCP.
 */
function throughLocalSocket(url: string): string {
  const parsed = new URL(url);
  const directory = '/var/run/postgresql';
  const loopback = parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost';
  if (process.env.BENCH_PG_TCP === '1' || !loopback || parsed.searchParams.has('host')) return url;
  if (!fs.existsSync(`${directory}/.s.PGSQL.${parsed.port || '5432'}`)) return url;
  parsed.searchParams.set('host', directory);
  return parsed.href;
}

/** Scenario names given on the command line (flags removed). */
export const wantedScenarios = process.argv.slice(2).filter((a) => !a.startsWith('--'));
