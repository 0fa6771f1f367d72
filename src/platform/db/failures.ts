/**
 * What a database error means, on either database: unavailable for now (the request fails
 * with 503 and the next one tries again), a conflict between transactions (run it again), a
 * unique key taken, a write into an account closed meanwhile.
 */
import type { Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Tables } from './tables.ts';

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  'SQLITE_BUSY',
]);

/**
 * True when `error` means the database cannot serve right now (down, restarting, pool
 * exhausted, statement timeout, SQLite busy past its timeout): the request fails fast with
 * 503 and the next one tries again, with no restart needed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  if (!e) return false;
  if (e.code !== undefined && UNAVAILABLE_CODES.has(e.code)) return true;
  const message = e.message ?? '';
  return /timeout exceeded when trying to connect|Connection terminated|connection is closed|Client has encountered a connection error|Query read timeout/i.test(
    message,
  );
}

/**
 * True when the database refused a person or group because their account was closed after the
 * request's credential was checked (migration 0401): nothing of the write was kept.
 */
export function isClosedAccountWrite(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === 'GHA01' || (e?.code === 'SQLITE_CONSTRAINT_TRIGGER' && e.message?.startsWith('GHA01 ') === true);
}

/**
 * True when PostgreSQL aborted a transaction to settle a conflict with a concurrent one
 * (deadlock_detected, serialization_failure): nothing of it was committed, and running it
 * again may well succeed.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === '40P01' || code === '40001';
}

/** How often a transaction is run in all before its conflict is reported (as a 503). */
const CONFLICT_ATTEMPTS = 3;

/**
 * Runs `work` in a transaction, and runs it afresh when PostgreSQL aborts it for a conflict
 * with a concurrent transaction (a deadlock between writes that lock rows of two tables in
 * different orders, say). Each retry waits a few random milliseconds, so the two rivals do
 * not meet again in step. Only for work whose every effect is in the transaction.
 */
export function transactWithRetry<T>(db: Db, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  return retryOnConflict(() => db.transaction().execute(work));
}

/**
 * Runs `attempt`, a transaction of its own (one begun and ended by it, or a lone statement,
 * which PostgreSQL runs as one), again when PostgreSQL aborts it for a conflict with a
 * concurrent transaction: see transactWithRetry.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransactionConflict(error) || tries >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * tries));
    }
  }
}

/** True when `error` is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | undefined;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
