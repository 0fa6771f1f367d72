/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

// The audit trail (src/audit/, docs/AUDIT.md). A record is written in the transaction of the
// change it describes with `seq` and `hash` null; the sealer later gives it its place in its
// account's chain. No foreign keys: a record outlives the client, user or token it names.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    // The client a person acted through (actor_type user); null otherwise.
    .addColumn('actor_client_id', 'text')
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text')
    .addColumn('idempotency_key', 'text')
    .addColumn('source_address', 'text')
    .addColumn('user_agent', 'text')
    // JSON text { field: { before?, after? } }, secrets redacted; null when none, or once detached.
    .addColumn('changes', 'text')
    // Set by the sealer: the MAC of `changes`, the place in the chain and the link.
    .addColumn('changes_mac', 'text')
    .addColumn('seq', 'bigint')
    .addColumn('prev_hash', 'text')
    .addColumn('hash', 'text')
    // When the person the record is about was deleted and their details removed from it.
    .addColumn('detached_at', 'bigint')
    .execute();
  await db.schema.createIndex('audit_events_account_time').on('audit_events').columns(['account_id', 'occurred_at', 'id']).execute();
  await db.schema.createIndex('audit_events_time').on('audit_events').columns(['occurred_at', 'id']).execute();
  await db.schema.createIndex('audit_events_chain').on('audit_events').columns(['account_id', 'seq']).unique().execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor_id', 'occurred_at']).execute();
  await db.schema.createIndex('audit_events_target').on('audit_events').columns(['target_id', 'occurred_at']).execute();
  // What the sealer has still to chain: small, since it seals within seconds.
  await db.schema
    .createIndex('audit_events_unsealed')
    .on('audit_events')
    .columns(['account_id', 'occurred_at', 'id'])
    .where(sql.ref('seq'), 'is', null)
    .execute();

  // Each account's chain: its head, and where it starts once retention has pruned its oldest records.
  await db.schema
    .createTable('audit_chains')
    .addColumn('account_id', 'text', (c) => c.primaryKey())
    .addColumn('head_seq', 'bigint', (c) => c.notNull())
    .addColumn('head_hash', 'text', (c) => c.notNull())
    .addColumn('first_seq', 'bigint', (c) => c.notNull())
    .addColumn('first_prev_hash', 'text', (c) => c.notNull())
    .addColumn('checkpointed_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  // Signed statements "the chain of this account reached seq with this hash" (compact JWS, ES256).
  await db.schema
    .createTable('audit_checkpoints')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .addColumn('jws', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_checkpoints_pk', ['account_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_checkpoints').execute();
  await db.schema.dropTable('audit_chains').execute();
  await db.schema.dropTable('audit_events').execute();
}
