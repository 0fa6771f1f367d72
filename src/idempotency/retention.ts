/**
 * Retention: an idempotency record is kept for `GATEHOUSE_IDEMPOTENCY_RETENTION` seconds
 * (24 h by default) after the first request; afterwards the key is new. The runner already
 * treats an expired record as absent, so the sweep only reclaims space. It deletes in small
 * batches so that it never holds locks for long, and every node may run it at once.
 */
import type { Clock } from '../platform/clock.ts';
import type { IdempotencyStore } from './store.ts';
import { runInRounds } from '../platform/rounds.ts';

export interface SweepOptions {
  /** Rows per delete statement. */
  batchSize?: number;
  /** Upper bound of batches in one sweep, so one sweep never runs unbounded. */
  maxBatches?: number;
}

export function createIdempotencyRetention(deps: { store: IdempotencyStore; clock: Clock }) {
  const { store, clock } = deps;

  /** Deletes expired records as of the clock's now; returns how many. */
  async function sweepExpired(options: SweepOptions = {}): Promise<number> {
    const batchSize = options.batchSize ?? 500;
    const maxBatches = options.maxBatches ?? 100;
    const now = clock.now();
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const count = await store.deleteExpiredBatch(now, batchSize);
      deleted += count;
      if (count < batchSize) break;
    }
    return deleted;
  }

  /**
   * Sweeps every `intervalMs` in the background until the returned stop function is called;
   * stop waits for a sweep in progress. Failures are logged and retried on the next tick.
   */
  function start(options: { intervalMs: number; onError(error: unknown): void }): () => Promise<void> {
    return runInRounds(() => sweepExpired(), options).stop;
  }

  return { sweepExpired, start };
}

export type IdempotencyRetention = ReturnType<typeof createIdempotencyRetention>;
