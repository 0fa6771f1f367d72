/**
 * SQLite WAL checkpoints off the event loop.
 *
 * A commit in WAL mode appends pages to the write-ahead log; a checkpoint copies them back into
 * the database file and syncs both files to disk. SQLite runs that checkpoint inside whichever
 * commit pushes the log past 1000 pages, so on the one connection of a server every few hundred
 * writes one request's COMMIT stalls the event loop on two fsyncs. Here a worker thread with a
 * connection of its own runs PASSIVE checkpoints instead, a few times a second: it never blocks the writer (SQLite lets a checkpoint run beside writers and
 * readers), and the next write transaction after a complete checkpoint starts the log over.
 * The main connection keeps a much larger automatic checkpoint as a backstop in case the worker
 * falls behind. Durability is unchanged: a commit is in the log, synced by the next checkpoint,
 * exactly as with synchronous=NORMAL's automatic checkpoints.
 */
import { Worker } from 'node:worker_threads';
import { sqliteDriverPath } from './sqlite-driver.ts';

/**
 * How often the worker checkpoints: under load about as many pages as SQLite's own threshold
 * (1000) accumulate in that time, and an idle database costs a look at the log's header.
 */
const CHECKPOINT_EVERY_MS = 100;
/** Pages after which a commit on the main connection checkpoints itself (the backstop). */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

export interface Checkpointer {
  /** Checkpoints now (the worker does so on its own; this is for tests): frames in the log, and copied. */
  checkpoint(): Promise<{ log: number; checkpointed: number } | undefined>;
  stop(): Promise<void>;
}

// Plain CommonJS, evaluated as the worker's script: it needs nothing but the driver.
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
const wal = workerData.file + '-wal';
function walBytes() {
  try { return fs.statSync(wal).size; } catch { return 0; }
}
function checkpoint() {
  try {
    const [result] = connection.pragma('wal_checkpoint(PASSIVE)');
    return { log: result.log, checkpointed: result.checkpointed };
  } catch {
    return undefined; // busy or closing: the next round retries
  }
}
const timer = setInterval(() => {
  // A checkpoint with nothing new to copy returns at once, without syncing anything.
  if (walBytes() > 0) checkpoint();
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'checkpoint') {
    parentPort.postMessage(checkpoint());
    return;
  }
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
`;

/** Starts checkpointing the WAL of the database `file` in a worker thread. */
export function startCheckpointer(file: string): Checkpointer {
  // The same driver release as the main connection's, matched to this Node.
  const driver = sqliteDriverPath();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, everyMs: CHECKPOINT_EVERY_MS },
  });
  // Never what keeps a process alive; stop() ends it in an orderly way.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', () => {
    // Checkpointing falls back to the main connection's backstop.
  });
  return {
    checkpoint() {
      worker.ref();
      const answered = new Promise<{ log: number; checkpointed: number } | undefined>((resolve) => worker.once('message', resolve));
      worker.postMessage('checkpoint');
      return Promise.race([answered, exited.then(() => undefined)]).finally(() => worker.unref());
    },
    async stop() {
      // Waited for: the process stays up until the worker has closed its connection.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
