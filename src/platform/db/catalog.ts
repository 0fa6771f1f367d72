/**
 * What each database's own catalog says of the schema, for moving an installation between
 * databases (transfer.ts): its tables, their foreign keys and primary keys. Reached through
 * the dialect (`dialect.catalog`), as Kysely reaches its introspector through its dialect.
 */
import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables found at run time
type AnyDb = Kysely<any>;

export interface Catalog {
  /** The base tables of `schema` (PostgreSQL; ignored on SQLite). */
  tables(db: AnyDb, schema: string | undefined): Promise<string[]>;
  /** Each table of `tables` with the tables its foreign keys refer to. */
  parents(db: AnyDb, schema: string | undefined, tables: readonly string[]): Promise<Map<string, Set<string>>>;
  /** The columns of `table`'s primary key, in key order. */
  primaryKey(db: AnyDb, schema: string | undefined, table: string): Promise<string[]>;
  /** Begins a transaction that reads one consistent snapshot. */
  readonly beginSnapshot: string;
}

export const sqliteCatalog: Catalog = {
  async tables(db) {
    const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    return rows.rows.map((r) => r.name);
  },
  async parents(db, _schema, tables) {
    const parents = new Map<string, Set<string>>();
    for (const name of tables) {
      const fks = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
      parents.set(name, new Set(fks.rows.map((f) => f.table)));
    }
    return parents;
  },
  async primaryKey(db, _schema, table) {
    const cols = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(db);
    return cols.rows.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
  },
  beginSnapshot: 'begin',
};

export const postgresCatalog: Catalog = {
  async tables(db, schema) {
    const rows = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = ${schema} and table_type = 'BASE TABLE'`.execute(db);
    return rows.rows.map((r) => r.name);
  },
  async parents(db, schema) {
    const parents = new Map<string, Set<string>>();
    const fks = await sql<{ child: string; parent: string }>`
      select c.relname as child, p.relname as parent
      from pg_constraint k
      join pg_class c on c.oid = k.conrelid
      join pg_class p on p.oid = k.confrelid
      join pg_namespace n on n.oid = k.connamespace
      where k.contype = 'f' and n.nspname = ${schema}`.execute(db);
    for (const fk of fks.rows) {
      if (!parents.has(fk.child)) parents.set(fk.child, new Set());
      parents.get(fk.child)!.add(fk.parent);
    }
    return parents;
  },
  async primaryKey(db, schema, table) {
    const cols = await sql<{ name: string }>`
      select a.attname as name
      from pg_index i
      join pg_class c on c.oid = i.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
      where i.indisprimary and c.relname = ${table} and n.nspname = ${schema}
      order by array_position(i.indkey, a.attnum)`.execute(db);
    return cols.rows.map((c) => c.name);
  },
  beginSnapshot: 'begin isolation level repeatable read read only',
};
