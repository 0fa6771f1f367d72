/**
 * What /metrics says about the process itself, and how the registry behaves: prom-client's
 * process and runtime metrics and gatehouse_build_info in each app's own registry (never the
 * global one), series bound for the request path counting exactly as prom-client's own calls,
 * a failing scrape-time gauge that keeps its value, and a connection pool gauge that counts
 * real waits only: not the scrape's own queries (an idle worker scraped on PostgreSQL), not a
 * checkout an idle connection takes at once, but a query queued behind a held connection.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { register as globalRegistry } from 'prom-client';
import { sql } from 'kysely';
import { databaseTargets, describeOnDatabase } from '../helpers/databases.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { until } from '../helpers/until.ts';
import { MetricsRegistry, bindCounter, bindHistogram } from '../../src/platform/metrics.ts';
import { openDatabase } from '../../src/platform/db/database.ts';

const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

async function scrape(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  return response.text();
}

/** The value of one sample, by its exact name and label set as rendered; undefined if absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('operations: the metrics registry', () => {
  it('a bound series counts into the metric prom-client renders, exactly as its own calls do, and binding again keeps the counts', async () => {
    const metrics = new MetricsRegistry();
    const requests = metrics.counter('requests_total', 'Requests', ['route', 'status']);
    const latency = metrics.histogram('latency_seconds', 'Latency', ['route'], [0.01, 0.1]);
    const ok = bindCounter(requests, { route: '/a', status: '200' });
    const okTime = bindHistogram(latency, { route: '/a' });
    ok.inc();
    okTime.observe(0.005);
    okTime.observe(0.05);
    // Another status of the same route binds the same latency series: it must not be reset.
    const missing = bindCounter(requests, { route: '/a', status: '404' });
    const missingTime = bindHistogram(latency, { route: '/a' });
    missing.inc();
    missingTime.observe(3);
    requests.inc({ route: '/a', status: '200' });
    latency.observe({ route: '/a' }, 0.02);

    const text = await metrics.render();
    assert.equal(sample(text, 'requests_total{route="/a",status="200"}'), 2);
    assert.equal(sample(text, 'requests_total{route="/a",status="404"}'), 1);
    assert.equal(sample(text, 'latency_seconds_bucket{le="0.01",route="/a"}'), 1);
    assert.equal(sample(text, 'latency_seconds_bucket{le="0.1",route="/a"}'), 3);
    assert.equal(sample(text, 'latency_seconds_bucket{le="+Inf",route="/a"}'), 4);
    assert.equal(sample(text, 'latency_seconds_count{route="/a"}'), 4);
    assert.ok(Math.abs(sample(text, 'latency_seconds_sum{route="/a"}')! - 3.075) < 1e-9);
  });

  it('a name is declared once: the same type and labels get the same metric; another type, another label set or a second scrape-time measure is refused', () => {
    const metrics = new MetricsRegistry();
    const transitions = metrics.counter('transitions_total', 'Transitions', ['from', 'to']);
    assert.equal(metrics.counter('transitions_total', 'Transitions', ['to', 'from']), transitions);
    assert.throws(() => metrics.counter('transitions_total', 'Transitions', ['from']), /already declared/);
    assert.throws(() => metrics.gauge('transitions_total', 'Transitions', ['from', 'to']), /already declared/);
    metrics.gauge('queue_depth', 'Depth', ['state'], () => {});
    assert.throws(() => metrics.gauge('queue_depth', 'Depth', ['state'], () => {}), /declared once/);
  });

  it('a gauge measured at scrape time that fails keeps its last value, and the scrape still answers', async () => {
    const metrics = new MetricsRegistry();
    let fail = false;
    metrics.gauge('queue_depth', 'Depth', ['state'], (depth) => {
      if (fail) throw new Error('database down');
      depth.set({ state: 'due' }, 7);
    });
    assert.equal(sample(await metrics.render(), 'queue_depth{state="due"}'), 7);
    fail = true;
    assert.equal(sample(await metrics.render(), 'queue_depth{state="due"}'), 7);
  });
});

for (const target of databaseTargets()) {
  describe(`operations: process metrics (${target.kind})`, () => {
    let t: TestApp;
    let other: TestApp;
    before(async () => {
      t = await startTestApp(target);
      other = await startTestApp(target);
    });
    after(async () => {
      await t.close();
      await other.close();
    });

    it('/metrics reports the process (CPU, heap, event-loop lag, GC, open handles) and gatehouse_build_info{version,node,database} 1', async () => {
      const text = await scrape(t.adminUrl);
      for (const family of [
        'process_cpu_user_seconds_total counter',
        'process_start_time_seconds gauge',
        'nodejs_heap_size_used_bytes gauge',
        'nodejs_eventloop_lag_seconds gauge',
        'nodejs_eventloop_lag_p99_seconds gauge',
        'nodejs_gc_duration_seconds histogram',
        'nodejs_active_handles_total gauge',
      ]) {
        assert.match(text, new RegExp(`^# TYPE ${family}$`, 'm'), family);
      }
      assert.ok(sample(text, 'nodejs_heap_size_used_bytes')! > 0);
      assert.equal(sample(text, `gatehouse_build_info{version="${version}",node="${process.version}",database="${target.kind}"}`), 1);
      assert.equal(text.match(/^gatehouse_build_info\{/gm)?.length, 1, 'one build, one series');
    });

    it('two apps in one process keep registries of their own, and prom-client\'s global registry stays empty', async () => {
      await fetch(`${t.publicUrl}/healthz`);
      const before = sample(await scrape(other.adminUrl), 'gatehouse_http_requests_total{listener="public",method="GET",route="/healthz",status="200"}');
      await fetch(`${t.publicUrl}/healthz`);
      assert.ok(sample(await scrape(t.adminUrl), 'gatehouse_http_requests_total{listener="public",method="GET",route="/healthz",status="200"}')! >= 2);
      assert.equal(sample(await scrape(other.adminUrl), 'gatehouse_http_requests_total{listener="public",method="GET",route="/healthz",status="200"}'), before);
      assert.equal(globalRegistry.getMetricsAsArray().length, 0);
    });
  });
}

describeOnDatabase('postgres', 'operations: connection pool gauges on PostgreSQL', (postgres) => {
  describe('operations: the connection pool gauge counts real waits only (postgres)', () => {
    let database: { url: string; drop(): Promise<void> };
    let worker: SpawnedGatehouse | undefined;
    before(async () => {
      database = await postgres.create();
    });
    after(async () => {
      await worker?.stop();
      await database.drop();
    });

    it('an idle gatehouse worker, scraped on GATEHOUSE_WORKER_METRICS_PORT, reports no connection waiting: the scrape\'s own queries are not counted', async () => {
      worker = await spawnGatehouse({ databaseUrl: database.url, command: 'worker' });
      for (let i = 0; i < 5; i++) {
        const text = await scrape(worker.adminUrl);
        assert.equal(sample(text, 'gatehouse_db_pool_connections{state="waiting"}'), 0, `scrape ${i + 1}:\n${text}`);
        assert.equal(sample(text, 'gatehouse_db_up'), 1);
        assert.equal(sample(text, `gatehouse_build_info{version="${version}",node="${process.version}",database="postgres"}`), 1);
        assert.equal(sample(text, 'gatehouse_webhook_deliveries{state="due"}'), 0);
      }
    });

    it('a checkout that an idle connection takes at once is not waiting (pg-pool queues it for a tick)', async () => {
      const opened = await openDatabase({ databaseUrl: database.url, poolSize: 4 });
      try {
        // The ping asks on a connection of its own, outside the pool; a query opens the pool's first.
        await sql`select 1`.execute(opened.db);
        assert.deepEqual(opened.poolStats(), { total: 1, idle: 1, waiting: 0 });
        const running = sql`select 1`.execute(opened.db);
        assert.equal(opened.poolStats()!.waiting, 0);
        await running;
      } finally {
        await opened.close();
      }
    });
  });

  describe('operations: a query queued behind the only connection is reported waiting (postgres)', () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(postgres, { env: { GATEHOUSE_DATABASE_POOL_SIZE: '1', GATEHOUSE_DATABASE_ACQUIRE_TIMEOUT: '2000' } });
    });
    after(() => t.close());

    it('with the only connection held, a queued query counts as waiting and the held one as busy; the scrape still answers, and the database is up (its ping is outside the pool)', async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let inside!: () => void;
      const entered = new Promise<void>((r) => (inside = r));
      const transaction = t.gatehouse.database.db.transaction().execute(async () => {
        inside();
        await held;
      });
      await entered;
      const queued = sql`select 1`.execute(t.gatehouse.database.db).then(
        () => 'served',
        () => 'timed out',
      );
      try {
        const text = await scrape(t.adminUrl);
        // At least the queued query: the node's own background work (the audit sealer's tick)
        // may be queued behind the held connection too.
        assert.ok((sample(text, 'gatehouse_db_pool_connections{state="waiting"}') ?? 0) >= 1, text);
        assert.equal(sample(text, 'gatehouse_db_pool_connections{state="busy"}'), 1);
        assert.equal(sample(text, 'gatehouse_db_pool_connections{state="idle"}'), 0);
        // The ping asks on its own connection, so a busy pool does not make the database look down.
        assert.equal(sample(text, 'gatehouse_db_up'), 1);
      } finally {
        release();
        await transaction;
      }
      assert.equal(await queued, 'timed out');
      // Once the background work queued meanwhile has had its turn, nothing waits.
      await until(async () => sample(await scrape(t.adminUrl), 'gatehouse_db_pool_connections{state="waiting"}') === 0, 10_000, 'no checkout waiting');
    });
  });
});
