/**
 * The log itself: one JSON line per request at `info` (none below it), the catalogue of log
 * events kept equal to the table operators read (docs/OPERATIONS.md), and no line lost on a
 * clean shutdown even though lines are written in batches.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { databaseTargets } from '../helpers/databases.ts';
import { spawnGatehouse } from '../helpers/processes.ts';
import { createLogger } from '../../src/platform/logging.ts';
import { createHttpServer } from '../../src/platform/http/server.ts';
import { LOG_EVENTS } from '../../src/platform/log-events.ts';
import type { Json } from '../helpers/http.ts';

function capture(level: string) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const log = createLogger({ level, destination });
  const app = createHttpServer({ logger: log.child({ listener: 'public' }), bodyLimit: 1024, issuer: 'http://127.0.0.1', limits: { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 72_000, maxConnections: 1000 } });
  app.get('/things/:id', async () => ({ ok: true }));
  return { app, log, parsed: (): Json[] => lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json) };
}

describe('logging: the request line', () => {
  it('at info, one line per request: request id, listener, method, route pattern (never the URL), status and time', async () => {
    const { app, parsed } = capture('info');
    const response = await app.inject({ method: 'GET', url: '/things/secret-looking-id?token=abc', headers: { 'x-request-id': 'req-123', authorization: 'Bearer not-logged' } });
    assert.equal(response.statusCode, 200);
    await app.inject({ method: 'GET', url: '/nowhere' });
    const lines = parsed();
    assert.equal(lines.length, 2);
    const [line, unmatched] = lines;
    assert.deepEqual(Object.keys(line), ['level', 'time', 'service', 'listener', 'reqId', 'method', 'route', 'status', 'ms', 'msg']);
    assert.deepEqual(
      { ...line, time: undefined, ms: undefined },
      { level: 'info', time: undefined, service: 'gatehouse', listener: 'public', reqId: 'req-123', method: 'GET', route: '/things/:id', status: 200, ms: undefined, msg: 'request' },
    );
    assert.equal(typeof line.ms, 'number');
    assert.match(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, 'an RFC 3339 instant in UTC, to the millisecond');
    assert.ok(Math.abs(Date.parse(line.time) - Date.now()) < 60_000);
    assert.equal(unmatched.route, 'unmatched');
    assert.equal(unmatched.status, 404);
    const all = JSON.stringify(lines);
    for (const text of ['secret-looking-id', 'abc', 'not-logged']) assert.ok(!all.includes(text), `${text} is not logged`);
    await app.close();
  });

  it('at warn, no request line; other lines still carry the listener and are still redacted', async () => {
    const { app, log, parsed } = capture('warn');
    await app.inject({ method: 'GET', url: '/things/1' });
    log.child({ listener: 'public' }).warn({ client_secret: 'shh', event: 'x' }, 'something');
    const lines = parsed();
    assert.equal(lines.length, 1);
    assert.equal(lines[0].msg, 'something');
    assert.equal(lines[0].listener, 'public');
    assert.equal(JSON.stringify(lines).includes('shh'), false);
    await app.close();
  });
});

describe('logging: the catalogue of log events', () => {
  it('docs/OPERATIONS.md lists every log event with its level, and no other', () => {
    const doc = fs.readFileSync('docs/OPERATIONS.md', 'utf8');
    const start = doc.indexOf('### Log events');
    assert.ok(start >= 0, 'the section exists');
    const end = doc.indexOf('\n## ', start);
    const section = doc.slice(start, end === -1 ? undefined : end);
    const rows = [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| (\w+) \|/gm)].map((m) => [m[1], m[2]]);
    assert.deepEqual(Object.fromEntries(rows), LOG_EVENTS);
    assert.equal(rows.length, Object.keys(LOG_EVENTS).length, 'each event once');
  });
});

for (const target of databaseTargets()) {
  describe(`logging: clean shutdown (${target.kind})`, () => {
    let database: { url: string; drop(): Promise<void> };
    before(async () => {
      database = await target.create();
    });
    after(() => database.drop());

    it('the lines written just before a clean stop (SIGTERM) all reach standard output, the last one "stopped"', async () => {
      const node = await spawnGatehouse({ databaseUrl: database.url, env: { GATEHOUSE_LOG_LEVEL: 'info' } });
      // Well under one batch of output: without the flush at exit these would still be buffered.
      const ids = Array.from({ length: 8 }, (_, i) => `last-before-stop-${i}`);
      for (const id of ids) assert.equal((await fetch(`${node.url}/healthz`, { headers: { 'x-request-id': id } })).status, 200);
      node.child.kill('SIGTERM');
      assert.deepEqual(await node.exited, { code: 0, signal: null });
      const lines = node
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json);
      for (const id of ids) assert.ok(lines.some((l) => l.reqId === id && l.msg === 'request'), `request line of ${id}`);
      assert.equal(lines.at(-1).msg, 'stopped');
    });

    it('a burst of many batches answered just before a clean stop: every request line is written, none twice', async () => {
      const node = await spawnGatehouse({ databaseUrl: database.url, env: { GATEHOUSE_LOG_LEVEL: 'info' } });
      // About 60 KiB of request lines: many batches, the last ones still gathered when the stop begins.
      const ids = Array.from({ length: 300 }, (_, i) => `burst-${i}`);
      // In waves of 50 at once: a burst of answers, without a storm of 300 simultaneous connects.
      const statuses: number[] = [];
      for (let start = 0; start < ids.length; start += 50) {
        const wave = ids.slice(start, start + 50);
        statuses.push(...(await Promise.all(wave.map(async (id) => (await fetch(`${node.url}/healthz`, { headers: { 'x-request-id': id } })).status))));
      }
      assert.ok(statuses.every((s) => s === 200));
      node.child.kill('SIGTERM');
      assert.deepEqual(await node.exited, { code: 0, signal: null });
      const lines = node
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Json);
      const logged = lines.filter((l) => l.msg === 'request' && String(l.reqId).startsWith('burst-')).map((l) => l.reqId as string);
      assert.deepEqual([...logged].sort(), [...ids].sort());
      assert.equal(lines.at(-1).msg, 'stopped');
    });
  });
}
