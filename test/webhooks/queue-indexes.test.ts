/**
 * Migration 0503: the webhook queue's indexes hold only open deliveries (the due index only
 * pending ones, the recovery index only parked ones). Migration 0504: on PostgreSQL the attempt
 * log follows its endpoint by a trigger, not a key checked per attempt. Migration 0505: the
 * deliveries still to be attempted move to a queue of their own, and no index on deliveries
 * names a column an acknowledgement changes. Migration 0506: the attempt log is keyed by the
 * columns its listing reads (SQLite stores it in that order). Each goes down and up again.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { databaseTargets, migratorFor } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';

async function indexDefinition(database: Database, name: string): Promise<string | undefined> {
  const { rows } =
    database.dialect.name === 'sqlite'
      ? await sql<{ definition: string }>`select sql as definition from sqlite_master where type = 'index' and name = ${name}`.execute(database.db)
      : await sql<{ definition: string }>`select indexdef as definition from pg_indexes where schemaname = current_schema() and indexname = ${name}`.execute(database.db);
  return rows[0]?.definition.toLowerCase().replaceAll('"', '');
}

/** PostgreSQL's storage setting for a table's pages (SQLite has none). */
async function fillfactor(database: Database, table = 'webhook_deliveries'): Promise<string | undefined> {
  if (database.dialect.name === 'sqlite') return undefined;
  const { rows } = await sql<{ options: string[] | null }>`select reloptions as options from pg_class where oid = ${table}::regclass`.execute(database.db);
  return rows[0]?.options?.find((o) => o.startsWith('fillfactor='));
}

/** Every index on a table, by name, as its definition. */
async function indexesOf(database: Database, table: string): Promise<Record<string, string>> {
  const { rows } =
    database.dialect.name === 'sqlite'
      ? await sql<{ name: string; definition: string }>`select name, sql as definition from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(database.db)
      : await sql<{ name: string; definition: string }>`select indexname as name, indexdef as definition from pg_indexes where schemaname = current_schema() and tablename = ${table} and indexname not like '%_pkey'`.execute(database.db);
  return Object.fromEntries(rows.map((r) => [r.name, r.definition.toLowerCase().replaceAll('"', '')]));
}

async function columnsOf(database: Database, table: string): Promise<string[]> {
  const tables = await database.db.introspection.getTables();
  return (tables.find((t) => t.name === table)?.columns ?? []).map((c) => c.name).sort();
}

/** How the attempt log is tied to its endpoint: by a foreign key, by a deletion trigger, or both. */
async function attemptLogOwner(database: Database): Promise<{ key: boolean; trigger: boolean }> {
  if (database.dialect.name === 'sqlite') {
    const { rows } = await sql<{ table: string }>`select "table" from pragma_foreign_key_list('webhook_attempts')`.execute(database.db);
    return { key: rows.some((r) => r.table === 'webhook_endpoints'), trigger: false };
  }
  const { rows } = await sql<{ key: boolean; trigger: boolean }>`
    select exists (select 1 from pg_constraint where conrelid = 'webhook_attempts'::regclass and contype = 'f') as key,
      exists (select 1 from pg_trigger where tgrelid = 'webhook_endpoints'::regclass and tgname = 'webhook_attempts_follow_endpoint') as trigger`.execute(database.db);
  return rows[0]!;
}

for (const target of databaseTargets()) {
  describe(`webhook queue indexes (${target.kind})`, () => {
    it('0503 makes the due index pending-only and adds a parked-only one (PostgreSQL: pages half full); down restores 0502', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        assert.equal((await migrator.migrateTo('0503_webhook_open_deliveries')).error, undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /\(next_attempt_at\) where \(?state = 'pending'/);
        assert.match((await indexDefinition(database, 'webhook_deliveries_parked'))!, /\(endpoint_id, created_at\) where \(?state = 'parked'/);
        assert.equal(await fillfactor(database), database.dialect.name === 'postgres' ? 'fillfactor=50' : undefined);

        assert.equal((await migrator.migrateTo('0502_webhook_write_path')).error, undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /\(state, next_attempt_at\)$/);
        assert.equal(await indexDefinition(database, 'webhook_deliveries_parked'), undefined);
        assert.equal(await fillfactor(database), database.dialect.name === 'postgres' ? 'fillfactor=80' : undefined);

        assert.equal((await migrator.migrateTo('0503_webhook_open_deliveries')).error, undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /where \(?state = 'pending'/);
      } finally {
        await database.close();
        await created.drop();
      }
    });

    it('0504: on PostgreSQL a deletion trigger replaces the attempt log\'s key (SQLite keeps its key); down restores the key', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        const postgres = database.dialect.name === 'postgres';
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.deepEqual(await attemptLogOwner(database), { key: !postgres, trigger: postgres });
        assert.equal((await migrator.migrateTo('0503_webhook_open_deliveries')).error, undefined);
        assert.deepEqual(await attemptLogOwner(database), { key: true, trigger: false });
        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.deepEqual(await attemptLogOwner(database), { key: !postgres, trigger: postgres });
      } finally {
        await database.close();
        await created.drop();
      }
    });

    it('0505 moves pending deliveries, their due times, leases and failure counts to the queue and back on down; no delivery index names state', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        const { db } = database;
        assert.equal((await migrator.migrateTo('0504_webhook_attempts_follow_endpoint')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc_1', 'Acme', 1)`.execute(db);
        await sql`insert into webhook_endpoints (id, account_id, url, event_types, enabled, secret_sealed, created_at, updated_at)
          values ('we_1', 'acc_1', 'https://example.com/hooks', '["*"]', 1, 'sealed', 1, 1)`.execute(db);
        await sql`insert into events (id, account_id, type, object, object_id, state, payload, created_at)
          values ('evt_1', 'acc_1', 'payout.paid', 'payout', 'po_1', 'paid', '{}', 1)`.execute(db);
        const delivery = (id: string, state: string, next: number, lease: [string, number] | [null, null], parkedAt: number | null) => sql`
          insert into webhook_deliveries (id, account_id, event_id, endpoint_id, state, cycle_failures, attempt_count, next_attempt_at,
            lease_owner, lease_until, last_attempt_at, parked_at, created_at, updated_at)
          values (${id}, 'acc_1', 'evt_1', ${`we_${id}`}, ${state}, 0, 0, ${next}, ${lease[0]}, ${lease[1]}, null, ${parkedAt}, 1, ${next + 1})`;
        // One delivery per endpoint: (event_id, endpoint_id) is unique.
        for (const id of ['2', '3']) {
          await sql`insert into webhook_endpoints (id, account_id, url, event_types, enabled, secret_sealed, created_at, updated_at)
            values (${`we_${id}`}, 'acc_1', 'https://example.com/hooks', '["*"]', 1, 'sealed', 1, 1)`.execute(db);
        }
        await delivery('1', 'pending', 500, ['wkr_a.1', 9_000], null).execute(db);
        await delivery('2', 'parked', 600, [null, null], 650).execute(db);
        await delivery('3', 'acknowledged', 700, [null, null], null).execute(db);
        await sql`update webhook_deliveries set cycle_failures = 2 where id = '1'`.execute(db);

        assert.equal((await migrator.migrateToLatest()).error, undefined);
        const queued = await sql<{ next_attempt_at: number | string; lease_until: number | string | null }>`select * from webhook_queue`.execute(db);
        assert.deepEqual(
          queued.rows.map((r) => ({ ...r, next_attempt_at: Number(r.next_attempt_at), lease_until: Number(r.lease_until) })),
          [{ delivery_id: '1', account_id: 'acc_1', event_id: 'evt_1', endpoint_id: 'we_1', cycle_failures: 2, next_attempt_at: 500, lease_owner: 'wkr_a.1', lease_until: 9_000 }],
        );
        assert.deepEqual(await columnsOf(database, 'webhook_deliveries'), [
          'account_id', 'attempt_count', 'created_at', 'endpoint_id', 'event_id', 'id', 'last_attempt_at', 'parked_at', 'state', 'updated_at',
        ]);
        const deliveryIndexes = await indexesOf(database, 'webhook_deliveries');
        assert.deepEqual(Object.keys(deliveryIndexes).sort(), ['webhook_deliveries_endpoint', 'webhook_deliveries_event_endpoint', 'webhook_deliveries_parked']);
        for (const definition of Object.values(deliveryIndexes)) assert.doesNotMatch(definition, /state/);
        assert.match(deliveryIndexes.webhook_deliveries_parked!, /\(endpoint_id, created_at\) where \(?parked_at is not null/);
        assert.deepEqual(Object.keys(await indexesOf(database, 'webhook_queue')).sort(), ['webhook_queue_due', 'webhook_queue_endpoint']);
        assert.equal(await fillfactor(database, 'webhook_queue'), database.dialect.name === 'postgres' ? 'fillfactor=50' : undefined);

        assert.equal((await migrator.migrateTo('0504_webhook_attempts_follow_endpoint')).error, undefined);
        const restored = await sql<{ id: string; cycle_failures: number; next_attempt_at: number | string; lease_owner: string | null; lease_until: number | string | null }>`
          select id, cycle_failures, next_attempt_at, lease_owner, lease_until from webhook_deliveries order by id`.execute(db);
        assert.deepEqual(
          restored.rows.map((r) => [r.id, r.cycle_failures, Number(r.next_attempt_at), r.lease_owner, r.lease_until === null ? null : Number(r.lease_until)]),
          [['1', 2, 500, 'wkr_a.1', 9_000], ['2', 0, 601, null, null], ['3', 0, 701, null, null]],
        );
        assert.equal(await indexDefinition(database, 'webhook_queue_due'), undefined);
        assert.match((await indexDefinition(database, 'webhook_deliveries_due'))!, /\(next_attempt_at\) where \(?state = 'pending'/);
        assert.match((await indexDefinition(database, 'webhook_deliveries_parked'))!, /where \(?state = 'parked'/);
        assert.match((await indexDefinition(database, 'webhook_deliveries_endpoint_state'))!, /\(endpoint_id, state, parked_at\)/);

        assert.equal((await migrator.migrateToLatest()).error, undefined);
        const again = await sql<{ delivery_id: string }>`select delivery_id from webhook_queue`.execute(db);
        assert.deepEqual(again.rows, [{ delivery_id: '1' }]);
      } finally {
        await database.close();
        await created.drop();
      }
    });

    it('0506 keys the attempt log by (endpoint_id, attempted_at, id) alone, keeping every attempt; down restores the key on id and the listing index', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        const migrator = migratorFor(database);
        const { db } = database;
        assert.equal((await migrator.migrateTo('0505_webhook_queue')).error, undefined);
        await sql`insert into accounts (id, name, created_at) values ('acc_1', 'Acme', 1)`.execute(db);
        await sql`insert into webhook_endpoints (id, account_id, url, event_types, enabled, secret_sealed, created_at, updated_at)
          values ('we_1', 'acc_1', 'https://example.com/hooks', '["*"]', 1, 'sealed', 1, 1)`.execute(db);
        const attempt = (id: string, at: number) => sql`
          insert into webhook_attempts (id, account_id, delivery_id, endpoint_id, event_id, event_type, outcome, response_status, response_body, error, latency_ms, attempted_at)
          values (${id}, 'acc_1', 'dlv_1', 'we_1', 'evt_1', 'payout.paid', 'failed', 500, 'oops', null, 12, ${at})`;
        await attempt('dlv_a', 100).execute(db);
        await attempt('dlv_b', 200).execute(db);
        const attempts = async () =>
          (await sql<{ id: string; attempted_at: number | string; response_body: string }>`select id, attempted_at, response_body from webhook_attempts order by id`.execute(db)).rows.map(
            (r) => [r.id, Number(r.attempted_at), r.response_body],
          );

        assert.equal((await migrator.migrateToLatest()).error, undefined);
        assert.deepEqual(await attempts(), [['dlv_a', 100, 'oops'], ['dlv_b', 200, 'oops']]);
        assert.deepEqual(await primaryKeyOf(database, 'webhook_attempts'), ['endpoint_id', 'attempted_at', 'id']);
        assert.deepEqual(Object.keys(await indexesOf(database, 'webhook_attempts')), []);
        if (database.dialect.name === 'sqlite') {
          const { rows } = await sql<{ definition: string }>`select sql as definition from sqlite_master where name = 'webhook_attempts'`.execute(db);
          assert.match(rows[0]!.definition, /without rowid$/i);
        }
        // Deleting the endpoint still takes its attempts (SQLite: the key; PostgreSQL: the trigger of 0504).
        assert.deepEqual(await attemptLogOwner(database), { key: database.dialect.name === 'sqlite', trigger: database.dialect.name === 'postgres' });

        assert.equal((await migrator.migrateTo('0505_webhook_queue')).error, undefined);
        assert.deepEqual(await attempts(), [['dlv_a', 100, 'oops'], ['dlv_b', 200, 'oops']]);
        assert.deepEqual(await primaryKeyOf(database, 'webhook_attempts'), ['id']);
        assert.match((await indexDefinition(database, 'webhook_attempts_endpoint_attempted'))!, /\(endpoint_id, attempted_at, id\)/);

        assert.equal((await migrator.migrateToLatest()).error, undefined);
        await sql`delete from webhook_endpoints where id = 'we_1'`.execute(db);
        assert.deepEqual(await attempts(), []);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}

/** The columns of a table's primary key, in key order. */
async function primaryKeyOf(database: Database, table: string): Promise<string[]> {
  if (database.dialect.name === 'sqlite') {
    const { rows } = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table}) where pk > 0 order by pk`.execute(database.db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`
    select a.attname as name
    from pg_index i join unnest(i.indkey) with ordinality as k(attnum, position) on true
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = ${table}::regclass and i.indisprimary
    order by k.position`.execute(database.db);
  return rows.map((r) => r.name);
}
