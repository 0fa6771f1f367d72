/**
 * Exactly once under races: many copies of one request at the same moment perform it once,
 * within one process and across two server processes sharing PostgreSQL; a copy arriving
 * while the first is running is told so at once instead of waiting for it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { DefaultConnectionProvider, type DatabaseConnection } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { PROBE_FILE, PROBE_SCOPE, probeCounts, registerProbeRoutes } from '../helpers/idempotency-probe.ts';
import { PROBE_BODY, callProbe, type ProbeResponse } from '../helpers/idempotency-client.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';

/**
 * Watches the database's connection being asked for by a write runner (the only code with
 * `runInline` in its stack) while it runs: `asked` resolves when one asks, `granted` tells
 * whether it has been given the connection yet. On SQLite's one connection, a request that
 * asked and was not granted is provably waiting for the transaction that holds it.
 */
function watchWriteRunnerConnections(): { asked: Promise<void>; granted(): boolean; stop(): void } {
  const original = Object.getOwnPropertyDescriptor(DefaultConnectionProvider.prototype, 'provideConnection')!;
  const provide = original.value as <T>(this: DefaultConnectionProvider, consumer: (connection: DatabaseConnection) => Promise<T>) => Promise<T>;
  let onAsked: () => void = () => {};
  const asked = new Promise<void>((resolve) => (onAsked = resolve));
  let granted = false;
  Object.defineProperty(DefaultConnectionProvider.prototype, 'provideConnection', {
    ...original,
    value: function <T>(this: DefaultConnectionProvider, consumer: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = Infinity;
      const ours = /\brunInline\b/.test(new Error().stack ?? '');
      Error.stackTraceLimit = limit;
      if (!ours) return provide.call(this, consumer) as Promise<T>;
      onAsked();
      return provide.call(this, (connection) => {
        granted = true;
        return consumer(connection);
      }) as Promise<T>;
    },
  });
  return { asked, granted: () => granted, stop: () => Object.defineProperty(DefaultConnectionProvider.prototype, 'provideConnection', original) };
}

const CONCURRENCY = 100;
const ROUNDS = 20;

/** Fires CONCURRENCY identical requests per round and checks that each round performed exactly once. */
async function hammer(t: TestApp, urls: string[], label: string): Promise<void> {
  const accountId = await createAccount(t);
  const token = await mintAccessToken(t, { accountId, scopes: [PROBE_SCOPE] });
  let inUse = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const bucket = `round-${round}`;
    const key = randomUUID();
    const responses: ProbeResponse[] = await Promise.all(
      Array.from({ length: CONCURRENCY }, (_, i) => callProbe(urls[i % urls.length]!, { token, key, bucket })),
    );
    const originals = responses.filter((r) => r.status === 201 && !r.replayed);
    assert.equal(originals.length, 1, `${label} round ${round}: one original response`);
    const original = originals[0]!;
    for (const response of responses) {
      if (response.status === 409) {
        assert.equal(response.body.code, 'idempotency_key_in_use', `${label} round ${round}`);
        assert.equal(response.headers.get('retry-after'), '1');
        inUse++;
        continue;
      }
      assert.equal(response.status, 201, `${label} round ${round}: ${response.text}`);
      assert.equal(response.text, original.text, `${label} round ${round}: a replay is the original, byte for byte`);
    }
    assert.deepEqual(await probeCounts(t.gatehouse.database.db, accountId, bucket), { effects: 1, events: 1 }, `${label} round ${round}`);
    // Whoever got 409 retries and gets the original.
    const retry = await callProbe(urls[0]!, { token, key, bucket });
    assert.equal(retry.replayed, true);
    assert.equal(retry.text, original.text);
  }
  assert.deepEqual(await probeCounts(t.gatehouse.database.db, accountId), { effects: ROUNDS, events: ROUNDS });
  console.log(`${label}: ${ROUNDS} rounds × ${CONCURRENCY} requests, ${inUse} answered 409 idempotency_key_in_use`);
}

for (const target of databaseTargets()) {
  describe(`Idempotency-Key under concurrency (${target.kind})`, () => {
    let releaseHeld: () => void = () => {};
    let onHeld: () => void = () => {};
    let onCopyAtKey: () => void = () => {};
    let copyMayRead: Promise<void> = Promise.resolve();
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, {
        env: { GATEHOUSE_LOG_LEVEL: 'warn' },
        extensions: {
          extraRoutes: registerProbeRoutes,
          writeHooks: {
            // Tells when a request marked as the copy has reached its key, and keeps it there until let go.
            async beforeKeyRead(request) {
              if (request.headers['x-probe-copy'] === undefined) return;
              onCopyAtKey();
              await copyMayRead;
            },
            // Holds a request inside its transaction, effects done and response stored, until released.
            async beforeCommit(request) {
              if (request.headers['x-probe-hold'] === undefined) return;
              const released = new Promise<void>((resolve) => (releaseHeld = resolve));
              onHeld();
              await released;
            },
          },
        },
      });
    });
    after(() => t.close());

    it(`${CONCURRENCY} concurrent identical requests with one key, ${ROUNDS} rounds → exactly one effect and one event per round; every answer is the original, its byte-identical replay, or 409 in_use`, async () => {
      await hammer(t, [t.publicUrl], target.kind);
    });

    // PostgreSQL: the copy reads the committed claim without touching the owner's row lock.
    if (target.kind === 'postgres') it(
      'a copy arriving while the first request is inside its transaction → 409 idempotency_key_in_use with Retry-After at once, not after the first finishes',
      async () => {
        const accountId = await createAccount(t);
        const token = await mintAccessToken(t, { accountId, scopes: [PROBE_SCOPE] });
        const key = randomUUID();
        const held = new Promise<void>((resolve) => (onHeld = resolve));
        const first = callProbe(t.publicUrl, { token, key, headers: { 'x-probe-hold': '1' } });
        await held;
        const copy = await callProbe(t.publicUrl, { token, key });
        assert.equal(copy.status, 409);
        assert.equal(copy.body.code, 'idempotency_key_in_use');
        assert.equal(copy.headers.get('retry-after'), '1');
        const changed = await callProbe(t.publicUrl, { token, key, body: { ...PROBE_BODY, amount: 1 } });
        assert.equal(changed.body.code, 'idempotency_key_reused');
        const record = await t.gatehouse.database.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
        assert.equal(record.state, 'running', 'the completion is not visible before commit');
        releaseHeld();
        const original = await first;
        assert.equal(original.status, 201);
        const retry = await callProbe(t.publicUrl, { token, key });
        assert.equal(retry.replayed, true);
        assert.equal(retry.text, original.text);
        assert.deepEqual(await probeCounts(t.gatehouse.database.db, accountId), { effects: 1, events: 1 });
      },
    );

    // SQLite: a process has one connection, so the copy's read of the key waits for the (short)
    // transaction. Authenticating reads the database too, so the copy is let in and stopped at its
    // key first; it reads the key only once the first is held inside its transaction, and the first
    // is released only once the copy has asked for the connection the first holds.
    if (target.kind === 'sqlite') it(
      'a copy arriving while the first request is inside its transaction waits for it on SQLite, then replays it',
      { timeout: 30_000 },
      async () => {
        const accountId = await createAccount(t);
        const token = await mintAccessToken(t, { accountId, scopes: [PROBE_SCOPE] });
        const key = randomUUID();
        let letCopyRead: () => void = () => {};
        copyMayRead = new Promise<void>((resolve) => (letCopyRead = resolve));
        const copyAtKey = new Promise<void>((resolve) => (onCopyAtKey = resolve));
        let copyAnswered = false;
        const copy = callProbe(t.publicUrl, { token, key, headers: { 'x-probe-copy': '1' } }).finally(() => (copyAnswered = true));
        await copyAtKey;

        const held = new Promise<void>((resolve) => (onHeld = resolve));
        const first = callProbe(t.publicUrl, { token, key, headers: { 'x-probe-hold': '1' } });
        await held;
        const connection = watchWriteRunnerConnections();
        try {
          letCopyRead();
          await connection.asked;
          assert.equal(connection.granted(), false, 'the copy asked for the connection the held transaction has');
          assert.equal(copyAnswered, false, 'the copy has no answer while the first is inside its transaction');
          releaseHeld();
          const [original, replay] = await Promise.all([first, copy]);
          assert.equal(connection.granted(), true);
          assert.equal(original.status, 201);
          assert.equal(original.replayed, false);
          assert.equal(replay.status, 201);
          assert.equal(replay.replayed, true, 'the copy waited and replays the first, neither performing again nor answering 409');
          assert.equal(replay.text, original.text);
        } finally {
          connection.stop();
        }
        assert.deepEqual(await probeCounts(t.gatehouse.database.db, accountId), { effects: 1, events: 1 });
      },
    );

    if (target.kind === 'postgres') {
      describe('two server processes on one PostgreSQL database', () => {
        const nodes: SpawnedGatehouse[] = [];
        before(async () => {
          for (let i = 0; i < 2; i++) {
            nodes.push(await spawnGatehouse({ databaseUrl: t.config.databaseUrl, env: { GATEHOUSE_TEST_EXTENSIONS: PROBE_FILE } }));
          }
        });
        after(() => Promise.all(nodes.map((n) => n.stop())));

        it(`${CONCURRENCY} concurrent identical requests spread over two processes, ${ROUNDS} rounds → exactly one effect per round`, async () => {
          await hammer(
            t,
            nodes.map((n) => n.url),
            'postgres, two processes',
          );
        });
      });
    }
  });
}
