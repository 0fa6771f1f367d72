/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Ids break ties in the keyset order, so they must compare the same everywhere: bytewise,
  // as SQLite does, rather than by whatever locale a PostgreSQL database was created with.
  const keyId = db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : sql`text`;
  await db.schema
    .createTable('invoices')
    .addColumn('id', keyId, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('settled_at', 'bigint')
    .addCheckConstraint('invoices_amount_positive', sql`amount > 0`)
    .execute();
  // The keyset order of every collection read: newest first by (created_at, id) within an account.
  await db.schema.createIndex('invoices_account_created').on('invoices').columns(['account_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', keyId, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('failure_code', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .addCheckConstraint('payouts_amount_positive', sql`amount > 0`)
    .execute();
  await db.schema.createIndex('payouts_account_created').on('payouts').columns(['account_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('payouts_state_due').on('payouts').columns(['state', 'due_at']).execute();

  // Double entry: every transaction's entries sum to zero (debits positive, credits negative).
  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', keyId, (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('ledger_account', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('source_object', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ledger_entries_account_created')
    .on('ledger_entries')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('ledger_entries_transaction').on('ledger_entries').column('transaction_id').execute();

  // Available balance per (account, currency): settled invoices minus payouts not failed.
  // The check keeps it from ever going below zero, whatever the application does.
  await db.schema
    .createTable('balances')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('available', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('balances_pk', ['account_id', 'currency'])
    .addCheckConstraint('balances_available_non_negative', sql`available >= 0`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('balances').execute();
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('payouts').execute();
  await db.schema.dropTable('invoices').execute();
}
