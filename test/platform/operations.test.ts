import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_POSTGRES, databaseTargets, describeIf } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

for (const target of databaseTargets()) {
  describe(`operations: metrics (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('/metrics on the admin listener counts requests by route and status, with latency histograms', async () => {
      await fetch(`${t.publicUrl}/healthz`);
      await fetch(`${t.publicUrl}/healthz`);
      await fetch(`${t.publicUrl}/nowhere`);
      const response = await fetch(`${t.adminUrl}/metrics`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await response.text();
      assert.match(text, /^gatehouse_http_requests_total\{listener="public",method="GET",route="\/healthz",status="200"\} 2$/m);
      assert.match(text, /^gatehouse_http_requests_total\{listener="public",method="GET",route="unmatched",status="404"\} 1$/m);
      assert.match(text, /^gatehouse_http_request_duration_seconds_count\{listener="public",route="\/healthz"\} 2$/m);
      assert.match(text, /^gatehouse_http_request_duration_seconds_bucket\{le="\+Inf",listener="public",route="\/healthz"\} 2$/m);
      assert.match(text, /^gatehouse_db_up 1$/m);
      if (target.kind === 'postgres') assert.match(text, /^gatehouse_db_pool_connections\{state="idle"\} \d+$/m);
    });

    it('/metrics is not served on the public listener', async () => {
      const response = await fetch(`${t.publicUrl}/metrics`);
      assert.equal(response.status, 404);
    });
  });
}

const pgUrl = process.env.GATEHOUSE_TEST_DATABASE_URL;
describeIf(pgUrl, NEEDS_POSTGRES, 'operations: PostgreSQL goes away and comes back', (postgresUrl) => {
  let t: TestApp;
  let proxy: TcpProxy;
  before(async () => {
    const upstream = new URL(postgresUrl);
    proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    const [postgres] = databaseTargets().filter((d) => d.kind === 'postgres');
    // The same fresh-schema target, reached through the proxy.
    const viaProxy = {
      kind: 'postgres' as const,
      async create() {
        const database = await postgres!.create();
        const url = new URL(database.url);
        url.hostname = '127.0.0.1';
        url.port = String(proxy.port);
        return { url: url.href, drop: database.drop };
      },
    };
    t = await startTestApp(viaProxy, { env: { GATEHOUSE_DATABASE_STATEMENT_TIMEOUT: '2000' } });
  });
  after(async () => {
    await proxy.restore().catch(() => {});
    await t.close();
    await proxy.close();
  });

  it('while it is down, requests fail fast with 503 problem+json and /readyz says unavailable; afterwards they recover without a restart', async () => {
    const created = await t.admin('POST', '/admin/v1/accounts', { name: 'Before the outage' });
    assert.equal(created.status, 201);

    await proxy.cut();
    const started = Date.now();
    const during = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
    assert.equal(during.status, 503);
    assert.equal(during.body.code, 'service_unavailable');
    assert.equal(during.headers.get('retry-after'), '1');
    assert.ok(Date.now() - started < 6000, 'fails within the connection timeout');
    const ready = await fetch(`${t.publicUrl}/readyz`);
    assert.equal(ready.status, 503);
    assert.deepEqual(await json(ready), { status: 'unavailable' });
    const live = await fetch(`${t.publicUrl}/healthz`);
    assert.equal(live.status, 200, 'the process itself stays alive');

    await proxy.restore();
    const after = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
    assert.equal(after.status, 200);
    assert.equal(after.body.name, 'Before the outage');
    assert.equal((await fetch(`${t.publicUrl}/readyz`)).status, 200);
  });

  it('connections that go silent without closing: a statement is given up past its bound with 503, its connection abandoned, and the node serves on new ones', async () => {
    const created = await t.admin('POST', '/admin/v1/accounts', { name: 'Before the silence' });
    assert.equal(created.status, 201);
    // Every pooled connection stops answering; the server is still reachable on new ones.
    proxy.silence();
    const started = Date.now();
    const during = await Promise.all([1, 2, 3].map(() => t.admin('GET', `/admin/v1/accounts/${created.body.id}`)));
    const waited = Date.now() - started;
    for (const answer of during) {
      assert.ok(answer.status === 503 || answer.status === 200, String(answer.status));
      if (answer.status === 503) assert.equal(answer.body.code, 'service_unavailable');
    }
    assert.ok(during.some((answer) => answer.status === 503), 'a request on a silent connection is answered, not left waiting');
    // Twice the 2 s statement timeout, and the transaction's rollback does not wait as long again.
    assert.ok(waited < 8_000, `answered in ${waited} ms`);
    const after = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
    assert.equal(after.status, 200, 'new connections replace the abandoned ones');
    assert.equal(after.body.name, 'Before the silence');
  });
});
