/**
 * Errors raised before a request reaches a route, which the framework or Node would answer
 * in their own shape without a request id, are answered like every other error:
 * - a path with a malformed percent-escape, in the error shape of its prefix, on both listeners;
 * - bytes that are not HTTP/1.1 (400) and oversized headers (431), in problem+json;
 * - a request that arrives while the server shuts down, 503 in the route's shape.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { createHttpServer, httpLimitsOf } from '../../src/platform/http/server.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { closedWithin, openRaw, parseResponses } from '../helpers/raw-http.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { until } from '../helpers/until.ts';
import { ERROR, scimClient, type ScimClient } from '../scim/scim-client.ts';

for (const target of databaseTargets()) {
  describe(`protocol edges answered in each protocol's shape (${target.kind})`, () => {
    let t: TestApp;
    let scim: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      scim = await scimClient(t);
    });
    after(() => t.close());

    it('a malformed percent-escape in the path → 400 problem+json malformed_request with a request id, on both listeners', async () => {
      for (const url of [`${t.publicUrl}/v1/invoices%`, `${t.publicUrl}/%E0%A4%A`, `${t.publicUrl}/v1/invoices/inv_%ZZ`, `${t.adminUrl}/admin/v1/accounts/%E0%A4%A`]) {
        const response = await fetch(url, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'x-request-id': 'bad-url-1' } });
        assert.equal(response.status, 400, url);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, url);
        assert.equal(response.headers.get('x-request-id'), 'bad-url-1', url);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff', url);
        const body = (await response.json()) as { status: number; code: string; type: string };
        assert.equal(body.status, 400, url);
        assert.equal(body.code, 'malformed_request', url);
        assert.match(body.type, /\/docs\/errors#error-malformed_request$/, url);
      }
      const logged = t.logs.map((line) => JSON.parse(line) as { reqId?: string; level: string; msg: string; status?: number });
      assert.equal(logged.filter((line) => line.reqId === 'bad-url-1' && line.msg === 'request' && line.status === 400).length, 4);
      assert.ok(!logged.some((line) => line.level === 'error'), 'a bad URL logged an error');
    });

    it('what is not HTTP/1.1 → 400 malformed_request, headers over 16 KiB → 431 headers_too_large: problem+json with a request id, then closed', async () => {
      for (const base of [t.publicUrl, t.adminUrl]) {
        for (const [request, status, code] of [
          ['NOT HTTP AT ALL\r\n\r\n', 400, 'malformed_request'],
          ['GET /healthz HTTP/1.1\r\nHost: gatehouse\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n', 400, 'malformed_request'],
          [`GET /healthz HTTP/1.1\r\nHost: gatehouse\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`, 431, 'headers_too_large'],
        ] as const) {
          const connection = await openRaw(base);
          connection.write(request);
          const closed = await closedWithin(connection, 5000);
          connection.end();
          const [response] = parseResponses(closed?.text ?? '');
          assert.equal(response?.status, status, request.slice(0, 40));
          assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
          assert.match(response.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
          assert.equal((JSON.parse(response.body) as { code: string }).code, code);
        }
      }
    });

    it('a malformed percent-escape under /scim/v2 → 400 SCIM Error invalidSyntax; under /authorize → the HTML error page', async () => {
      const response = await scim.call('GET', '/Users/%E0%A4%A');
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /^application\/scim\+json/);
      assert.ok(response.headers.get('x-request-id'));
      assert.deepEqual(response.body.schemas, [ERROR]);
      assert.equal(response.body.scimType, 'invalidSyntax');
      const page = await fetch(`${t.publicUrl}/authorize/%E0%A4%A`);
      assert.equal(page.status, 400);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.ok(page.headers.get('x-request-id'));
    });

  });
}

describe('a request that arrives while the server shuts down', () => {
  it('is answered 503 service_unavailable in problem+json with a request id and Connection: close; the one in flight completes', async () => {
    const app = createHttpServer({ logger: pino({ level: 'silent' }), bodyLimit: 1024, issuer: 'http://gatehouse.test', limits: httpLimitsOf(loadConfig({})) });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    const answered: string[] = [];
    app.addHook('onSend', (request, _reply, payload, done) => {
      answered.push(request.url);
      done(null, payload);
    });
    app.get('/slow', async () => {
      entered = true;
      await gate;
      return { ok: true };
    });
    app.get('/fast', async () => ({ ok: true }));
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const connection = await openRaw(url);
    try {
      connection.write('GET /slow HTTP/1.1\r\nHost: gatehouse\r\n\r\n');
      await until(() => entered, 5000, 'the slow request to start');
      const closing = app.close();
      connection.write('GET /fast HTTP/1.1\r\nHost: gatehouse\r\nX-Request-Id: late-1\r\n\r\n');
      await until(() => answered.includes('/fast'), 5000, 'the late request to be answered');
      release();
      await closing;
      const closed = await closedWithin(connection, 5000);
      const [first, second] = parseResponses(closed?.text ?? connection.received());
      assert.equal(first?.status, 200);
      assert.equal(second?.status, 503);
      assert.match(second.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(second.headers['x-request-id'], 'late-1');
      assert.equal(second.headers['retry-after'], '1');
      assert.equal(second.headers.connection, 'close');
      assert.equal((JSON.parse(second.body) as { code: string }).code, 'service_unavailable');
    } finally {
      release();
      connection.end();
    }
  });
});
