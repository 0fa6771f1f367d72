/**
 * Several writes of one transaction sent as one statement where the dialect runs writes in WITH
 * clauses (`writableCtes`, PostgreSQL): one round trip instead of one per write. Elsewhere
 * (SQLite, in process) they run one after another, in order.
 *
 * The writes must not depend on one another's effects: the clauses of one statement all see
 * the snapshot it started with, in no set order (a foreign key between them is checked when the
 * statement ends, so a parent and its children may go together). None may read what another
 * writes, and none may delete a key another inserts.
 */
import { sql, type Compilable, type InsertObject, type OperationNodeSource, type RawBuilder } from 'kysely';
import { nameStatement, type Db } from './database.ts';
import { dialectOf } from './dialect.ts';
import { preparedQuery, type PreparedQuery } from './prepared.ts';
import type { Tables } from './tables.ts';

export interface WriteTogetherOptions {
  /**
   * PostgreSQL keeps the statement prepared on each connection (`nameStatement`): parsed and
   * planned once instead of on every run. Only for a statement of one of a few shapes, since
   * each shape stays on every connection.
   */
  named?: boolean;
}

export async function writeTogether(executor: Db, writes: ReadonlyArray<Compilable & OperationNodeSource>, options: WriteTogetherOptions = {}): Promise<void> {
  if (writes.length === 0) return;
  if (!dialectOf(executor).writableCtes) {
    for (const write of writes) await executor.executeQuery(write.compile());
    return;
  }
  const statement = writes.length === 1 ? writes[0]!.compile() : statementOf(writes).compile(executor);
  if (options.named) nameStatement(executor, statement.sql);
  await executor.executeQuery(statement);
}

/** Two writes or more as one statement: every write but the last a WITH clause of the last. */
function statementOf(writes: ReadonlyArray<Compilable & OperationNodeSource>): RawBuilder<unknown> {
  const last = writes[writes.length - 1]!;
  const clauses = writes.slice(0, -1).map((write, i) => sql`${sql.id(`written_${i + 1}`)} as (${write})`);
  return sql`with ${sql.join(clauses)} ${last}`;
}

/** Whole rows inserted into a table: every row with the same columns. */
export interface RowsInsert {
  table: keyof Tables & string;
  rows: readonly object[];
}

/** Statement shapes `insertTogether` keeps compiled, oldest dropped first beyond it. */
const INSERT_SHAPES = 200;

const insertsByShape = new Map<string, PreparedQuery<Record<string, unknown>, unknown>>();

/**
 * Inserts of whole rows sent together as `writeTogether` sends them, but compiled once per shape
 * (the tables, their columns and how many rows each) rather than built and compiled by Kysely on
 * every call, which on a hot path costs more CPU than sending the statement: each call only binds
 * its values (prepared.ts). With `named`, PostgreSQL keeps the shape prepared too. Inserts
 * without rows are left out. Elsewhere (SQLite) the inserts run one after another, each prepared.
 */
export async function insertTogether(executor: Db, inserts: readonly RowsInsert[], options: WriteTogetherOptions = {}): Promise<void> {
  const present = inserts.filter((insert) => insert.rows.length > 0);
  if (present.length === 0) return;
  if (!dialectOf(executor).writableCtes) {
    for (const insert of present) await preparedInserts([insert], false).execute(executor, boundValues([insert]));
    return;
  }
  await preparedInserts(present, options.named === true).execute(executor, boundValues(present));
}

function columnsOf(insert: RowsInsert): string[] {
  return Object.keys(insert.rows[0]!);
}

/** The value of insert i's row j, column c is bound as `i.j.c`. */
function boundValues(inserts: readonly RowsInsert[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  inserts.forEach((insert, i) => {
    const columns = columnsOf(insert);
    insert.rows.forEach((row, j) => {
      for (const column of columns) values[`${i}.${j}.${column}`] = (row as Record<string, unknown>)[column];
    });
  });
  return values;
}

function preparedInserts(inserts: readonly RowsInsert[], named: boolean): PreparedQuery<Record<string, unknown>, unknown> {
  const shape = JSON.stringify([named, inserts.map((insert) => [insert.table, insert.rows.length, columnsOf(insert)])]);
  let prepared = insertsByShape.get(shape);
  if (prepared === undefined) {
    const shapes = inserts.map((insert) => ({ table: insert.table, count: insert.rows.length, columns: columnsOf(insert) }));
    prepared = preparedQuery<Record<string, unknown>>((db, value) => {
      const writes = shapes.map(({ table, count, columns }, i) => {
        const rows = Array.from({ length: count }, (_, j) => Object.fromEntries(columns.map((column) => [column, value(`${i}.${j}.${column}`)])));
        return db.insertInto(table).values(rows as InsertObject<Tables, typeof table>[]);
      });
      return writes.length === 1 ? writes[0]! : statementOf(writes);
    }, { named });
    if (insertsByShape.size >= INSERT_SHAPES) insertsByShape.delete(insertsByShape.keys().next().value!);
    insertsByShape.set(shape, prepared);
  }
  return prepared;
}
