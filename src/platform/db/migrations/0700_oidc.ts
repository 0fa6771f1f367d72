/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

/**
 * OpenID Connect on the code flow (oauth/oidc-*.ts) and the client lifecycle:
 * - per client: post-logout redirect URIs, the ID token's alg, public or pairwise `sub`,
 *   a back-channel logout URI, "PKCE required", and a `jwks_uri` beside inline `jwks`;
 * - on codes and grants: what the ID token needs later (nonce, auth_time, the session, the
 *   `claims` request), so a refresh can issue a new ID token;
 * - which clients each sign-in session was used for (back-channel logout goes to those);
 * - the back-channel logout outbox: one row per logout token to deliver, retried on a schedule.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oauth_clients').addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('oauth_clients').addColumn('id_token_signed_response_alg', 'text', (c) => c.notNull().defaultTo('ES256')).execute();
  await db.schema.alterTable('oauth_clients').addColumn('subject_type', 'text', (c) => c.notNull().defaultTo('public')).execute();
  await db.schema.alterTable('oauth_clients').addColumn('backchannel_logout_uri', 'text').execute();
  await db.schema.alterTable('oauth_clients').addColumn('require_pkce', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('oauth_clients').addColumn('jwks_uri', 'text').execute();

  for (const table of ['oauth_codes', 'oauth_grants']) {
    await db.schema.alterTable(table).addColumn('nonce', 'text').execute();
    await db.schema.alterTable(table).addColumn('auth_time', 'bigint').execute();
    await db.schema.alterTable(table).addColumn('session_id', 'text').execute();
    await db.schema.alterTable(table).addColumn('claims', 'text').execute();
  }

  await db.schema
    .createTable('oidc_session_clients')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_session_clients_pk', ['session_id', 'client_id'])
    .execute();
  await db.schema.createIndex('oidc_session_clients_user').on('oidc_session_clients').columns(['account_id', 'user_id']).execute();

  await db.schema
    .createTable('oidc_logout_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('target_uri', 'text', (c) => c.notNull())
    // The logout token's claims; signed when sent, with the key active then.
    .addColumn('claims', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('oidc_logout_deliveries_due').on('oidc_logout_deliveries').columns(['state', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oidc_logout_deliveries').execute();
  await db.schema.dropTable('oidc_session_clients').execute();
  for (const table of ['oauth_codes', 'oauth_grants']) {
    for (const column of ['nonce', 'auth_time', 'session_id', 'claims']) await db.schema.alterTable(table).dropColumn(column).execute();
  }
  for (const column of ['post_logout_redirect_uris', 'id_token_signed_response_alg', 'subject_type', 'backchannel_logout_uri', 'require_pkce', 'jwks_uri']) {
    await db.schema.alterTable('oauth_clients').dropColumn(column).execute();
  }
}
