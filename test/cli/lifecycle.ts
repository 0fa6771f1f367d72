/**
 * Starting and stopping real `gatehouse serve` and `gatehouse worker` processes:
 *
 * - a listener that cannot be bound stops start-up before any background work (exit 1, one
 *   line naming the setting; a payout due to be paid stays pending);
 * - a stopping node drains (readiness 503, every response `Connection: close`), then refuses
 *   new connections and finishes the requests in flight, within the shutdown timeout;
 * - a rolling restart behind a balancer that honours readiness and `Connection: close` loses
 *   no request: no reset, no 503, every write stored once;
 * - a stopping worker gives up on a receiver that never answers at its shutdown timeout, says
 *   so, and releases the deliveries it had claimed but not attempted.
 *
 * Every test here starts several processes, so they are spread over four files
 * (start-stop-*.test.ts, rolling-restart-*.test.ts), one per database each, each with the whole
 * per-file time budget.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import type { DatabaseTarget } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { runToExit, spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { ALLOW_LOOPBACK, raise, registerEndpoint, tenant } from '../webhooks/support.ts';

const SPAWNED_ADMIN_TOKEN = 'spawned-admin-token-0123456789abcdef';

/** A port held by another listener for the duration of `use`. */
async function withPortTaken<T>(use: (port: number) => Promise<T>): Promise<T> {
  const blocker = net.createServer().listen(0, '127.0.0.1');
  await once(blocker, 'listening');
  try {
    return await use((blocker.address() as net.AddressInfo).port);
  } finally {
    blocker.close();
  }
}

async function payoutState(t: TestApp, id: string): Promise<string> {
  const row = await t.gatehouse.database.db.selectFrom('payouts').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  return row.state;
}

/** True once nothing listens on `port` any more. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** A request on `port` whose headers and first bytes of body are sent; `finish` sends the rest and reads the answer. */
async function requestInFlight(port: number, path: string, body: string): Promise<{ finish(): Promise<string>; closed: Promise<string> }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let response = '';
  socket.on('data', (d) => (response += d));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(response)));
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${SPAWNED_ADMIN_TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
  );
  return {
    closed,
    finish() {
      socket.write(body.slice(5));
      return closed;
    },
  };
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

interface Backend {
  name: string;
  url: string;
  pool: Pool;
  health: Pool;
  healthy: boolean;
  served: number;
}

/**
 * What a load balancer does in front of nodes: checks `/readyz` every 25 ms and sends only to
 * nodes that answered 200; keeps connections alive but honours `Connection: close` (undici does);
 * a refused connection (nothing was sent) is retried on another node. Nothing else is retried:
 * a reset or a 503 reaches the test as a failure.
 */
function createBalancer() {
  const backends: Backend[] = [];
  let next = 0;
  const checker = setInterval(() => {
    for (const b of backends) {
      b.health
        .request({ path: '/readyz', method: 'GET' })
        .then(async (r) => {
          await r.body.dump();
          b.healthy = r.statusCode === 200;
        })
        .catch(() => (b.healthy = false));
    }
  }, 25);
  return {
    add(name: string, url: string): Backend {
      const backend = { name, url, pool: new Pool(url, { connections: 4 }), health: new Pool(url, { connections: 1 }), healthy: false, served: 0 };
      backends.push(backend);
      return backend;
    },
    async send(request: { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string }) {
      for (let waited = 0; ; ) {
        const healthy = backends.filter((b) => b.healthy);
        if (healthy.length === 0) {
          if (++waited > 1000) throw new Error('no healthy backend for 10 s');
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const backend = healthy[next++ % healthy.length]!;
        try {
          const response = await backend.pool.request(request);
          const text = await response.body.text();
          backend.served++;
          return { backend: backend.name, status: response.statusCode, text };
        } catch (error) {
          // Refused: nothing was sent, so it goes to another node.
          if ((error as NodeJS.ErrnoException).code === 'ECONNREFUSED') {
            backend.healthy = false;
            continue;
          }
          throw Object.assign(error as Error, { backend: backend.name });
        }
      }
    },
    served: (name: string) => backends.find((b) => b.name === name)?.served ?? 0,
    async close() {
      clearInterval(checker);
      await Promise.all(backends.flatMap((b) => [b.pool.destroy(), b.health.destroy()]));
    },
  };
}

export function describeStartAndStop(target: DatabaseTarget): void {
  describe(`start-up and shutdown of real processes (${target.kind})`, () => {
    it('a listener that cannot be bound stops start-up before any background work: exit 1, one line naming its setting, a due payout stays pending', async () => {
      const t = await startTestApp(target, { env: { GATEHOUSE_PAYOUT_DELAY: '0' } });
      try {
        const { token } = await newTenant(t);
        await fund(t, token, 5000);
        const payout = await api(t, token, 'POST', '/v1/payouts', { amount: 1000, currency: 'EUR', destination: 'acct_dest' });
        assert.equal(payout.status, 201, JSON.stringify(payout.body));
        const workers = { GATEHOUSE_IN_PROCESS_WORKERS: 'on' };

        await withPortTaken(async (taken) => {
          // Every other listener binds port 0 (the system picks a free port as it binds): a port
          // found free beforehand could be taken by another test first, and the start would fail
          // on the wrong setting.
          const cases = [
            { command: 'serve' as const, setting: 'GATEHOUSE_PORT', port: taken, adminPort: 0, env: workers },
            { command: 'serve' as const, setting: 'GATEHOUSE_ADMIN_PORT', port: 0, adminPort: taken, env: workers },
            { command: 'worker' as const, setting: 'GATEHOUSE_WORKER_METRICS_PORT', port: 0, adminPort: 0, env: { GATEHOUSE_WORKER_METRICS_PORT: String(taken) } },
          ];
          const runs = await Promise.all(
            // Three cold starts at once on a busy machine: a generous bound, only for a start that never ends.
            cases.map((c) => runToExit({ command: c.command, databaseUrl: t.config.databaseUrl, port: c.port, adminPort: c.adminPort, env: c.env, timeoutMs: 150_000 })),
          );
          for (const [i, run] of runs.entries()) {
            const { setting } = cases[i]!;
            assert.equal(run.code, 1, `${setting}: ${run.signal ?? ''}\n${run.stdout}${run.stderr}`);
            assert.equal(run.stderr, `gatehouse: ${setting}: 127.0.0.1:${taken} is already in use\n`);
          }
          assert.equal(await payoutState(t, payout.body.id), 'pending', 'nothing paid by the processes that could not start');
        });

        // It was due: the processor those processes would have started pays it on its first run.
        assert.deepEqual(await t.gatehouse.services.payoutProcessor.processDuePayouts(), { paid: 1, failed: 0 });
        assert.equal(await payoutState(t, payout.body.id), 'paid');
      } finally {
        await t.close();
      }
    });

    it('a stopping node drains: /readyz 503 while requests are still served with Connection: close; then new connections are refused, a request in flight finishes, one still in flight at the shutdown timeout is cut and logged; exit 0', async () => {
      const t = await startTestApp(target);
      const timeoutSeconds = 5;
      const node = await spawnGatehouse({
        databaseUrl: t.config.databaseUrl,
        env: { GATEHOUSE_SHUTDOWN_GRACE: '3', GATEHOUSE_SHUTDOWN_TIMEOUT: String(timeoutSeconds), GATEHOUSE_LOG_LEVEL: 'info' },
      });
      const client = new Pool(node.url, { connections: 1 });
      try {
        const { token } = await newTenant(t, ['invoices:read']);
        const get = async (path: string) => {
          const r = await client.request({ path, method: 'GET', headers: { authorization: `Bearer ${token}` } });
          return { status: r.statusCode, connection: r.headers.connection, body: (await r.body.json()) as Record<string, unknown> };
        };
        const before = await get('/v1/invoices');
        assert.equal(before.status, 200);
        assert.equal(before.connection, 'keep-alive');
        const inFlight = await requestInFlight(portOf(node.adminUrl), '/admin/v1/accounts', JSON.stringify({ name: 'In flight' }));
        // Its body never arrives.
        const stuck = await requestInFlight(portOf(node.adminUrl), '/admin/v1/accounts', JSON.stringify({ name: 'Never finished' }));

        node.child.kill('SIGTERM');
        await until(async () => (await get('/readyz')).status === 503, 10_000, '/readyz to fail');
        assert.deepEqual((await get('/readyz')).body, { status: 'draining' });
        const during = await get('/v1/invoices');
        assert.equal(during.status, 200, 'still served while draining');
        assert.equal(during.connection, 'close', 'and its connection closed after it');
        assert.equal((await get('/healthz')).status, 200, 'alive while draining');

        await until(() => refused(portOf(node.url)), 20_000, 'the public listener to refuse new connections');
        const closedAt = performance.now();
        assert.ok(await refused(portOf(node.adminUrl)), 'the admin listener refuses new connections too');
        const answer = await inFlight.finish();
        assert.match(answer, /^HTTP\/1\.1 201 /);
        assert.match(answer, /\r\nconnection: close\r\n/i);
        assert.match(answer, /"name":"In flight"/);

        assert.deepEqual(await node.exited, { code: 0, signal: null });
        const took = performance.now() - closedAt;
        assert.ok(took >= timeoutSeconds * 1000 - 500, `waited for the stuck request until the timeout (${took} ms)`);
        assert.ok(took < timeoutSeconds * 1000 + 5000, `did not wait much past the timeout (${took} ms)`);
        assert.equal(await stuck.closed, '', 'cut without an answer');
        const output = node.output();
        assert.match(output, /shutdown timeout: closed 1 connections with requests still in flight/);
        assert.ok(output.indexOf('shutting down: /readyz answers 503') < output.indexOf('"msg":"stopped"'), output);
      } finally {
        await client.destroy();
        await node.stop();
        await t.close();
      }
    });
  });
}

export function describeRollingRestart(target: DatabaseTarget): void {
  describe(`rolling restart and worker shutdown (${target.kind})`, () => {
    it('a rolling restart behind a balancer that honours readiness and Connection: close loses no request: no reset, no 503, every write stored once', async () => {
      const t = await startTestApp(target);
      const env = { GATEHOUSE_SHUTDOWN_GRACE: '2' };
      const nodes: SpawnedGatehouse[] = [];
      const balancer = createBalancer();
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      let created = 0;
      let loading = true;
      try {
        const { token, accountId } = await newTenant(t, ['invoices:read', 'invoices:write']);
        const [a, b] = await Promise.all([spawnGatehouse({ databaseUrl: t.config.databaseUrl, env }), spawnGatehouse({ databaseUrl: t.config.databaseUrl, env })]);
        nodes.push(a, b);
        balancer.add('a', a.url);
        balancer.add('b', b.url);
        const client = async (n: number) => {
          for (let i = 0; loading; i++) {
            const write = (i + n) % 4 === 0;
            const headers: Record<string, string> = { authorization: `Bearer ${token}` };
            if (write) Object.assign(headers, { 'content-type': 'application/json', 'idempotency-key': randomUUID() });
            try {
              const r = await balancer.send(
                write
                  ? { method: 'POST', path: '/v1/invoices', headers, body: JSON.stringify({ amount: 100, currency: 'EUR' }) }
                  : { method: 'GET', path: '/v1/invoices?limit=5', headers },
              );
              statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
              if (r.status !== (write ? 201 : 200)) failures.push(`${r.backend}: ${r.status} ${r.text.slice(0, 200)}`);
              if (r.status === 201) created++;
            } catch (error) {
              const e = error as NodeJS.ErrnoException & { backend?: string };
              failures.push(`${e.backend ?? '?'}: ${e.code ?? ''} ${e.message}`);
            }
          }
        };
        const clients = [0, 1, 2, 3].map(client);

        await until(() => balancer.served('a') >= 20 && balancer.served('b') >= 20, 60_000, 'both nodes to serve');
        a.child.kill('SIGTERM');
        assert.deepEqual(await a.exited, { code: 0, signal: null }, a.output());
        const a2 = await spawnGatehouse({ databaseUrl: t.config.databaseUrl, env });
        nodes.push(a2);
        balancer.add('a2', a2.url);
        await until(() => balancer.served('a2') >= 20, 60_000, 'the restarted node to serve');
        b.child.kill('SIGTERM');
        assert.deepEqual(await b.exited, { code: 0, signal: null }, b.output());
        const servedByA2 = balancer.served('a2');
        await until(() => balancer.served('a2') >= servedByA2 + 20, 60_000, 'the last node to serve alone');
        loading = false;
        await Promise.all(clients);

        assert.deepEqual(failures, [], `answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
        const stored = await t.gatehouse.database.db.selectFrom('invoices').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
        assert.equal(Number(stored.n), created, 'every acknowledged write stored, once');
        assert.ok(created > 0);
      } finally {
        loading = false;
        await balancer.close();
        for (const node of nodes) await node.stop();
        await t.close();
      }
    });

    it('a stopping worker abandons an attempt whose receiver never answers at its shutdown timeout, logs it, releases what it claimed but did not attempt, and exits 0', async () => {
      const t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      const receiver = await startReceiver();
      receiver.answer = () => 'timeout';
      try {
        const who = await tenant(t);
        await registerEndpoint(who, receiver.url, ['payout.created']);
        for (let i = 0; i < 3; i++) await raise(t, who.accountId, 'payout.created', `po_${i}`);
        const worker = await spawnGatehouse({
          command: 'worker',
          databaseUrl: t.config.databaseUrl,
          env: {
            ...ALLOW_LOOPBACK,
            // One attempt at a time to the endpoint, each allowed a minute: the other two wait, claimed.
            GATEHOUSE_WEBHOOK_CONCURRENCY: '1',
            GATEHOUSE_WEBHOOK_TIMEOUT: '60',
            GATEHOUSE_SHUTDOWN_TIMEOUT: '1',
            GATEHOUSE_LOG_LEVEL: 'info',
          },
        });
        try {
          await receiver.waitFor(1, 30_000);
          const signalled = performance.now();
          worker.child.kill('SIGTERM');
          assert.deepEqual(await worker.exited, { code: 0, signal: null });
          const took = performance.now() - signalled;
          assert.ok(took >= 1000 && took < 6000, `stopped at its 1 s timeout, not the receiver's 60 s (${took} ms)`);
          const output = worker.output();
          assert.match(output, /worker stopping: finishing work in flight \(at most 1 s\)/);
          assert.match(output, /abandoned 1 webhook attempts still in flight at the shutdown timeout/);
          assert.match(output, /"msg":"worker stopped"/);
          assert.equal(receiver.received.length, 1, 'the two waiting were never sent');

          const attempted = receiver.received[0]!.headers['event-id'];
          const queue = await t.gatehouse.database.db
            .selectFrom('webhook_queue')
            .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_queue.delivery_id')
            .select(['webhook_deliveries.event_id', 'webhook_deliveries.state', 'webhook_deliveries.attempt_count', 'webhook_queue.lease_owner', 'webhook_queue.lease_until'])
            .where('webhook_queue.account_id', '=', who.accountId)
            .execute();
          assert.equal(queue.length, 3);
          for (const row of queue) {
            assert.equal(row.state, 'pending');
            assert.equal(row.attempt_count, 0, 'nothing recorded for an abandoned attempt');
            if (row.event_id === attempted) assert.ok(row.lease_until !== null, 'the abandoned attempt keeps its lease until it expires');
            else assert.deepEqual([row.lease_owner, row.lease_until], [null, null], 'released for any worker to claim at once');
          }
          const logged = await t.gatehouse.database.db.selectFrom('webhook_attempts').select('id').where('account_id', '=', who.accountId).execute();
          assert.equal(logged.length, 0);
        } finally {
          await worker.stop();
        }
      } finally {
        await receiver.close();
        await t.close();
      }
    });
  });
}
