/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * The OAuth authorization server's tables. Every credential (client secret, code, token,
 * session) is stored only as the SHA-256 digest of its value.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // Opaque access tokens, stored only as SHA-256 digests of the token string.
  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('grant_id', 'text')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  // Partial: client-credentials rows carry neither, and need not pay for these indexes.
  await db.schema.createIndex('access_tokens_grant').on('access_tokens').column('grant_id').where(sql.ref('grant_id'), 'is not', null).execute();
  await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').where(sql.ref('user_id'), 'is not', null).execute();
  await db.schema.createIndex('access_tokens_client').on('access_tokens').column('client_id').execute();
  await db.schema.createIndex('access_tokens_expires').on('access_tokens').column('expires_at').execute();

  // Sealed (stateless) access tokens that were revoked before they expired.
  await db.schema
    .createTable('oauth_revoked_tokens')
    .addColumn('token_id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  // Registered clients (RFC 7591 metadata); list-valued metadata as JSON text.
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('response_types', 'text', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('jwks', 'text')
    .addColumn('secret_digest', 'text')
    .addColumn('secret_rotated_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('oauth_clients_account').on('oauth_clients').columns(['account_id', 'created_at', 'id']).execute();

  // A grant: one authorization by one user for one client; refresh tokens and the access
  // tokens they yield all carry its id, so revoking the grant ends every one of them.
  await db.schema
    .createTable('oauth_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_grants_user').on('oauth_grants').columns(['account_id', 'user_id']).execute();
  await db.schema.createIndex('oauth_grants_client').on('oauth_grants').column('client_id').execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_digest', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_refresh_tokens_grant').on('oauth_refresh_tokens').column('grant_id').execute();
  await db.schema.createIndex('oauth_refresh_tokens_user').on('oauth_refresh_tokens').column('user_id').execute();

  // Consent remembered per user and client: the union of the scopes the user has allowed.
  await db.schema
    .createTable('oauth_consents')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_consents_pk', ['account_id', 'user_id', 'client_id'])
    .execute();

  // Sign-in sessions of the login page (the cookie holds the secret, the row its digest).
  await db.schema
    .createTable('oauth_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_digest', 'text', (c) => c.notNull().unique())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('authenticated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('oauth_sessions_user').on('oauth_sessions').columns(['account_id', 'user_id']).execute();

  // RFC 7523 §3: a client assertion's jti is accepted once until the assertion expires.
  await db.schema
    .createTable('oauth_assertion_jtis')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_assertion_jtis_pk', ['client_id', 'jti'])
    .execute();

  // The server's signing keys, published at the JWKS endpoint until what they signed expires.
  await db.schema
    .createTable('oauth_signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('retired_at', 'bigint')
    .addColumn('publish_until', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'oauth_signing_keys',
    'oauth_assertion_jtis',
    'oauth_sessions',
    'oauth_consents',
    'oauth_refresh_tokens',
    'oauth_codes',
    'oauth_grants',
    'oauth_clients',
    'oauth_revoked_tokens',
    'access_tokens',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
