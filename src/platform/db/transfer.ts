/**
 * Moving an installation between databases (SQLite ⇄ PostgreSQL) with `gatehouse export` and
 * `gatehouse import`. The format is NDJSON: a header line naming the schema version and the row
 * count of every table, then one line per row. It is generic over the schema: tables are found
 * by introspection and copied parents first (foreign-key order), so every capability's data
 * (accounts, clients, users, tokens, keys, idempotency records, events, deliveries) moves
 * without a per-table list to keep up to date.
 *
 * Export reads one consistent snapshot (a read transaction); import refuses a non-empty target
 * unless told to replace its contents, and is one transaction: the contents replaced, every row
 * loaded, every table's count checked against the header. An export cut short, a line that is not
 * JSON or a row the schema refuses rolls all of it back, and the target is as it was.
 *
 * The secrets key is never exported (src/platform/secrets-key.ts): an export holds webhook
 * secrets and signing keys sealed under it, and would open them if it carried it. The header
 * names the key by its id instead, and import refuses a target that does not hold that key, so
 * nothing arrives that its new home cannot open.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Tables } from './tables.ts';
import type { Database } from './database.ts';
import { SECRETS_KEY_SETTING } from '../secrets-key.ts';
import { ADMIN_TOKEN_SETTING } from '../../admin/admin-token.ts';
import { migrations } from './migrations/index.ts';

export const EXPORT_FORMAT = 'gatehouse-export';
export const EXPORT_VERSION = 1;

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: number;
  /** The last migration applied to the source; the target must be at the same one. */
  schema: string;
  exported_at: string;
  source: 'sqlite' | 'postgres';
  /** secretsKeyId() of the secrets key the sealed values in the export need; absent from exports of earlier releases. */
  sealed_under?: string;
  /** Tables in the order they are written (parents first) with their row counts. */
  tables: Array<{ name: string; rows: number }>;
}

type Row = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of any table, found at run time
type AnyDb = Kysely<any>;

const BOOKKEEPING = /^(kysely_|sqlite_)/;
const BATCH = 500;

export function latestMigration(): string {
  return Object.keys(migrations).sort().at(-1)!;
}

/** The service's tables, parents before children. */
export async function tablesInDependencyOrder(database: Database): Promise<string[]> {
  const db = database.db as AnyDb;
  const { catalog } = database.dialect;
  const names = (await catalog.tables(db, database.schema)).filter((n) => !BOOKKEEPING.test(n));
  const parents = await catalog.parents(db, database.schema, names);
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const parent of [...(parents.get(name) ?? [])].sort()) if (parent !== name && names.includes(parent)) visit(parent);
    visiting.delete(name);
    ordered.push(name);
  };
  for (const name of [...names].sort()) visit(name);
  return ordered;
}

async function countExported(db: AnyDb, table: string): Promise<number> {
  const result = await exportedRows(db, table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(result.n);
}

/**
 * Settings that belong to an installation, never to its data: a secrets key that an earlier
 * release kept in `settings`, and the digest of the generated admin token (each installation's
 * operator keeps the token made for it). An export leaves them out; an import keeps the target's
 * own, and skips any an export of an earlier release carries.
 */
const INSTALLATION_SETTINGS = [SECRETS_KEY_SETTING, ADMIN_TOKEN_SETTING];

const isInstallationSetting = (table: string, row: Row) => table === 'settings' && INSTALLATION_SETTINGS.includes(String(row.name));

/** The rows of a table an export carries, and an import replaces and counts: all but the installation's own settings. */
function exportedRows(db: AnyDb, table: string) {
  const rows = db.selectFrom(table);
  return table === 'settings' ? rows.where('name', 'not in', INSTALLATION_SETTINGS) : rows;
}

function encodeValue(value: unknown): unknown {
  return Buffer.isBuffer(value) ? { $base64: value.toString('base64') } : value;
}

function decodeValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$base64' in value) {
    return Buffer.from(String((value as { $base64: string }).$base64), 'base64');
  }
  return value;
}

export interface Progress {
  (table: string, done: number, total: number): void;
}

/** Writes the whole installation as NDJSON lines through `write`, from one consistent snapshot. */
export async function exportDatabase(
  database: Database,
  write: (line: string) => Promise<void>,
  progress: Progress,
  sealedUnder: { keyId: string },
): Promise<ExportHeader> {
  const tables = await tablesInDependencyOrder(database);
  return (database.db as AnyDb).connection().execute(async (conn) => {
    await sql.raw(database.dialect.catalog.beginSnapshot).execute(conn);
    try {
      const header: ExportHeader = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        schema: latestMigration(),
        exported_at: new Date().toISOString(),
        source: database.dialect.name,
        sealed_under: sealedUnder.keyId,
        tables: [],
      };
      for (const name of tables) {
        const { n } = await exportedRows(conn, name).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
        header.tables.push({ name, rows: Number(n) });
      }
      await write(JSON.stringify(header));
      for (const { name, rows: total } of header.tables) {
        const key = await database.dialect.catalog.primaryKey(conn, database.schema, name);
        let done = 0;
        let after: unknown;
        for (;;) {
          let query = exportedRows(conn, name).selectAll().limit(BATCH);
          if (key.length === 1) {
            if (after !== undefined) query = query.where(key[0]!, '>', after);
            query = query.orderBy(key[0]!);
          } else {
            for (const column of key) query = query.orderBy(column);
            query = query.offset(done);
          }
          const rows = (await query.execute()) as Row[];
          for (const row of rows) {
            const encoded: Row = {};
            for (const [column, value] of Object.entries(row)) encoded[column] = encodeValue(value);
            await write(JSON.stringify({ table: name, row: encoded }));
          }
          done += rows.length;
          progress(name, done, total);
          if (rows.length < BATCH) break;
          if (key.length === 1) after = rows.at(-1)![key[0]!];
        }
      }
      return header;
    } finally {
      await sql.raw('rollback').execute(conn);
    }
  });
}

export class ImportRefused extends Error {}

export interface ImportResult {
  tables: Array<{ name: string; expected: number; imported: number }>;
}

/**
 * Reads an export line by line into `database` (already migrated to the export's schema), in one
 * transaction (see above). Refuses a non-empty target unless `replace` is set, in which case the
 * target's rows are deleted first, in the same transaction. `record` runs last in it, once the
 * counts are checked (the import's own audit record: written before, it would be one row more than
 * the export holds).
 */
export async function importDatabase(
  database: Database,
  lines: AsyncIterable<string>,
  options: { replace: boolean; progress: Progress; heldKeyId: string | undefined; record?: (trx: Transaction<Tables>, result: ImportResult) => Promise<void> },
): Promise<ImportResult> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new ImportRefused('the export is empty');
  const header = parsedLine(first.value, 1) as ExportHeader;
  if (header.format !== EXPORT_FORMAT || header.version !== EXPORT_VERSION) {
    throw new ImportRefused('this is not a Gatehouse export of a version this release reads');
  }
  if (header.schema !== latestMigration()) {
    throw new ImportRefused(`the export is at schema ${header.schema} but this release is at ${latestMigration()}; use matching versions`);
  }
  if (header.sealed_under !== undefined && header.sealed_under !== options.heldKeyId) {
    const held = options.heldKeyId ?? 'none yet';
    throw new ImportRefused(
      `the export's secrets are sealed under secrets key ${header.sealed_under} and this installation holds ${held}: ` +
        "set GATEHOUSE_SECRETS_KEY to the source's key (on SQLite, the contents of <database>.secrets-key beside its database file)",
    );
  }
  const targetTables = await tablesInDependencyOrder(database);
  return (database.db as AnyDb).transaction().execute(async (trx) => {
    const nonEmpty: string[] = [];
    for (const name of targetTables) if ((await countExported(trx, name)) > 0) nonEmpty.push(name);
    if (nonEmpty.length > 0) {
      if (!options.replace) {
        throw new ImportRefused(`the target database is not empty (${nonEmpty.join(', ')}); pass --replace to delete its contents first`);
      }
      for (const name of [...targetTables].reverse()) await (name === 'settings' ? trx.deleteFrom(name).where('name', 'not in', INSTALLATION_SETTINGS) : trx.deleteFrom(name)).execute();
    }

    const imported = new Map<string, number>();
    const expected = new Map(header.tables.map((t) => [t.name, t.rows]));
    let skipped = 0;
    let batch: Row[] = [];
    let batchTable: string | undefined;
    let batchLine = 0;
    const flush = async () => {
      if (!batchTable || batch.length === 0) return;
      const table = batchTable;
      try {
        await trx.insertInto(table).values(batch).execute();
      } catch (error) {
        throw new ImportRefused(`the rows of ${table} from line ${batchLine} on cannot be stored: ${(error as Error).message}`);
      }
      imported.set(table, (imported.get(table) ?? 0) + batch.length);
      options.progress(table, imported.get(table)!, expected.get(table) ?? 0);
      batch = [];
    };
    let lineNumber = 1;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      lineNumber += 1;
      if (next.value.trim() === '') continue;
      const { table, row } = parsedLine(next.value, lineNumber) as { table: string; row: Row };
      if (!targetTables.includes(table)) throw new ImportRefused(`line ${lineNumber}: the export has a table this release does not know: ${table}`);
      if (isInstallationSetting(table, row)) {
        skipped += 1;
        continue;
      }
      if (table !== batchTable || batch.length >= BATCH) {
        await flush();
        batchLine = lineNumber;
      }
      batchTable = table;
      const decoded: Row = {};
      for (const [column, value] of Object.entries(row)) decoded[column] = decodeValue(value);
      batch.push(decoded);
    }
    await flush();

    const tables = [];
    for (const { name, rows } of header.tables) tables.push({ name, expected: name === 'settings' ? rows - skipped : rows, imported: await countExported(trx, name) });
    const short = tables.filter((t) => t.expected !== t.imported);
    if (short.length > 0) {
      throw new ImportRefused(`the export is incomplete or altered: ${short.map((t) => `${t.name} has ${t.imported} of the ${t.expected} rows its header names`).join('; ')}`);
    }
    const result = { tables };
    // The rows are generic here; the record is written through the schema's own types.
    await options.record?.(trx as unknown as Transaction<Tables>, result);
    return result;
  });
}

/** One line of the export as JSON; a line that is not names its number. */
function parsedLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw new ImportRefused(`line ${number} is not JSON (${(error as Error).message}): the export is damaged or cut short`);
  }
}
