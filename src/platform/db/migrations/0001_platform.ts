/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_created').on('accounts').columns(['created_at', 'id']).execute();

  // Users of an account: the people who sign in at the login page and whom SCIM provisions.
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('user_name_lower', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('display_name', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password_hash', 'text')
    .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_account_user_name')
    .unique()
    .on('users')
    .columns(['account_id', 'user_name_lower'])
    .execute();
  await db.schema.createIndex('users_account_external_id').on('users').columns(['account_id', 'external_id']).execute();
  await db.schema.createIndex('users_account_created').on('users').columns(['account_id', 'created_at', 'id']).execute();
  void sql;
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('users').execute();
  await db.schema.dropTable('accounts').execute();
  await db.schema.dropTable('settings').execute();
}
