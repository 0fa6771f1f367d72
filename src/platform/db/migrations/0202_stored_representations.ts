/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
/**
 * Invoices, payouts and ledger entries keep the JSON text the API shows for them, so that a
 * page is read as stored texts and joined instead of being rebuilt from columns on every read.
 * Existing rows are rendered here, in SQL, field by field in the presenters' order (as they
 * were when this migration was written: migrations are never edited once released).
 */
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

type Kind = 'text' | 'text?' | 'integer' | 'json' | 'instant' | 'instant?' | { constant: string } | { object: readonly Field[] };
/** A member of the JSON text: its name, how its value is written, and the column holding it (the name, unless given). */
type Field = readonly [name: string, kind: Kind, column?: string];

const SHAPES: Record<string, readonly Field[]> = {
  invoices: [
    ['id', 'text'],
    ['object', { constant: 'invoice' }],
    ['amount', 'integer'],
    ['currency', 'text'],
    ['description', 'text?'],
    ['metadata', 'json'],
    ['state', 'text'],
    ['created_at', 'instant'],
    ['settled_at', 'instant?'],
  ],
  payouts: [
    ['id', 'text'],
    ['object', { constant: 'payout' }],
    ['amount', 'integer'],
    ['currency', 'text'],
    ['destination', 'text'],
    ['state', 'text'],
    ['failure_code', 'text?'],
    ['created_at', 'instant'],
    ['processed_at', 'instant?'],
  ],
  ledger_entries: [
    ['id', 'text'],
    ['object', { constant: 'ledger_entry' }],
    ['transaction_id', 'text'],
    ['ledger_account', 'text'],
    ['direction', 'text'],
    ['amount', 'integer'],
    ['currency', 'text'],
    [
      'source',
      {
        object: [
          ['object', 'text', 'source_object'],
          ['id', 'text', 'source_id'],
        ],
      },
    ],
    ['created_at', 'instant'],
  ],
};

interface Dialect {
  /** A JSON string literal of a text column (null stays SQL null). */
  quote(column: string): string;
  /** An RFC 3339 UTC timestamp with milliseconds, quoted, of an epoch-milliseconds column (null stays null). */
  instant(column: string): string;
  integer(column: string): string;
}

const sqlite: Dialect = {
  quote: (column) => `json_quote(${column})`,
  instant: (column) =>
    `('"' || strftime('%Y-%m-%dT%H:%M:%S', ${column} / 1000, 'unixepoch') || '.' || printf('%03d', ${column} % 1000) || 'Z"')`,
  integer: (column) => `cast(${column} as text)`,
};

const postgres: Dialect = {
  quote: (column) => `to_json(${column})::text`,
  instant: (column) =>
    `('"' || to_char(to_timestamp(${column} / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad((${column} % 1000)::text, 3, '0') || 'Z"')`,
  integer: (column) => `${column}::text`,
};

/** SQL for the JSON text of `fields`, member by member, in order. */
function objectOf(fields: readonly Field[], dialect: Dialect): string {
  const members = fields.map(([name, kind, column = name]) => `'"${name}":' || ${valueOf(kind, column, dialect)}`);
  return `'{' || ${members.join(` || ',' || `)} || '}'`;
}

function valueOf(kind: Kind, column: string, dialect: Dialect): string {
  if (typeof kind === 'object') return 'constant' in kind ? `'"${kind.constant}"'` : objectOf(kind.object, dialect);
  switch (kind) {
    case 'text':
      return dialect.quote(column);
    case 'text?':
      return `coalesce(${dialect.quote(column)}, 'null')`;
    case 'integer':
      return dialect.integer(column);
    case 'json':
      return column;
    case 'instant':
      return dialect.instant(column);
    case 'instant?':
      return `coalesce(${dialect.instant(column)}, 'null')`;
  }
}

function representationOf(table: string, dialect: Dialect): RawBuilder<string> {
  return sql.raw(objectOf(SHAPES[table]!, dialect));
}

export async function up(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of Object.keys(SHAPES)) {
    // Not null from the start (SQLite adds a NOT NULL column only with a default); every
    // row is rendered just below, and every writer sets it from then on.
    await db.schema
      .alterTable(table)
      .addColumn('representation', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db
      .updateTable(table)
      .set({ representation: representationOf(table, isPostgres ? postgres : sqlite) })
      .execute();
    if (isPostgres) await sql`alter table ${sql.table(table)} alter column representation drop default`.execute(db);
  }
  if (!isPostgres) {
    // On SQLite the keyset index carries the representation too, so a page is read from the
    // index alone, in order, without a lookup into the table per row. (PostgreSQL limits an
    // index entry to about 2.7 kB, less than an invoice with full metadata.)
    for (const table of Object.keys(SHAPES)) {
      const index = `${table}_account_created`;
      await db.schema.dropIndex(index).execute();
      await db.schema.createIndex(index).on(table).columns(['account_id', 'created_at', 'id', 'representation']).execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of Object.keys(SHAPES)) {
    const index = `${table}_account_created`;
    await db.schema.dropIndex(index).execute();
    await db.schema.createIndex(index).on(table).columns(['account_id', 'created_at', 'id']).execute();
    await db.schema.alterTable(table).dropColumn('representation').execute();
  }
}
