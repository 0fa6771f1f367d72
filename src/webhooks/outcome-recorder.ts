/**
 * The outcomes of a worker's attempts, written in batches: when a batch is full, when the worker
 * holds nothing else, or RECORD_DELAY_MS after the oldest unwritten one; outcomes finishing while
 * a batch is being written make up the next. The attempt's slot is free meanwhile (the receiver
 * has answered), and its lease still holds the delivery: a worker dying before the batch is
 * written loses only the record, and the delivery is attempted again once the lease runs out.
 *
 * Outcomes the database could not take because it is unavailable are written again once it is
 * back, while their leases hold them, rather than attempted again when the lease runs out (a
 * duplicate the receiver would see minutes later). Any other failure, or a lease too near its
 * end, gives them up: the delivery is attempted again, by any worker, after its lease.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import { logEvent } from '../platform/log-events.ts';
import { toRfc3339 } from '../platform/clock.ts';
import type { Counter } from 'prom-client';
import { recordOutcomes, type OutcomeNotice, type OutcomePolicy, type Outcome } from './outcomes.ts';

export const RECORD_BATCH = 256;
export const RECORD_DELAY_MS = 25;
/** Wait before writing again outcomes the database could not take (it is away or restarting). */
export const RECORD_RETRY_MS = 500;
/** Time a lease keeps beyond an attempt's timeout, for its outcome to be written. */
export const RECORD_MARGIN_MS = 1000;

/** What the recorder needs of an outcome: when its delivery's lease runs out. */
export interface Leased {
  delivery: { leaseUntil: number };
}

export interface RecorderOptions<T extends Leased> {
  /** Writes one batch; throws if it was not written. */
  write(batch: T[]): Promise<void>;
  /** Whether a failed write is worth trying again shortly (the database is unavailable). */
  retryable(error: unknown): boolean;
  /** The injected clock's now, which leases are measured against. */
  now(): number;
  /** Whether the worker holds no claimed delivery: nothing more is coming, write at once. */
  idle(): boolean;
  log: FastifyBaseLogger;
}

export interface OutcomeRecorder<T extends Leased> {
  /** Attempts started whose outcome is not yet written (or given up on). */
  readonly unrecorded: number;
  /** An attempt has started: its outcome is owed. */
  expect(): void;
  /** An attempt's outcome, to be written with the next batch. */
  add(outcome: T): void;
  /** An attempt that ended with no outcome to write (its lease will expire). */
  lost(): void;
  /** Resolves once every outcome owed is written or given up on. */
  settle(): Promise<void>;
  /** Gives up on every outcome owed from now on, unwritten; returns how many were owed. */
  abandon(): number;
}

export function createOutcomeRecorder<T extends Leased>(options: RecorderOptions<T>): OutcomeRecorder<T> {
  const { log } = options;
  const queue: T[] = [];
  let unrecorded = 0;
  let whenAllRecorded: Array<() => void> = [];
  let flushing: Promise<void> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  // Until when writing waits, after the database could not take a batch.
  let writeAgainAt = 0;
  // Set once a stop has given up on the attempts in flight: their outcomes are no longer written.
  let abandoned = false;

  function scheduleFlush(): void {
    if (flushing) return;
    const backOff = writeAgainAt - performance.now();
    if (backOff > 0) flushTimer ??= setTimeout(startFlush, backOff);
    else if (queue.length >= RECORD_BATCH || options.idle()) startFlush();
    else flushTimer ??= setTimeout(startFlush, RECORD_DELAY_MS);
  }

  function startFlush(): void {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (flushing) return;
    flushing = flush().finally(() => {
      flushing = undefined;
      // What finished while the batch was being written makes up the next one.
      if (queue.length > 0) scheduleFlush();
    });
  }

  async function flush(): Promise<void> {
    const batch = queue.splice(0, RECORD_BATCH);
    try {
      await options.write(batch);
      recorded(batch.length);
    } catch (error) {
      const kept = keptForRetry(batch, error);
      log.error(
        { err: error, attempts: batch.length, retrying: kept.length },
        kept.length > 0
          ? 'recording webhook attempts failed; writing them again shortly while their leases last'
          : 'recording webhook attempts failed; their leases will expire and they will be retried',
      );
      recorded(batch.length - kept.length);
      if (kept.length > 0) {
        queue.unshift(...kept);
        writeAgainAt = performance.now() + RECORD_RETRY_MS;
      }
    }
  }

  function keptForRetry(batch: T[], error: unknown): T[] {
    if (abandoned || !options.retryable(error)) return [];
    const writableUntil = options.now() + RECORD_RETRY_MS + RECORD_MARGIN_MS;
    return batch.filter((outcome) => outcome.delivery.leaseUntil > writableUntil);
  }

  /** `n` attempts are over: their outcomes written, or given up on (their leases will expire). */
  function recorded(n: number): void {
    unrecorded -= n;
    if (unrecorded > 0) return;
    const resolveAll = whenAllRecorded;
    whenAllRecorded = [];
    for (const resolve of resolveAll) resolve();
  }

  return {
    get unrecorded() {
      return unrecorded;
    },
    expect() {
      unrecorded++;
    },
    add(outcome) {
      if (abandoned) {
        recorded(1);
        return;
      }
      queue.push(outcome);
      scheduleFlush();
    },
    lost() {
      recorded(1);
    },
    async settle() {
      while (unrecorded > 0 || flushing) {
        if (unrecorded > 0) await new Promise<void>((resolve) => whenAllRecorded.push(resolve));
        if (flushing) await flushing;
      }
    },
    abandon() {
      abandoned = true;
      return unrecorded;
    },
  };
}

/**
 * Writes a batch of outcomes in one transaction (outcomes.ts), then reports it: attempts counted
 * by outcome, and a log line per notice, once the batch is committed.
 */
export function outcomeWriter(deps: {
  db: Db;
  log: FastifyBaseLogger;
  policy: OutcomePolicy;
  attempts: Counter<'outcome'> | undefined;
}): (batch: Outcome[]) => Promise<void> {
  const { db, log, policy, attempts } = deps;
  return async (batch) => {
    const notices = await recordOutcomes(db, batch, policy);
    logNotices(log, notices);
    const succeeded = batch.filter((outcome) => outcome.result.ok).length;
    if (succeeded > 0) attempts?.inc({ outcome: 'succeeded' }, succeeded);
    if (succeeded < batch.length) attempts?.inc({ outcome: 'failed' }, batch.length - succeeded);
  };
}

/**
 * One line per failed attempt that moved its delivery on and per endpoint disabled. Ids, status
 * and error only: the receiver's URL may carry credentials and its answer is its own, so neither
 * is logged (the attempt log keeps the answer).
 */
function logNotices(log: FastifyBaseLogger, notices: readonly OutcomeNotice[]): void {
  for (const notice of notices) {
    const { delivery, attemptId, result } = notice.outcome;
    const endpoint = { account_id: delivery.accountId, endpoint_id: delivery.endpointId };
    if (notice.kind === 'endpoint_disabled') {
      logEvent(
        log,
        'webhook.endpoint_disabled',
        { ...endpoint, reason: notice.reason, status: result.status, failing_since: notice.failingSince === null ? null : toRfc3339(notice.failingSince), parked: notice.parked },
        notice.reason === 'gone' ? 'webhook endpoint disabled: the receiver answered 410 Gone' : 'webhook endpoint disabled: its deliveries have failed for too long',
      );
      continue;
    }
    const attempt = {
      ...endpoint,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      delivery_id: delivery.id,
      attempt_id: attemptId,
      status: result.status,
      error: result.error,
      failures: notice.failures,
    };
    if (notice.kind === 'retrying') {
      logEvent(log, 'webhook.delivery_failed', { ...attempt, retry_at: toRfc3339(notice.retryAt) }, 'webhook delivery failed; it will be retried');
    } else {
      logEvent(log, 'webhook.delivery_parked', { ...attempt, reason: notice.reason }, 'webhook delivery parked; it is sent again only when recovered or redelivered');
    }
  }
}
