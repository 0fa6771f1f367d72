/**
 * schema/sqlite.sql and schema/postgres.sql are the schema migrations produce today (see
 * scripts/schema.ts), and migrations give one schema whichever way a database got there: a
 * fresh install applies them all at once; an upgraded database went through each release in
 * turn, holding rows at every step.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { databaseTargets, migratorFor, type DatabaseTarget } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import { freshSchema, schemaFile, schemaText } from '../../scripts/schema.ts';

interface Column {
  name: string;
  type: string;
  required: boolean;
  references?: { table: string; column: string };
}

/** Tables (migration bookkeeping left out) with the columns an insert must fill. */
async function tablesOf(database: Database): Promise<Map<string, Column[]>> {
  const db = database.db as unknown as Kysely<unknown>;
  const tables = new Map<string, Column[]>();
  if (database.dialect.name === 'sqlite') {
    const names = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_migration%' order by name`.execute(db);
    for (const { name } of names.rows) {
      const info = await sql<{ name: string; type: string; notnull: number; dflt_value: unknown; pk: number }>`select * from pragma_table_info(${name})`.execute(db);
      const keys = await sql<{ from: string; table: string; to: string | null }>`select * from pragma_foreign_key_list(${name})`.execute(db);
      tables.set(
        name,
        info.rows.map((c) => {
          const key = keys.rows.find((k) => k.from === c.name);
          return { name: c.name, type: c.type.toLowerCase(), required: (c.notnull === 1 || c.pk > 0) && c.dflt_value === null, references: key ? { table: key.table, column: key.to ?? 'id' } : undefined };
        }),
      );
    }
    return tables;
  }
  const schema = database.schema ?? 'public';
  const columns = await sql<{ table: string; name: string; type: string; nullable: string; fallback: string | null; identity: string }>`
    select table_name as table, column_name as name, data_type as type, is_nullable as nullable, column_default as fallback, is_identity as identity
    from information_schema.columns where table_schema = ${schema} and table_name not like 'kysely_migration%'
    order by table_name, ordinal_position`.execute(db);
  const keys = await sql<{ table: string; column: string; target: string; target_column: string }>`
    select c.conrelid::regclass::text as table, a.attname as column, c.confrelid::regclass::text as target, fa.attname as target_column
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    join pg_attribute fa on fa.attrelid = c.confrelid and fa.attnum = c.confkey[1]
    where c.contype = 'f' and c.connamespace = ${schema}::regnamespace`.execute(db);
  for (const c of columns.rows) {
    const key = keys.rows.find((k) => k.table === c.table && k.column === c.name);
    const list = tables.get(c.table) ?? [];
    list.push({ name: c.name, type: c.type, required: c.nullable === 'NO' && c.fallback === null && c.identity !== 'YES', references: key ? { table: key.target, column: key.target_column } : undefined });
    tables.set(c.table, list);
  }
  return tables;
}

/** The table an `<x>_id` column names by convention: `x`s, or `…_x`s (a delivery's in `…_deliveries`). */
function ownerOf(column: string, tables: Map<string, Column[]>): string | undefined {
  if (!column.endsWith('_id')) return undefined;
  const plural = column.slice(0, -3).replace(/y$/, 'ie') + 's';
  return [...tables.keys()].find((t) => (t === plural || t.endsWith(`_${plural}`)) && tables.get(t)!.some((c) => c.name === 'id'));
}

function valueFor(column: Column, tag: string, n: number): unknown {
  const type = column.type;
  if (/int|numeric|real|double|decimal/.test(type)) return n;
  if (type === 'boolean') return true;
  if (/json/.test(type)) return '{}';
  if (/blob|bytea/.test(type)) return Buffer.from(tag);
  return `${tag}_${column.name}`;
}

/**
 * Puts one row in every table it can: columns that must be filled get a value of their type,
 * foreign keys the key of a row already there. A row a table's checks refuse is left out.
 * Returns how many rows went in.
 */
async function fillTables(database: Database, step: number): Promise<number> {
  const db = database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const tables = await tablesOf(database);
  const pending = new Set(tables.keys());
  let inserted = 0;
  for (let progress = true; progress; ) {
    progress = false;
    for (const table of [...pending]) {
      const columns = tables.get(table)!;
      const row: Record<string, unknown> = {};
      let ready = true;
      for (const column of columns) {
        if (column.references && column.references.table !== table) {
          const target = await db.selectFrom(column.references.table).select(column.references.column).limit(1).executeTakeFirst();
          if (target === undefined) {
            if (column.required) ready = false;
            continue;
          }
          row[column.name] = target[column.references.column];
        } else if (column.required) {
          // A key a later migration may constrain (`endpoint_id` → webhook_endpoints) holds a real one.
          const owner = ownerOf(column.name, tables);
          const existing = owner ? await db.selectFrom(owner).select('id').limit(1).executeTakeFirst() : undefined;
          row[column.name] = existing ? existing.id : valueFor(column, `s${step}_${table}`, step * 1000 + inserted + 1);
        }
      }
      if (!ready) continue;
      pending.delete(table);
      progress = true;
      try {
        await db.insertInto(table).values(row).execute();
        inserted++;
      } catch {
        // A check constraint (a state name, say) refused the made-up values: no row here.
      }
    }
  }
  return inserted;
}

async function withDatabase<T>(target: DatabaseTarget, work: (database: Database) => Promise<T>): Promise<T> {
  const created = await target.create();
  const database = await openDatabase({ databaseUrl: created.url });
  try {
    return await work(database);
  } finally {
    await database.close();
    await created.drop();
  }
}

for (const target of databaseTargets()) {
  describe(`schema snapshot and migration order (${target.kind})`, () => {
    it(`schema/${target.kind}.sql is the schema a fresh database migrates to`, async () => {
      const file = schemaFile(target.kind);
      const stored = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
      const fresh = await freshSchema(target);
      assert.ok(
        stored === fresh,
        `schema/${target.kind}.sql is not current: run \`GATEHOUSE_TEST_DATABASE_URL=postgres://… npm run schema\` and commit schema/.\n` +
          `first difference at line ${firstDifference(stored, fresh)}`,
      );
    });

    it('upgrade order: a database migrated one release at a time, with rows at every step, ends with the fresh schema', async (t) => {
      const fresh = await freshSchema(target);
      await withDatabase(target, async (database) => {
        const migrator = migratorFor(database);
        const names = Object.keys(migrations).sort();
        let rows = 0;
        for (const name of names) {
          const result = await migrator.migrateTo(name);
          assert.equal(result.error, undefined, `${name}: ${String(result.error)}`);
          rows += await fillTables(database, rows + 1);
        }
        t.diagnostic(`${names.length} migrations, ${rows} rows written between them`);
        assert.ok(rows >= names.length, 'rows were there during the upgrades');
        assert.equal(await schemaText(database), fresh);
      });
    });
  });
}

function firstDifference(a: string, b: string): number {
  const [x, y] = [a.split('\n'), b.split('\n')];
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i + 1;
}
