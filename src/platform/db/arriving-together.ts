import type { Db } from './database.ts';
import { dialectOf } from './dialect.ts';

/**
 * Requests that arrive together, handled as one batch: what is submitted while the event loop
 * handles one round of I/O is queued, and once that round is over (`setImmediate`, never a
 * timer) handed to `handle` at most `max` at a time. A request alone is a batch of one. For
 * work whose cost on PostgreSQL is mostly its round trip (a statement written to the socket,
 * parsed, run, its answer read), so that several requests share one.
 */
export function arrivingTogether<T>(handle: (batch: T[]) => void, max: number): (item: T) => void {
  const queue: T[] = [];
  function flush(): void {
    const batch = queue.splice(0, max);
    if (queue.length > 0) setImmediate(flush);
    if (batch.length > 0) handle(batch);
  }
  return (item) => {
    queue.push(item);
    if (queue.length === 1) setImmediate(flush);
  };
}

/**
 * Lookups that arrive together, answered by one statement: `lookup(item)` joins the batch of
 * its round of I/O (`arrivingTogether`) and resolves with what `fetch` answers for it. `fetch`
 * reads the whole batch at once and returns the answer for each of its items. A failure fails
 * every lookup of the batch with the error, as the statement each would have sent alone would
 * have failed it. The statement runs after every lookup of its batch was asked for, so it reads
 * what was committed when the last of them arrived: nothing older than a lookup of its own.
 */
export function lookedUpTogether<T, R>(fetch: (batch: readonly T[]) => Promise<(item: T) => R>, max: number): (item: T) => Promise<R> {
  interface Waiting {
    item: T;
    resolve(answer: R): void;
    reject(error: unknown): void;
  }
  const submit = arrivingTogether<Waiting>((batch) => {
    fetch(batch.map((w) => w.item)).then(
      (answerFor) => {
        for (const w of batch) {
          try {
            w.resolve(answerFor(w.item));
          } catch (error) {
            w.reject(error);
          }
        }
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      },
    );
  }, max);
  return (item) => new Promise<R>((resolve, reject) => submit({ item, resolve, reject }));
}

/** At most this many lookups share a statement: a batch holds the event loop for a bounded time. */
export const LOOKUPS_TOGETHER = 64;

/**
 * Rows looked up by a unique text key (a token's digest), as `db` runs that best: each key by
 * its own statement (`one`) where statements run in process, or the keys of lookups arriving
 * together by one statement (`many`, which returns the rows found among the distinct keys).
 */
export function lookupByKey<R>(
  db: Db,
  lookup: { one(key: string): Promise<R | undefined>; many(keys: readonly string[]): Promise<readonly R[]>; keyOf(row: R): string },
  max: number,
): (key: string) => Promise<R | undefined> {
  if (!dialectOf(db).statementsTravel) return lookup.one;
  return lookedUpTogether(async (keys: readonly string[]) => {
    const rows = await lookup.many([...new Set(keys)]);
    const byKey = new Map(rows.map((row) => [lookup.keyOf(row), row]));
    return (key) => byKey.get(key);
  }, max);
}
