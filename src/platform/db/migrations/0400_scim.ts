/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // Per-account SCIM bearer tokens, stored only as SHA-256 digests.
  await db.schema
    .createTable('scim_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('scim_tokens_account').on('scim_tokens').columns(['account_id', 'created_at']).execute();

  // Searchable values of a user's SCIM attributes that are not columns of `users`
  // (emails, phone numbers, title, enterprise extension…): one row per (element, sub-attribute),
  // so filters become indexed SQL instead of scans of JSON.
  await db.schema
    .createTable('scim_user_values')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('attr', 'text', (c) => c.notNull())
    .addColumn('item', 'integer', (c) => c.notNull())
    .addColumn('sub', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('value_lower', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scim_user_values_lookup').on('scim_user_values').columns(['account_id', 'attr', 'sub', 'value_lower']).execute();
  await db.schema.createIndex('scim_user_values_user').on('scim_user_values').columns(['user_id', 'attr', 'item']).execute();

  await db.schema
    .createTable('scim_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('display_name_lower', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scim_groups_display_name').unique().on('scim_groups').columns(['account_id', 'display_name_lower']).execute();
  await db.schema.createIndex('scim_groups_external_id').on('scim_groups').columns(['account_id', 'external_id']).execute();
  await db.schema.createIndex('scim_groups_created').on('scim_groups').columns(['account_id', 'created_at', 'id']).execute();

  // One row per membership: adding or removing a member touches one row, whatever the group's size.
  await db.schema
    .createTable('scim_group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('scim_group_members_user').on('scim_group_members').columns(['user_id', 'group_id']).execute();

  // Roles of an account: the scopes their holders may consent to, and the groups that confer them.
  await db.schema
    .createTable('roles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('roles_account_name').unique().on('roles').columns(['account_id', 'name']).execute();
  await db.schema
    .createTable('role_groups')
    .addColumn('role_id', 'text', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('match', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('role_groups_account').on('role_groups').columns(['account_id', 'match', 'value']).execute();
  await db.schema.createIndex('role_groups_role').on('role_groups').column('role_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('role_groups').execute();
  await db.schema.dropTable('roles').execute();
  await db.schema.dropTable('scim_group_members').execute();
  await db.schema.dropTable('scim_groups').execute();
  await db.schema.dropTable('scim_user_values').execute();
  await db.schema.dropTable('scim_tokens').execute();
}
