/**
 * PostgreSQL failing under Gatehouse, on a cluster each suite starts for itself (never the
 * machine's shared one): sessions terminated, the server restarted fast and immediately, a
 * row locked for long. No process exits or hangs: a statement on a dead connection answers
 * 503, the pool goes on with new connections, the webhook wake-up channel comes back, and
 * readiness says whether the database answers, not whether one pool is busy.
 *
 * Runs wherever the PostgreSQL server binaries are installed (skipped, saying so, elsewhere).
 * Waits are conditions polled against a deadline; the durations measured are reported.
 */
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { postgresBinaries, startThrowawayPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { until } from '../helpers/until.ts';
import { queryOnce } from '../helpers/databases.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { ALLOW_LOOPBACK, raise, registerEndpoint, tenant } from '../webhooks/support.ts';
import { createDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createSealer, loadSecretsKey } from '../../src/platform/secrets-key.ts';
import { createTargetPolicy } from '../../src/webhooks/target-policy.ts';
import type { Json } from '../helpers/http.ts';

const binaries = postgresBinaries();
const skip = 'missing' in binaries ? binaries.missing : false;

function databaseNameOf(url: string): string {
  return new URL(url).pathname.slice(1);
}

async function status(url: string, init?: RequestInit): Promise<number> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

describe('PostgreSQL failures: one process', { skip }, () => {
  let cluster: ThrowawayPostgres;
  before(async () => {
    cluster = await startThrowawayPostgres();
  });
  after(() => cluster?.close());

  it('a session terminated in the middle of a write answers 503, the process goes on, and the next write succeeds', async () => {
    let terminate = false;
    const t = await startTestApp(cluster.target(), {
      extensions: {
        writeHooks: {
          // The write's transaction is open and idle on its connection: end every session then.
          beforeCommit: async () => {
            if (!terminate) return;
            terminate = false;
            assert.ok((await cluster.terminateSessions(databaseNameOf(t.config.databaseUrl))) > 0);
          },
        },
      },
    });
    try {
      const { accountId, token } = await newTenant(t);
      terminate = true;
      const during = await api(t, token, 'POST', '/v1/invoices', { amount: 1000, currency: 'EUR' });
      assert.equal(during.status, 503);
      assert.equal(during.body.code, 'service_unavailable');
      assert.equal(during.headers.get('retry-after'), '1');
      assert.equal(terminate, false, 'the session was ended inside the write');
      // One line naming the cause, no stack: in an outage every request writes it.
      const logged = t.logs.filter((line) => line.includes('"database unavailable"'));
      assert.equal(logged.length, 1, t.logs.join('\n'));
      const entry = JSON.parse(logged[0]!) as { cause?: { code?: string; message?: string }; err?: unknown };
      assert.equal(typeof entry.cause?.message, 'string');
      assert.equal(entry.err, undefined);
      assert.ok(!logged[0]!.includes('"stack"'));
      const invoices = await t.gatehouse.database.db.selectFrom('invoices').select('id').where('account_id', '=', accountId).execute();
      assert.deepEqual(invoices, [], 'nothing of the interrupted write was committed');

      const next = await api(t, token, 'POST', '/v1/invoices', { amount: 1000, currency: 'EUR' });
      assert.equal(next.status, 201, JSON.stringify(next.body));
      assert.equal((await api(t, token, 'GET', '/v1/invoices')).body.data.length, 1);
    } finally {
      await t.close();
    }
  });

  it('readiness is unaffected by one locked row: with every pooled connection waiting on it, /readyz still answers 200 at once', async () => {
    const t = await startTestApp(cluster.target(), {
      env: { GATEHOUSE_DATABASE_POOL_SIZE: '2', GATEHOUSE_DATABASE_STATEMENT_TIMEOUT: '10000' },
    });
    const locker = new pg.Client({ connectionString: t.config.databaseUrl });
    try {
      // Three accounts: the payouts of one account share a transaction (group commit), so it takes
      // payouts of several, sent apart, to hold several connections.
      const tenants = await Promise.all(Array.from({ length: 3 }, () => newTenant(t)));
      for (const { token } of tenants) await fund(t, token, 10_000);
      await locker.connect();
      await locker.query('begin');
      await locker.query('select available from balances where account_id = any($1) for update', [tenants.map((tenant) => tenant.accountId)]);
      // A payout of each locked account, each sent once the one before waits on its row: payouts of
      // several accounts that arrive together share a transaction, so they are sent apart. The first
      // two hold both pooled connections waiting; the third waits for a connection.
      const waitingOnLocks = async () => {
        // Inside its transaction the locker sees activity as of its first look unless told to look again.
        await locker.query('select pg_stat_clear_snapshot()');
        const { rows } = await locker.query(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and pid <> pg_backend_pid()`);
        return (rows[0] as { n: number }).n;
      };
      const payouts: Array<ReturnType<typeof api>> = [];
      for (const [i, { token }] of tenants.entries()) {
        payouts.push(api(t, token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: `acct_${i}` }));
        if (i < 2) await until(async () => (await waitingOnLocks()) > i, 5000, `payout ${i + 1} waiting on its row`);
      }
      await until(() => (t.gatehouse.database.poolStats()?.waiting ?? 0) > 0, 5000, 'the pool to be exhausted');

      const started = performance.now();
      const ready = await fetch(`${t.publicUrl}/readyz`);
      const tookMs = performance.now() - started;
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { status: 'ready' });
      assert.ok(tookMs < 1000, `readiness answered in ${Math.round(tookMs)} ms`);
      const adminReady = await fetch(`${t.adminUrl}/readyz`);
      assert.equal(adminReady.status, 200);

      await locker.query('rollback');
      const answers = await Promise.all(payouts);
      assert.deepEqual(answers.map((a) => a.status).filter((s) => s !== 201 && s !== 503), [], 'each payout succeeds or is refused as unavailable');
    } finally {
      await locker.end().catch(() => {});
      await t.close();
    }
  });

  it('readiness answers 503 within its bound while the database does not answer at all (frozen), and 200 once it answers again', async () => {
    const t = await startTestApp(cluster.target());
    try {
      assert.equal((await fetch(`${t.publicUrl}/readyz`)).status, 200);
      cluster.freeze();
      try {
        for (let i = 0; i < 3; i++) {
          const started = performance.now();
          const frozen = await fetch(`${t.publicUrl}/readyz`, { signal: AbortSignal.timeout(5000) });
          const tookMs = performance.now() - started;
          assert.equal(frozen.status, 503);
          assert.deepEqual(await frozen.json(), { status: 'unavailable' });
          assert.ok(tookMs < 1000, `readiness answered in ${Math.round(tookMs)} ms`);
        }
      } finally {
        cluster.thaw();
      }
      await until(async () => (await status(`${t.publicUrl}/readyz`)) === 200, 5000, 'ready again');
    } finally {
      await t.close();
    }
  });

  it('the webhook wake-up channel is re-established after a restart: deliveries are woken on commit again, not found by the poll', async (context: TestContext) => {
    const t = await startTestApp(cluster.target(), { env: ALLOW_LOOPBACK });
    const receiver = await startReceiver();
    const key = await loadSecretsKey({ database: t.gatehouse.database, configured: t.config.secretsKey });
    // A poll of a minute: within the test only the commit signal can start a delivery.
    const worker = createDispatcher({
      db: t.gatehouse.database.db,
      clock: t.clock,
      log: t.gatehouse.log,
      sealer: createSealer(key, 'webhook secrets'),
      policy: createTargetPolicy({ allowNetworks: ['127.0.0.0/8'], requireHttps: false }),
      databaseUrl: t.config.databaseUrl,
      scheduleSeconds: [1],
      disableAfterMs: 3600_000,
      timeoutMs: 5000,
      pollMs: 60_000,
    });
    try {
      const who = await tenant(t);
      const { secret } = await registerEndpoint(who, receiver.url, ['payout.created']);
      receiver.secrets = [secret];
      await worker.start();
      await raise(t, who.accountId, 'payout.created', 'po_before');
      await receiver.waitFor(1, 5000);

      await cluster.stop('fast');
      await cluster.start();
      const back = performance.now();
      // The first write after the restart may meet the pool's dead connections; retry it.
      await until(async () => (await raise(t, who.accountId, 'payout.created', 'po_after').then(() => true, () => false)), 10_000, 'a commit after the restart');
      await receiver.waitFor(2, 10_000);
      context.diagnostic(`first delivery after the restart: ${Math.round(performance.now() - back)} ms after the database was back`);

      const latencies: number[] = [];
      for (let i = 0; i < 3; i++) {
        const committed = Date.now();
        await raise(t, who.accountId, 'payout.created', `po_${i}`);
        await receiver.waitFor(3 + i, 5000);
        latencies.push(receiver.received[2 + i]!.at - committed);
      }
      assert.ok(Math.min(...latencies) < 500, `commit → attempt after the restart: ${latencies.join(', ')} ms`);
      assert.ok(t.logs.some((l) => l.includes('webhook wake-up channel re-established')), 'the return is logged');
    } finally {
      await worker.stop();
      await receiver.close();
      await t.close();
    }
  });
});

describe('PostgreSQL failures: a serve node and a worker under a write workload', { skip }, () => {
  let cluster: ThrowawayPostgres;
  let database: { url: string; drop(): Promise<void> };
  let receiver: Receiver;
  let nodes: SpawnedGatehouse[] = [];
  let worker: SpawnedGatehouse;

  before(async () => {
    cluster = await startThrowawayPostgres();
    database = await cluster.target().create();
    receiver = await startReceiver();
    const env = {
      GATEHOUSE_ISSUER: 'http://gatehouse.internal',
      GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      GATEHOUSE_PAYOUT_DELAY: '0',
      // A write whose node lost its session mid-way holds its key this long at most.
      GATEHOUSE_IDEMPOTENCY_LEASE: '2',
      GATEHOUSE_DATABASE_POOL_SIZE: '5',
      GATEHOUSE_DATABASE_ACQUIRE_TIMEOUT: '2000',
      // A delivery whose claim or outcome was lost with a session is attempted again when its
      // lease (17 attempt timeouts and a second) runs out: 18 s here.
      GATEHOUSE_WEBHOOK_TIMEOUT: '1',
    };
    // One process of each kind: what a dropped connection does is per process, and each spawned
    // process costs seconds of CPU to start.
    const started = await Promise.all([
      spawnGatehouse({ databaseUrl: database.url, env }),
      spawnGatehouse({ databaseUrl: database.url, env, command: 'worker' }),
    ]);
    nodes = started.slice(0, 1);
    worker = started[1]!;
  });

  after(async () => {
    await Promise.all([...nodes, worker].filter(Boolean).map((n) => n.stop()));
    await receiver?.close();
    await database?.drop().catch(() => {});
    await cluster?.close();
  });

  const ADMIN_TOKEN = 'spawned-admin-token-0123456789abcdef';

  async function call(node: SpawnedGatehouse, method: string, path: string, token: string, body?: unknown, key?: string) {
    const response = await fetch(node.url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(key ? { 'idempotency-key': key } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Json };
  }

  /** An integrator's write: the same key on every retry, until a definitive answer. */
  // What clients saw: answers that asked for a retry, by kind, and the longest wait for a definitive one.
  const seen = { unavailable: 0, inUse: 0, noAnswer: 0, longestMs: 0 };

  async function write(start: number, path: string, token: string, body: unknown): Promise<{ status: number; body: Json; tries: number }> {
    const key = randomUUID();
    const began = performance.now();
    const deadline = Date.now() + 40_000;
    for (let tries = 1; ; tries++) {
      const node = nodes[(start + tries) % nodes.length]!;
      try {
        const answer = await call(node, 'POST', path, token, body, key);
        if (answer.status === 503) seen.unavailable++;
        else if (answer.status === 409 && answer.body?.code === 'idempotency_key_in_use') seen.inUse++;
        else {
          seen.longestMs = Math.max(seen.longestMs, performance.now() - began);
          return { ...answer, tries };
        }
      } catch {
        seen.noAnswer++; // retried with the same key
      }
      for (const n of [...nodes, worker]) {
        if (n.child.exitCode !== null || n.child.signalCode !== null) assert.fail(`a process exited (${n.child.exitCode ?? n.child.signalCode}):\n${n.output()}`);
      }
      if (Date.now() > deadline) assert.fail(`POST ${path} got no definitive answer in 40 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function everyNodeServes(token: string): Promise<boolean> {
    const answers = await Promise.all([
      ...nodes.map((n) => status(`${n.url}/v1/invoices?limit=1`, { headers: { authorization: `Bearer ${token}` } })),
      status(`${worker.adminUrl}/readyz`),
    ]);
    return answers.every((s) => s === 200);
  }

  it('sessions terminated and PostgreSQL restarted (fast, then immediate) under writes: every process runs on, serves within seconds of the return, and nothing acknowledged is lost', async (context: TestContext) => {
    const admin = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(nodes[0]!.adminUrl + path, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const account = await admin('POST', '/admin/v1/accounts', { name: 'Chaos' });
    const client = await admin('POST', `/admin/v1/accounts/${account.body.id}/clients`, {
      client_name: 'Load',
      grant_types: ['client_credentials'],
      scope: 'invoices:read invoices:write webhooks:manage',
    });
    assert.equal(client.status, 201, JSON.stringify(client.body));
    const tokenResponse = await fetch(`${nodes[0]!.url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.body.client_id}:${client.body.client_secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    const token = ((await tokenResponse.json()) as { access_token: string }).access_token;
    const endpoint = await write(0, '/v1/webhook_endpoints', token, { url: receiver.url, event_types: ['invoice.settled'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));

    // The workload: six clients creating and settling invoices.
    const acknowledged = new Map<string, number>();
    // When each write got its definitive answer, to tell how soon writes succeed after a fault.
    const answeredAt: number[] = [];
    let settled = 0;
    let running = true;
    let failure: unknown;
    const clients = Array.from({ length: 6 }, async (_, c) => {
      for (let i = 0; running; i++) {
        const created = await write(c + i, '/v1/invoices', token, { amount: 100 + c, currency: 'EUR' });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        acknowledged.set(created.body.id as string, (acknowledged.get(created.body.id as string) ?? 0) + 1);
        answeredAt.push(performance.now());
        const settle = await write(c + i + 1, `/v1/invoices/${created.body.id}/settle`, token, undefined);
        assert.equal(settle.status, 200, JSON.stringify(settle.body));
        answeredAt.push(performance.now());
        settled++;
      }
    });
    const workload = Promise.all(clients).catch((error: unknown) => {
      failure = error;
      running = false;
    });
    const progress = async (more: number, what: string) => {
      const target = acknowledged.size + more;
      await until(() => failure !== undefined || acknowledged.size >= target, 30_000, what);
      if (failure) throw failure;
    };
    const firstWriteAfter = async (since: number) => {
      await until(() => failure !== undefined || answeredAt.some((at) => at > since), 30_000, 'a write acknowledged');
      return Math.round(Math.min(...answeredAt.filter((at) => at > since)) - since);
    };

    try {
      await progress(20, 'writes before any fault');

      // Every session of Gatehouse's database ended at once, twice.
      for (let round = 0; round < 2; round++) {
        assert.ok((await cluster.terminateSessions(databaseNameOf(database.url))) > 0);
        const ended = performance.now();
        const first = await firstWriteAfter(ended);
        await progress(10, 'writes after the sessions were ended');
        context.diagnostic(`sessions ended: a write acknowledged ${first} ms later, 10 more ${Math.round(performance.now() - ended)} ms later`);
      }

      for (const mode of ['fast', 'immediate'] as const) {
        await cluster.stop(mode);
        await new Promise((r) => setTimeout(r, 1000)); // the outage itself: one second down
        await cluster.start();
        const back = performance.now();
        await until(() => everyNodeServes(token), 10_000, `every process serving after the ${mode} restart`);
        const serving = performance.now() - back;
        const first = await firstWriteAfter(back);
        await progress(10, `writes after the ${mode} restart`);
        context.diagnostic(`${mode} restart: every process serving ${Math.round(serving)} ms after the database was back, a write acknowledged after ${first} ms`);
        assert.ok(serving < 5000, `serving ${Math.round(serving)} ms after the ${mode} restart`);
      }
    } finally {
      running = false;
      await workload;
    }
    if (failure) throw failure;
    context.diagnostic(
      `clients saw ${seen.unavailable} × 503, ${seen.inUse} × 409 idempotency_key_in_use, ${seen.noAnswer} × no answer; longest write ${Math.round(seen.longestMs)} ms`,
    );

    for (const n of [...nodes, worker]) assert.equal(n.child.exitCode ?? n.child.signalCode, null, 'still running');
    // From the database: each acknowledged invoice exactly once, none that was not acknowledged.
    const rows = await queryOnce<{ id: string; state: string }>(database.url, 'select id, state from invoices');
    assert.deepEqual(new Set(rows.map((r) => r.id)), new Set(acknowledged.keys()));
    assert.equal(rows.length, acknowledged.size);
    assert.ok([...acknowledged.values()].every((n) => n === 1), 'no key performed twice');
    assert.equal(rows.filter((r) => r.state === 'settled').length, settled);
    // The worker survived too: every settled invoice's event reaches the receiver.
    await until(async () => (await queryOnce(database.url, "select 1 from webhook_deliveries where state <> 'acknowledged'")).length === 0, 40_000, 'every delivery acknowledged');
    assert.equal(new Set(receiver.received.map((r) => r.body.id)).size, settled);
  });
});

