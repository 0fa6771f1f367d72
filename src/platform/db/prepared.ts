/**
 * Queries built and compiled once per database, with named placeholders where their values
 * go. Kysely builds an immutable tree and compiles it to SQL on every call, which on a hot
 * path costs more than SQLite takes to run the statement. A prepared query is built and
 * compiled the first time it runs on a database; each call binds its values by name and runs
 * the same SQL text, which SQLite's statement cache (sqlite.ts) finds already prepared and
 * PostgreSQL runs as a named statement it parses and plans once per connection
 * (`nameStatement`).
 *
 * The compiled form is kept per Kysely adapter, which a database and its transactions share,
 * so apps on different databases in one process never mix dialects or statements.
 *
 * One placeholder scheme serves every such query: `value('name')` inside the build, or
 * `placeholder('name')` for a part built beforehand (a SCIM filter's condition). A
 * placeholder is an object of its own, so no value a caller sends can be taken for one.
 */
import type { Compilable, CompiledQuery, InsertObject, QueryResult, RawBuilder } from 'kysely';
import type { Tables } from './tables.ts';
import { nameStatement, type Db } from './database.ts';

/** Stands for the value named `name` in a query being prepared. */
export type Placeholder<P> = <K extends keyof P & string>(name: K) => P[K];

class Slot {
  constructor(readonly name: string) {
    Object.freeze(this);
  }
}

/**
 * A placeholder for the value named `name`, typed as the value it stands for: for a part of a
 * prepared query built before the query itself.
 */
export function placeholder<T = unknown>(name: string): T {
  return new Slot(name) as unknown as T;
}

export interface PreparedQuery<P, R> {
  /** Runs the query in `executor` (the database or a transaction of it) with `values`. */
  execute(executor: Db, values: P): Promise<QueryResult<R>>;
  /** The query as `executor`'s database runs it, with `values` bound: for a runner of its own (`selectColumn`). */
  bind(executor: Db, values: P): CompiledQuery<R>;
}

type Parameter = { name: string } | { constant: unknown };

export interface PreparedOptions {
  /**
   * Whether PostgreSQL keeps the statement prepared on each connection (default true). False
   * for a query of one shape among many (one per filter a client sends), which would fill
   * every connection with statements it may never run again.
   */
  named?: boolean;
}

/**
 * `build` makes the query with Kysely's builders, or as SQL text (`sql```, for a statement the
 * builders cannot say, such as PostgreSQL's webhook claim); either way each value it binds is a
 * placeholder or a constant.
 */
export function preparedQuery<P, R = unknown>(build: (db: Db, value: Placeholder<P>) => Compilable<R> | RawBuilder<R>, options: PreparedOptions = {}): PreparedQuery<P, R> {
  const compiledByAdapter = new WeakMap<object, { query: CompiledQuery<R>; parameters: Parameter[] }>();

  function compiledFor(executor: Db) {
    const adapter = executor.getExecutor().adapter;
    let compiled = compiledByAdapter.get(adapter);
    if (compiled === undefined) {
      const asked = new Set<string>();
      const value = (name: string) => {
        asked.add(name);
        return placeholder(name);
      };
      const built = build(executor, value as Placeholder<P>);
      const query = 'isRawBuilder' in built ? built.compile(executor) : built.compile();
      const parameters = query.parameters.map((p): Parameter => (p instanceof Slot ? { name: p.name } : { constant: p }));
      // A value asked for but never bound is a query built wrong: refused before it ever runs.
      for (const name of asked) {
        if (!parameters.some((p) => 'name' in p && p.name === name)) throw new Error(`placeholder ${name} is not a parameter of: ${query.sql}`);
      }
      compiled = { query, parameters };
      compiledByAdapter.set(adapter, compiled);
      if (options.named !== false) nameStatement(executor, query.sql);
    }
    return compiled;
  }

  function bind(executor: Db, values: P): CompiledQuery<R> {
    const { query, parameters } = compiledFor(executor);
    const named = values as Record<string, unknown>;
    return { ...query, parameters: parameters.map((p) => ('name' in p ? named[p.name] : p.constant)) };
  }

  return {
    bind,
    execute(executor, values) {
      const compiled = bind(executor, values);
      const queries = executor.getExecutor();
      // Straight to the connection (the transaction's, if `executor` is one): Kysely's generic
      // path wraps each query in several more promises, only to run result plugins, and there
      // are none unless a database was given some.
      if (queries.plugins.length > 0) return executor.executeQuery(compiled);
      return queries.provideConnection((connection) => connection.executeQuery<R>(compiled));
    },
  };
}

/**
 * The insert of one row into `table`, each of `columns` bound from the value of the same name:
 * the shape of every insert a hot path runs (an audit record, an event, a payout, a key).
 */
export function preparedInsert<T extends keyof Tables & string, C extends keyof Tables[T] & string>(table: T, columns: readonly C[]): PreparedQuery<Pick<Tables[T], C>, unknown> {
  return preparedQuery((db, value: Placeholder<Pick<Tables[T], C>>) =>
    db.insertInto(table).values(Object.fromEntries(columns.map((column) => [column, value(column)])) as InsertObject<Tables, T>),
  );
}

/** A query over lists of keys (`preparedForKeys`): what it runs with, one list per name. */
export interface PreparedForKeys<L extends string, R> {
  execute(executor: Db, lists: Record<L, readonly string[]>): Promise<QueryResult<R>>;
}

/**
 * A prepared query that reads by lists of keys, with one placeholder per key: `build` receives,
 * for each list, its placeholders, to use as `in (…)`. A run pads every list with its last key
 * to one length, the longest list's rounded up to a power of two, so a handful of statements
 * serve every length up to a batch's.
 *
 * Why not each list bound as one array: PostgreSQL's generic plan for `= any($1)` assumes an
 * array of unknown length, against which the plan for the actual one always looks cheaper, so
 * such a statement is planned again on every run (`pg_prepared_statements` counted 38 custom
 * plans and no generic one after 38 token lookups). With a parameter per key the generic plan
 * knows the length, and PostgreSQL keeps it after its first five runs.
 */
export function preparedForKeys<L extends string, R>(names: readonly L[], build: (db: Db, keys: Record<L, string[]>) => Compilable<R> | RawBuilder<R>): PreparedForKeys<L, R> {
  const byLength = new Map<number, PreparedQuery<Record<string, string | null>, R>>();
  const statementOf = (length: number) => {
    let statement = byLength.get(length);
    if (statement === undefined) {
      statement = preparedQuery((db, value: Placeholder<Record<string, string | null>>) =>
        build(db, Object.fromEntries(names.map((name) => [name, Array.from({ length }, (_, i) => value(`${name}${i}`) as string)])) as Record<L, string[]>),
      );
      byLength.set(length, statement);
    }
    return statement;
  };
  return {
    execute(executor, lists) {
      const longest = Math.max(1, ...names.map((name) => lists[name].length));
      const length = 2 ** Math.ceil(Math.log2(longest));
      const values: Record<string, string | null> = {};
      for (const name of names) {
        const keys = lists[name];
        // An empty list stands as null, which `in (…)` matches with nothing.
        for (let i = 0; i < length; i++) values[`${name}${i}`] = keys[Math.min(i, keys.length - 1)] ?? null;
      }
      return statementOf(length).execute(executor, values);
    },
  };
}
