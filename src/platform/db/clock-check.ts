/**
 * Nodes read time from their own clocks (token expiry, leases, payout due times, sealed-token and
 * cursor ages), and what one node writes another judges: a node whose clock is off refuses valid
 * tokens, or lets its own live longer. PostgreSQL is the one clock every node shares, so each
 * node compares its clock with the database's at start and says so when they differ by more than
 * `CLOCK_SKEW_WARN_MS`. (SQLite runs on the node's own clock: nothing to compare.)
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './database.ts';

export const CLOCK_SKEW_WARN_MS = 2_000;

/** This process's clock minus the database's, in milliseconds, halfway through the round trip; undefined on SQLite. */
export async function clockSkewMs(database: Database, now: () => number = Date.now): Promise<number | undefined> {
  if (database.dialect.name !== 'postgres') return undefined;
  const before = now();
  const { rows } = await sql<{ ms: string }>`select (extract(epoch from clock_timestamp()) * 1000)::bigint::text as ms`.execute(database.db);
  const after = now();
  return Math.round((before + after) / 2 - Number(rows[0]!.ms));
}

/** Logs a warning, naming the difference, when this node's clock and the database's disagree. */
export async function warnOfClockSkew(database: Database, log: FastifyBaseLogger, now: () => number = Date.now): Promise<void> {
  const skew = await clockSkewMs(database, now);
  if (skew === undefined || Math.abs(skew) <= CLOCK_SKEW_WARN_MS) return;
  log.warn(
    { clock_skew_ms: skew },
    `this node's clock is ${Math.abs(skew)} ms ${skew > 0 ? 'ahead of' : 'behind'} the database's: tokens, leases and expiries are judged by it; keep every node and the database in time (NTP)`,
  );
}
