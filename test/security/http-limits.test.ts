/**
 * What a slow or greedy client can hold (src/platform/http/server.ts, HttpLimits), on both
 * listeners: a request whose headers or body trickle in is answered 408 in problem+json and
 * closed once its timeout passes; so is a connection that never sends a request; an idle
 * keep-alive connection is closed after the keep-alive timeout; and a listener holding its
 * maximum of connections closes further ones as they arrive. Timeouts are set short here and
 * real time is used only as an upper bound on when the server closed the connection.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { closedWithin, openRaw, parseResponses, type RawConnection } from '../helpers/raw-http.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { until } from '../helpers/until.ts';

const HEADERS_TIMEOUT_S = 1;
const REQUEST_TIMEOUT_S = 4;
/** Node looks for expired requests once a second; the rest is room for a loaded machine. */
const CHECK_AND_SLACK_MS = 2000;

function assertRefused(text: string, status: number, code: string) {
  const [response] = parseResponses(text);
  assert.ok(response, `expected a response, got ${JSON.stringify(text.slice(0, 200))}`);
  assert.equal(response.status, status);
  assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
  assert.match(response.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(response.headers.connection, 'close');
  const body = JSON.parse(response.body) as { status: number; code: string };
  assert.equal(body.status, status);
  assert.equal(body.code, code);
}

for (const target of databaseTargets()) {
  describe(`HTTP timeouts: slow clients are answered 408 and closed (${target.kind})`, () => {
    let t: TestApp;
    let token: string;
    before(async () => {
      t = await startTestApp(target, {
        env: {
          GATEHOUSE_HTTP_HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S),
          GATEHOUSE_HTTP_REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S),
          GATEHOUSE_HTTP_KEEP_ALIVE_TIMEOUT: '1',
        },
      });
      token = await mintAccessToken(t, { accountId: await createAccount(t), scopes: ['invoices:write', 'invoices:read'] });
    });
    after(() => t.close());

    const slowBody = (base: string, path: string, authorization: string) =>
      openRaw(base).then((connection) => {
        connection.write(`POST ${path} HTTP/1.1\r\nHost: gatehouse\r\nAuthorization: ${authorization}\r\nIdempotency-Key: slow-1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
        connection.trickle('{"name":"' + 'x'.repeat(990) + '"}', 200);
        return connection;
      });

    it('request timeout: a body trickled a byte every 200 ms → 408 request_timeout, closed within the timeout; nothing stored', async () => {
      const connections = await Promise.all([slowBody(t.publicUrl, '/v1/invoices', `Bearer ${token}`), slowBody(t.adminUrl, '/admin/v1/accounts', `Bearer ${TEST_ADMIN_TOKEN}`)]);
      const bound = REQUEST_TIMEOUT_S * 1000 + CHECK_AND_SLACK_MS;
      for (const connection of connections) {
        const closed = await closedWithin(connection, bound);
        connection.end();
        assert.ok(closed, `the connection is still open after ${bound} ms`);
        assertRefused(closed.text, 408, 'request_timeout');
      }
      const invoices = await fetch(`${t.publicUrl}/v1/invoices?limit=100`, { headers: { authorization: `Bearer ${token}` } });
      assert.deepEqual(((await invoices.json()) as { data: unknown[] }).data, []);
      assert.equal((await t.admin('GET', '/admin/v1/accounts')).body.data.length, 1);
      assert.ok(!t.logs.some((line) => line.includes('"level":"error"')), 'a timed-out request logged an error');
    });

    it('headers timeout: headers trickled a line every 200 ms, or no request at all → 408, closed within the headers timeout', async () => {
      const trickled = await Promise.all([t.publicUrl, t.adminUrl].map((base) => openRaw(base)));
      for (const connection of trickled) {
        connection.write('GET /healthz HTTP/1.1\r\nHost: gatehouse\r\n');
        connection.trickle('X-Slow: 1\r\n'.repeat(100), 200);
      }
      const silent = await Promise.all([t.publicUrl, t.adminUrl].map((base) => openRaw(base)));
      // Below the request timeout: it is the headers timeout that closes them.
      const bound = HEADERS_TIMEOUT_S * 1000 + CHECK_AND_SLACK_MS;
      assert.ok(bound < REQUEST_TIMEOUT_S * 1000);
      for (const connection of [...trickled, ...silent]) {
        const closed = await closedWithin(connection, bound);
        connection.end();
        assert.ok(closed, `the connection is still open after ${bound} ms`);
        assertRefused(closed.text, 408, 'request_timeout');
      }
    });

    it('keep-alive timeout: announced in Keep-Alive, and an idle connection is closed after it', async () => {
      for (const base of [t.publicUrl, t.adminUrl]) {
        const connection = await openRaw(base);
        connection.write('GET /healthz HTTP/1.1\r\nHost: gatehouse\r\n\r\n');
        await until(() => parseResponses(connection.received()).length === 1, 5000, 'the health answer');
        const [response] = parseResponses(connection.received());
        assert.equal(response!.status, 200);
        assert.equal(response!.headers['keep-alive'], 'timeout=1');
        const closed = await closedWithin(connection, 1000 + CHECK_AND_SLACK_MS);
        connection.end();
        assert.ok(closed, 'the idle keep-alive connection is still open');
        assert.equal(parseResponses(closed.text).length, 1);
      }
    });
  });

  describe(`HTTP connection cap: a listener holding its maximum closes further connections (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_HTTP_MAX_CONNECTIONS: '3' } });
    });
    after(() => t.close());

    it('connection 4 of 3 is closed on arrival without a byte; once one closes, a new one is served; refusals are counted', async () => {
      for (const [base, server] of [
        [t.publicUrl, t.gatehouse.publicServer],
        [t.adminUrl, t.gatehouse.adminServer],
      ] as const) {
        const held: RawConnection[] = [];
        for (let i = 0; i < 3; i++) held.push(await openRaw(base));
        const connections = () => new Promise<number>((resolve, reject) => server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
        await until(async () => (await connections()) === 3, 5000, 'three connections held');
        const fourth = await openRaw(base);
        const refused = await closedWithin(fourth, 1000);
        fourth.end();
        assert.ok(refused, 'connection 4 is still open');
        assert.equal(refused.text, '');
        for (const connection of held) assert.equal(connection.socket.destroyed, false);

        held.shift()!.end();
        await until(async () => (await connections()) === 2, 5000, 'the server to see one connection go');
        const next = await openRaw(base);
        next.write('GET /healthz HTTP/1.1\r\nHost: gatehouse\r\nConnection: close\r\n\r\n');
        const served = await closedWithin(next, 5000);
        assert.equal(parseResponses(served?.text ?? '')[0]?.status, 200);
        for (const connection of held) connection.end();
        await until(async () => (await connections()) === 0, 5000, 'every connection closed');
      }
      const metrics = await fetch(`${t.adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      const text = await metrics.text();
      assert.match(text, /gatehouse_http_connections_refused_total\{listener="public"\} 1\b/);
      assert.match(text, /gatehouse_http_connections_refused_total\{listener="admin"\} 1\b/);
    });
  });
}
