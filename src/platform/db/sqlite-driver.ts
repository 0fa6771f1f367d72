/**
 * The SQLite driver matched to the Node.js it runs in.
 *
 * Two releases of better-sqlite3 are installed side by side, each pinned:
 *
 * - `better-sqlite3` (12.x) for Node 20. On Node 24 it is unsafe: its cleanup hooks trip the
 *   N-API environment checks of Node 24.19+, and a statement finalised by garbage collection
 *   outside a JavaScript context aborts the whole process (SIGABRT).
 * - `better-sqlite3-node22` (an npm alias of better-sqlite3 13.x) for Node 22 and later. It is
 *   built on Node-API 10, which Node 20 lacks, and ships its own prebuilt binaries. It is an
 *   optional dependency, so npm on Node 20 leaves it out instead of warning about its engines.
 *
 * Both expose the same API; the types are those of `better-sqlite3`. The driver is loaded on
 * first use, so a node on PostgreSQL never needs one.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

export type SqliteDriverConstructor = typeof BetterSqlite3;

export interface SqliteDriverChoice {
  /** The package name under node_modules. */
  module: string;
  /** The release line it is, for messages. */
  release: string;
  /** The runtimes it serves, for messages. */
  serves: string;
}

export const SQLITE_DRIVER_NODE20: SqliteDriverChoice = {
  module: 'better-sqlite3',
  release: 'better-sqlite3 12',
  serves: 'Node 20',
};

export const SQLITE_DRIVER_NODE22: SqliteDriverChoice = {
  module: 'better-sqlite3-node22',
  release: 'better-sqlite3 13',
  serves: 'Node 22 and later',
};

/** The driver for a Node version (`process.versions.node`, e.g. "24.11.1"). */
export function sqliteDriverFor(nodeVersion: string): SqliteDriverChoice {
  const major = Number.parseInt(nodeVersion.split('.')[0] ?? '', 10);
  return major >= 22 ? SQLITE_DRIVER_NODE22 : SQLITE_DRIVER_NODE20;
}

const requireHere = createRequire(import.meta.url);
let loaded: SqliteDriverConstructor | undefined;

/**
 * The error when the matched driver cannot be loaded: which one was wanted, for which Node,
 * why it failed and what to run. The other release is never a fallback (on Node 24 it would
 * load, then abort the process later).
 */
export function sqliteDriverError(choice: SqliteDriverChoice, nodeVersion: string, cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
  return new Error(
    `cannot load the SQLite driver for Node ${nodeVersion}: ${choice.module} (${choice.release}, for ${choice.serves}): ${reason}. ` +
      'Run `npm ci` with this Node version (node_modules installed under another Node lack the driver it needs), ' +
      'or use PostgreSQL (GATEHOUSE_DATABASE_URL=postgres://...).',
    { cause },
  );
}

/** Where the matched driver's entry point is, for a worker thread to load the same one. */
export function sqliteDriverPath(nodeVersion: string = process.versions.node): string {
  const choice = sqliteDriverFor(nodeVersion);
  try {
    return requireHere.resolve(choice.module);
  } catch (error) {
    throw sqliteDriverError(choice, nodeVersion, error);
  }
}

/** The better-sqlite3 constructor matched to the running Node, loaded once. */
export function loadSqliteDriver(): SqliteDriverConstructor {
  if (loaded) return loaded;
  const nodeVersion = process.versions.node;
  const choice = sqliteDriverFor(nodeVersion);
  let driver: SqliteDriverConstructor;
  try {
    driver = requireHere(choice.module) as SqliteDriverConstructor;
    // The native binding loads with the first connection: open one so a binary built for
    // another Node fails here, with the message above, instead of at the first request.
    new driver(':memory:').close();
  } catch (error) {
    throw sqliteDriverError(choice, nodeVersion, error);
  }
  loaded = driver;
  return driver;
}
