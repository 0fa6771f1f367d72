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
import { sql, type Compilable, type OperationNodeSource } from 'kysely';
import { nameStatement, type Db } from './database.ts';
import { dialectOf } from './dialect.ts';

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
  const last = writes[writes.length - 1]!;
  const clauses = writes.slice(0, -1).map((write, i) => sql`${sql.id(`written_${i + 1}`)} as (${write})`);
  const statement = clauses.length === 0 ? last.compile() : sql`with ${sql.join(clauses)} ${last}`.compile(executor);
  if (options.named) nameStatement(executor, statement.sql);
  await executor.executeQuery(statement);
}
