/**
 * Queries built and compiled once. Kysely builds an immutable tree and compiles it to SQL on
 * every call, which on the hot write path costs more than SQLite takes to run the statement.
 * A prepared query is built once per database with named placeholders where its values go;
 * each call binds the values by name and runs the same SQL text (which SQLite's statement
 * cache in database.ts then finds already prepared).
 *
 * The compiled form is kept per Kysely adapter, which a database and its transactions share,
 * so apps on different databases in one process never mix dialects.
 */
import type { Compilable, CompiledQuery, QueryResult, RawBuilder } from 'kysely';
import { prepareOnPostgres, type Db } from './database.ts';

/** Stands for the value named `name` in a query being prepared. */
export type Placeholder<P> = <K extends keyof P & string>(name: K) => P[K];

export interface PreparedQuery<P, R> {
  /** Runs the query in `executor` (the database or a transaction of it) with `values`. */
  execute(executor: Db, values: P): Promise<QueryResult<R>>;
}

type Slot = { name: string } | { constant: unknown };

/** Marks a placeholder among the compiled parameters: no value a caller writes starts with NUL. */
const MARK = '\u0000prepared:';

export function preparedQuery<P, R = unknown>(build: (db: Db, value: Placeholder<P>) => Compilable<R>): PreparedQuery<P, R> {
  const compiledByAdapter = new WeakMap<object, { query: CompiledQuery<R>; slots: Slot[] }>();

  function compiledFor(executor: Db) {
    const adapter = executor.getExecutor().adapter;
    let compiled = compiledByAdapter.get(adapter);
    if (compiled === undefined) {
      const query = build(executor, ((name: string) => `${MARK}${name}`) as Placeholder<P>).compile();
      const slots = query.parameters.map((p): Slot => (typeof p === 'string' && p.startsWith(MARK) ? { name: p.slice(MARK.length) } : { constant: p }));
      compiled = { query, slots };
      compiledByAdapter.set(adapter, compiled);
      prepareOnPostgres(query.sql);
    }
    return compiled;
  }

  return {
    execute(executor, values) {
      const { query, slots } = compiledFor(executor);
      const named = values as Record<string, unknown>;
      const compiled: CompiledQuery<R> = { ...query, parameters: slots.map((slot) => ('name' in slot ? named[slot.name] : slot.constant)) };
      const queries = executor.getExecutor();
      // Straight to the connection (the transaction's, if `executor` is one): Kysely's generic
      // path wraps each query in several more promises, only to run result plugins, and there
      // are none unless a database was given some.
      if (queries.plugins.length > 0) return executor.executeQuery(compiled);
      return queries.provideConnection((connection) => connection.executeQuery<R>(compiled));
    },
  };
}

/*
 * The same, for a query built at run time (per store, or per filter text a client sends): built
 * with `querySlot`s where its values go, compiled at once, then run with the slots' values.
 */

/**
 * A placeholder for a value given each time a reusable query runs. It is an object of its own,
 * so no input value can be mistaken for it.
 */
export function querySlot<T = string>(name: string): T {
  return Object.freeze({ slot: name }) as unknown as T;
}

/**
 * A query of a fixed shape built and compiled once, then run with the values of its `slots`
 * (in that order) put where the slots were bound. Building and compiling with Kysely costs
 * more than running a small indexed query, and the unchanged SQL text finds its prepared
 * statement at once. Parameters other than slots keep the values they were compiled with.
 */
export function reusableQuery<R>(query: Compilable<R>, slots: readonly unknown[]): (executor: Db, values: readonly unknown[]) => Promise<R[]> {
  const compiled = query.compile();
  const positions = compiled.parameters.map((parameter) => slots.indexOf(parameter));
  slots.forEach((_, i) => {
    if (!positions.includes(i)) throw new Error(`slot ${i} is not a parameter of: ${compiled.sql}`);
  });
  return async (executor, values) => {
    const parameters = compiled.parameters.map((parameter, i) => (positions[i] === -1 ? parameter : values[positions[i]!]));
    return (await executor.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}

/**
 * Runs `query`, a statement whose SQL text is the same on every run (its values all
 * parameters), as one PostgreSQL keeps prepared on each connection (see `prepareOnPostgres`).
 */
export function executePrepared<R>(executor: Db, query: RawBuilder<R>): Promise<QueryResult<R>> {
  const compiled = query.compile(executor);
  prepareOnPostgres(compiled.sql);
  return executor.executeQuery(compiled);
}
