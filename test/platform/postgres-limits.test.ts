/**
 * PostgreSQL under pressure: several nodes migrating one fresh database at once, a node that
 * must not answer before its schema is complete, an exhausted pool and a statement held up by
 * a lock. Each failure must be fast and a 503, never a hang. Runs when
 * GATEHOUSE_TEST_DATABASE_URL is set (reported skipped otherwise).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { describeOnDatabase, queryOnce } from '../helpers/databases.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { migrations } from '../../src/platform/db/migrations/index.ts';
import { until } from '../helpers/until.ts';



describeOnDatabase('postgres', 'operations: nodes starting at once on one fresh PostgreSQL database', (postgres) => {
  let database: { url: string; drop(): Promise<void> };
  const nodes: SpawnedGatehouse[] = [];
  before(async () => {
    database = await postgres.create();
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await database.drop();
  });

  it('three serve processes started together all become ready, and each migration is applied exactly once', async () => {
    const started = await Promise.allSettled([1, 2, 3].map(() => spawnGatehouse({ databaseUrl: database.url })));
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    const failures = started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
    assert.deepEqual(failures, []);
    const applied = await queryOnce<{ name: string }>(database.url, 'select name from kysely_migration order by name');
    assert.deepEqual(applied.map((r) => r.name), Object.keys(migrations).sort());
    for (const node of nodes) {
      assert.equal((await fetch(`${node.url}/readyz`)).status, 200);
      assert.doesNotMatch(node.output(), /migration .* failed|already exists/);
    }
  });
});

describeOnDatabase('postgres', 'operations: a node does not listen before its database is migrated', (postgres) => {
  let database: { url: string; drop(): Promise<void> };
  let node: SpawnedGatehouse | undefined;
  before(async () => {
    database = await postgres.create();
  });
  after(async () => {
    await node?.stop();
    await database.drop();
  });

  it('while another holds the migration lock, the starting node answers nothing (no /readyz 200); once released it migrates and is ready', async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(hashtext('gatehouse:migrations'))`);
    const starting = spawnGatehouse({ databaseUrl: database.url });
    starting.catch(() => {});
    // The node is now waiting for the lock: a condition in the database, not a length of time.
    await until(async () => {
      const waiting = await queryOnce<{ n: string }>(
        database.url,
        `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_lock%'`,
      );
      return Number(waiting[0]!.n) > 0;
    }, 20_000, 'a session waiting for the migration lock');
    const tables = await queryOnce<{ n: string }>(database.url, `select count(*) as n from information_schema.tables where table_name = 'accounts'`);
    assert.equal(Number(tables[0]!.n), 0, 'nothing migrated yet');
    await holder.end();
    node = await starting;
    assert.equal((await fetch(`${node.url}/readyz`)).status, 200);
  });
});

describeOnDatabase('postgres', 'operations: pool exhaustion and statement timeout', (postgres) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres, {
      env: { GATEHOUSE_DATABASE_POOL_SIZE: '1', GATEHOUSE_DATABASE_ACQUIRE_TIMEOUT: '300', GATEHOUSE_DATABASE_STATEMENT_TIMEOUT: '500' },
    });
  });
  after(() => t.close());

  it('with the only pooled connection held by a long transaction, a request fails fast with 503 and succeeds once it is free', async () => {
    const created = await t.admin('POST', '/admin/v1/accounts', { name: 'Pool of one' });
    assert.equal(created.status, 201);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const transaction = t.gatehouse.database.db.transaction().execute(async () => {
      inside();
      await held;
    });
    await entered;
    const started = Date.now();
    const refused = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
    const elapsed = Date.now() - started;
    assert.equal(refused.status, 503);
    assert.equal(refused.body.code, 'service_unavailable');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.ok(elapsed < 3000, `answered in ${elapsed} ms, near the 300 ms acquisition timeout`);
    const metrics = await (await fetch(`${t.adminUrl}/metrics`)).text();
    assert.match(metrics, /^gatehouse_db_pool_connections\{state="busy"\} 1$/m);

    release();
    await transaction;
    const served = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
    assert.equal(served.status, 200);
    assert.equal(served.body.name, 'Pool of one');
  });

  it('a statement waiting on a lock held elsewhere is cancelled at the statement timeout and answered 503', async () => {
    const created = await t.admin('POST', '/admin/v1/accounts', { name: 'Locked out' });
    const holder = new pg.Client({ connectionString: t.config.databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table accounts in access exclusive mode');
      const started = Date.now();
      const refused = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
      const elapsed = Date.now() - started;
      assert.equal(refused.status, 503);
      assert.equal(refused.body.code, 'service_unavailable');
      assert.ok(elapsed < 3000, `answered in ${elapsed} ms, near the 500 ms statement timeout`);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
    const served = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
    assert.equal(served.status, 200);
  });
});
