/**
 * Group commit on SQLite: write requests that arrive together share one transaction.
 *
 * SQLite has one writer, and much of a small write's cost is its COMMIT: the WAL frames of every
 * page it touched (table and index leaves, the balance row's page, the database header), about
 * two dozen for a payout. Requests submitted while the event loop handles one round
 * of I/O are queued; once that round is over (`setImmediate`), one `BEGIN IMMEDIATE` opens a
 * transaction in which each request's work runs in arrival order (in a SAVEPOINT of its own once
 * one of them has failed, see below), and one COMMIT ends the batch. Pages that several requests touch (the right edge of every
 * time-ordered index, the balance row) are written once per batch instead of once per request.
 * This is PostgreSQL's `commit_delay` and InnoDB's binary-log group commit, without their wait:
 * the batch is whatever arrived meanwhile, never a timer.
 *
 * - **Isolation between requests.** A request whose work throws is rolled back to its savepoint
 *   alone (in the batch's second run); the batch goes on. Requests run one after another on the
 *   one connection, so each sees the state its predecessors in the batch left, exactly as if each
 *   had committed on its own.
 * - **Nothing is answered before it is durable.** Every outcome, success or failure, is handed
 *   back only after the batch's COMMIT returned (a failure may depend on what an earlier request
 *   of the batch wrote). If BEGIN, a savepoint command or the COMMIT fails, every request of the
 *   batch fails with that error and none of it was acknowledged.
 * - **Crash semantics.** A process that dies mid-batch loses the whole open transaction, which
 *   nobody was told about; the clients' retries perform their requests afresh. synchronous=NORMAL
 *   in WAL mode makes a returned COMMIT durable against a crash of the process.
 * - **Bounded batches.** At most `maxBatch` requests share a commit, so one batch holds the
 *   event loop for a bounded time; the rest start the next batch at once.
 * - **Savepoints only when needed.** A batch first runs its works one after another with nothing
 *   between them; only if one throws is that attempt rolled back (nobody was answered) and the batch
 *   run again with each work in a savepoint of its own. On PostgreSQL, where the works of one
 *   account queue behind each other's round trips while their batch holds the account's row, this
 *   halves the round trips of a payout in a batch. A batch of one runs alone in its transaction,
 *   or, when its work is one statement (`oneStatement`), without BEGIN and COMMIT.
 * - **One statement for many.** A batch whose works all say they are `combinable` (PostgreSQL,
 *   one statement each) runs them side by side on its transaction, and the statements of one kind
 *   they hand over go as one multi-row statement (statement-batch.ts): the payouts of a busy
 *   account cost one round trip per batch instead of one each. If it fails, the batch runs again
 *   one work at a time, each in its savepoint, as after any failure.
 *
 * **On PostgreSQL, by key.** Writers there run side by side on a pool of connections, and what
 * serializes them is a row they all change: the balance of one account, which each payout holds
 * locked from its debit to its commit. Work submitted with a `key` (the account) is batched
 * only with work of the same key, one batch of a key at a time, and batches of different keys
 * run at once on their own connections. So the payouts of a busy account share a commit instead
 * of each waiting for the previous one's, and the rest of the platform is not made to wait
 * behind them. SQLite's work has no key: it has one writer anyway.
 *
 * **Combinable work across keys.** Lanes whose next batch is all combinable work and that are
 * ready in the same round of I/O (the payouts of many accounts, one or a few each) share one
 * transaction and one combined statement, up to `maxBatch` works: on a platform of many
 * accounts most batches are of one payout, and a statement and a commit each is what they
 * would otherwise cost. Their rows are locked in one order (the statement sorts them), so two
 * such transactions never wait for each other in a cycle. If a work fails, each lane's batch
 * runs again on its own.
 */
import { CompiledQuery, type Transaction } from 'kysely';
import type { Db } from './database.ts';
import type { Tables } from './tables.ts';
import { runCombined } from './statement-batch.ts';
import { dialectOf } from './dialect.ts';
import { transactWithRetry } from './failures.ts';

export type Work<T> = (trx: Transaction<Tables>) => Promise<T>;

export interface RunOptions {
  /**
   * `work` writes with one statement or none (and reads nothing it writes on): when it commits
   * alone it runs without BEGIN and COMMIT, its statement being a transaction of its own.
   */
  oneStatement?: boolean;
  /**
   * PostgreSQL: `work` is one statement that may be sent together with those of the other works
   * of its batch (statement-batch.ts). A batch whose works all say so runs them side by side.
   */
  combinable?: boolean;
}

export interface GroupCommit {
  /** Runs `work` in the next shared transaction (of work with the same `key`); settles once that transaction has ended. */
  run<T>(work: Work<T>, key?: string, options?: RunOptions): Promise<T>;
}

/**
 * Enough to share a commit among every request a busy node has in flight, small enough to keep a
 * batch short; and below 64 nested savepoints, the subtransactions a PostgreSQL session keeps in
 * shared memory before every other session's snapshots must look them up on disk.
 */
export const DEFAULT_MAX_BATCH = 48;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

interface Queued {
  work: Work<unknown>;
  oneStatement: boolean;
  combinable: boolean;
  settle(outcome: Outcome): void;
}

/** The work waiting for a key's next batch, and whether that batch is already on its way. */
interface Lane {
  queue: Queued[];
  scheduled: boolean;
}

export function createGroupCommit(deps: { db: Db; maxBatch?: number }): GroupCommit {
  const { db } = deps;
  const maxBatch = deps.maxBatch ?? DEFAULT_MAX_BATCH;
  const lanes = new Map<string, Lane>();
  /** Lanes whose next batch starts once the current round of I/O is over. */
  const ready: Array<[string, Lane]> = [];

  function schedule(key: string, lane: Lane): void {
    if (lane.scheduled) return;
    if (lane.queue.length === 0) {
      lanes.delete(key);
      return;
    }
    lane.scheduled = true;
    ready.push([key, lane]);
    // After the current round of I/O, so that every request it delivered joins the batch.
    if (ready.length === 1) setImmediate(startReadyBatches);
  }

  function startReadyBatches(): void {
    const combined: LaneBatch[] = [];
    for (const [key, lane] of ready.splice(0)) {
      const batch = lane.queue.splice(0, maxBatch);
      if (batch.every((queued) => queued.combinable)) combined.push({ key, lane, batch });
      else void commitLaneBatches([{ key, lane, batch }]);
    }
    for (const group of groupsOfAtMost(combined, maxBatch)) void commitLaneBatches(group);
  }

  /** The batches of one or more lanes in one transaction; each lane's next batch once it has ended. */
  async function commitLaneBatches(group: LaneBatch[]): Promise<void> {
    const outcomes = group.length === 1 ? [await commitOneLane(group[0]!.batch)] : await commitLanesTogether(group);
    group.forEach(({ key, lane, batch }, g) => {
      lane.scheduled = false;
      batch.forEach((queued, i) => queued.settle(outcomes[g]![i]!));
      schedule(key, lane);
    });
  }

  async function commitOneLane(batch: Queued[]): Promise<Outcome[]> {
    if (batch.length === 1 && batch[0]!.oneStatement) return [await inItsOwnStatement(db, batch[0]!.work)];
    return commitBatch(db, batch.map((queued) => queued.work), batch.every((queued) => queued.combinable));
  }

  /**
   * Combinable batches of several lanes (the payouts of several accounts arriving together) as
   * one: their statements sent as one, one commit for all. If a work fails, each lane's batch
   * runs again on its own, as it would have without the others, so that a lane's failure costs
   * the other lanes only the repeat and its fallback never holds several lanes' rows at once.
   */
  async function commitLanesTogether(group: LaneBatch[]): Promise<Outcome[][]> {
    const works = group.flatMap(({ batch }) => batch.map((queued) => queued.work));
    const together = await allTogether(db, works, true);
    if (together === WORK_FAILED) return Promise.all(group.map(({ batch }) => commitOneLane(batch)));
    let next = 0;
    return group.map(({ batch }) => together.slice(next, (next += batch.length)));
  }

  return {
    run<T>(work: Work<T>, key = '', options: RunOptions = {}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        let lane = lanes.get(key);
        if (lane === undefined) {
          lane = { queue: [], scheduled: false };
          lanes.set(key, lane);
        }
        lane.queue.push({ work, oneStatement: options.oneStatement === true, combinable: options.combinable === true, settle: (outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error)) });
        schedule(key, lane);
      });
    },
  };
}

/** The next batch of one lane. */
interface LaneBatch {
  key: string;
  lane: Lane;
  batch: Queued[];
}

/** `batches` in arrival order, grouped so that no group holds more than `max` works (a batch of more stays alone). */
function groupsOfAtMost(batches: LaneBatch[], max: number): LaneBatch[][] {
  const groups: LaneBatch[][] = [];
  let group: LaneBatch[] = [];
  let works = 0;
  for (const laneBatch of batches) {
    if (group.length > 0 && works + laneBatch.batch.length > max) {
      groups.push(group);
      group = [];
      works = 0;
    }
    group.push(laneBatch);
    works += laneBatch.batch.length;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * One transaction over every work of the batch: each work's outcome, or the transaction's failure
 * for all. First every work runs in turn with nothing between them, which is what a batch costs
 * when every work succeeds; if one throws, that transaction is rolled back whole (nothing of it
 * was answered) and the batch runs again with each work in a savepoint of its own, so that the
 * failure undoes only its own work. A work may therefore run twice, like a transaction retried
 * after a deadlock: handlers write only through the transaction they are given.
 */
async function commitBatch(db: Db, batch: Array<Work<unknown>>, combinable: boolean): Promise<Outcome[]> {
  if (batch.length === 1) return [await alone(db, batch[0]!)];
  const together = await allTogether(db, batch, combinable);
  if (together !== WORK_FAILED) return together;
  try {
    return await db.transaction().execute(async (trx) => {
      const outcomes: Outcome[] = [];
      for (const work of batch) outcomes.push(await inSavepoint(trx, work));
      return outcomes;
    });
  } catch (error) {
    // BEGIN, a savepoint command or COMMIT failed: nothing of the batch is committed.
    return batch.map(() => ({ ok: false, error }));
  }
}

const WORK_FAILED = Symbol('a work failed');

/**
 * Every work in one transaction with no savepoint: their values, or WORK_FAILED after rolling back
 * when one threw. Combinable works run side by side, their statements sent as one.
 */
async function allTogether(db: Db, batch: Array<Work<unknown>>, combinable: boolean): Promise<Outcome[] | typeof WORK_FAILED> {
  let workFailed = false;
  try {
    return await db.transaction().execute(async (trx) => {
      if (combinable) {
        const settled = await runCombined(trx, batch);
        workFailed = settled.some((outcome) => outcome.status === 'rejected');
        if (workFailed) throw new Error('a combined work failed');
        return settled.map((outcome) => ({ ok: true, value: (outcome as PromiseFulfilledResult<unknown>).value }));
      }
      const outcomes: Outcome[] = [];
      for (const work of batch) {
        try {
          outcomes.push({ ok: true, value: await work(trx) });
        } catch (error) {
          workFailed = true;
          throw error;
        }
      }
      return outcomes;
    });
  } catch (error) {
    // BEGIN or COMMIT failed: nothing of the batch is committed, and running it again would not help.
    return workFailed ? WORK_FAILED : batch.map(() => ({ ok: false, error }));
  }
}

/**
 * A one-statement work alone: on the database itself, so that its statement commits on its own,
 * two round trips fewer than BEGIN … COMMIT around it.
 */
async function inItsOwnStatement(db: Db, work: Work<unknown>): Promise<Outcome> {
  try {
    // Not a transaction object: the work only runs its one statement on it (RunOptions).
    return { ok: true, value: await work(db as unknown as Transaction<Tables>) };
  } catch (error) {
    return { ok: false, error };
  }
}

/** A batch of one: its own transaction, rolled back whole if it fails. */
async function alone(db: Db, work: Work<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await db.transaction().execute(work) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Runs `work` so that a failure undoes only what it wrote. If SQLite ended the whole transaction
 * (an I/O error, a full disk), rolling back to the savepoint throws and the batch fails.
 *
 * The savepoints are not released: the next work's savepoint of the same name nests inside
 * this one, a rollback goes back to the newest of that name, and the commit ends them all. So
 * a work costs one command besides its own statements, which on PostgreSQL is a round trip
 * saved per request while the batch holds its rows locked.
 */
async function inSavepoint(trx: Transaction<Tables>, work: Work<unknown>): Promise<Outcome> {
  await run(trx, SAVEPOINT);
  try {
    return { ok: true, value: await work(trx) };
  } catch (error) {
    await run(trx, ROLLBACK_TO_SAVEPOINT);
    return { ok: false, error };
  }
}

/** A savepoint command, straight on the transaction's connection. */
async function run(trx: Transaction<Tables>, command: CompiledQuery): Promise<void> {
  await trx.getExecutor().provideConnection((connection) => connection.executeQuery(command));
}

const SAVEPOINT = CompiledQuery.raw('savepoint request');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to request');

/**
 * How a service without a key to batch by runs its transactions. On SQLite, in the node's group
 * commit when it has one: the one writer makes them queue anyway, and sharing a commit spares
 * each the WAL frames of the pages they both touch. On PostgreSQL each on a connection of its
 * own, run again after a conflict (`transactWithRetry`): one lane for all of them there would
 * put every write behind one connection.
 */
export function sharedTransactions(db: Db, groupCommit: GroupCommit | undefined): <T>(work: Work<T>) => Promise<T> {
  if (groupCommit === undefined || !dialectOf(db).writesOneAtATime) return (work) => transactWithRetry(db, work);
  return (work) => groupCommit.run(work);
}
