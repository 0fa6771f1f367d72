/**
 * PostgreSQL: the one-statement works of a group-commit batch that write the same kind of rows
 * (payouts, of one account or of several) sent as one multi-row statement instead of one statement each.
 *
 * The batch's works run side by side on its transaction; a work about to send a combinable
 * statement hands its values to the batch (`combine`) and waits. Once every work of the batch
 * is either waiting so or finished, each kind's values go to that kind's `send` in arrival
 * order, in one round trip, and every work gets back its own result. A `send` that fails fails
 * every work that handed it values, and the group commit then runs the batch again one work
 * at a time (each in its savepoint), the path that needs no combining; so the combined
 * statement may refuse whatever it cannot settle exactly (it throws) and lose nothing.
 */
import type { Db } from './database.ts';

/** A statement that takes the values of several works, in arrival order, and answers each. */
export interface Combinable<V, R> {
  send(executor: Db, values: readonly V[]): Promise<R[]>;
}

interface Pending {
  values: unknown;
  settle(outcome: { ok: true; value: unknown } | { ok: false; error: unknown }): void;
}

/** The works of one batch that are still running, and what those waiting have handed over. */
export class StatementBatch {
  private running: number;
  private readonly waiting = new Map<Combinable<unknown, unknown>, Pending[]>();
  private waitingCount = 0;

  constructor(
    private readonly executor: Db,
    works: number,
  ) {
    this.running = works;
  }

  /** `values` sent with those of the batch's other works in `statement`; its own result. */
  combine<V, R>(statement: Combinable<V, R>, values: V): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const kind = statement as Combinable<unknown, unknown>;
      const list = this.waiting.get(kind) ?? [];
      list.push({ values, settle: (outcome) => (outcome.ok ? resolve(outcome.value as R) : reject(outcome.error)) });
      this.waiting.set(kind, list);
      this.waitingCount += 1;
      this.sendIfAllWait();
    });
  }

  /** A work of the batch has finished (or failed): it will hand over nothing more. */
  finished(): void {
    this.running -= 1;
    this.sendIfAllWait();
  }

  private sendIfAllWait(): void {
    if (this.waitingCount === 0 || this.waitingCount < this.running) return;
    const kinds = [...this.waiting];
    this.waiting.clear();
    this.running -= this.waitingCount;
    this.waitingCount = 0;
    for (const [statement, pending] of kinds) void this.send(statement, pending);
  }

  private async send(statement: Combinable<unknown, unknown>, pending: Pending[]): Promise<void> {
    // Each work goes on once it has its result, so it counts as running again.
    this.running += pending.length;
    try {
      const results = await statement.send(
        this.executor,
        pending.map((p) => p.values),
      );
      pending.forEach((p, i) => p.settle({ ok: true, value: results[i] }));
    } catch (error) {
      for (const p of pending) p.settle({ ok: false, error });
    }
  }
}

const batches = new WeakMap<object, StatementBatch>();

/** The batch a transaction's works share, if they run side by side (group-commit.ts). */
export function statementBatchOf(executor: Db): StatementBatch | undefined {
  return batches.get(executor);
}

/** Runs `works` side by side on `trx`, combining their combinable statements; their outcomes in order. */
export async function runCombined<E extends Db, T>(trx: E, works: ReadonlyArray<(trx: E) => Promise<T>>): Promise<Array<PromiseSettledResult<T>>> {
  const batch = new StatementBatch(trx, works.length);
  batches.set(trx, batch);
  try {
    return await Promise.allSettled(
      works.map(async (work) => {
        try {
          return await work(trx);
        } finally {
          batch.finished();
        }
      }),
    );
  } finally {
    batches.delete(trx);
  }
}
