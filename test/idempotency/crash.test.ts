/**
 * Crashes: the claim, the effects and the stored response commit together, so a process
 * killed between its effects and its commit leaves nothing but (on PostgreSQL) a claim; once
 * the claim's lease has run out, the retry with the same key performs the operation exactly
 * once. On SQLite the key is written in the transaction that performs the request, so
 * nothing at all is left and the retry performs it at once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { PROBE_FILE, PROBE_SCOPE, probeCounts, registerProbeRoutes } from '../helpers/idempotency-probe.ts';
import { callProbe } from '../helpers/idempotency-client.ts';
import { spawnGatehouse } from '../helpers/processes.ts';
import { DEFAULT_LEASE_MS } from '../../src/idempotency/write-runner.ts';

for (const target of databaseTargets()) {
  describe(`Idempotency-Key across a crash (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { extensions: { extraRoutes: registerProbeRoutes } });
    });
    after(() => t.close());

    if (target.kind === 'sqlite') it('kill -9 between the effects and the commit → nothing performed and no record left; after restart the retry performs the write exactly once', async () => {
      const accountId = await createAccount(t);
      const token = await mintAccessToken(t, { accountId, scopes: [PROBE_SCOPE] });
      const key = randomUUID();
      const node = await spawnGatehouse({ databaseUrl: t.config.databaseUrl, env: { GATEHOUSE_TEST_EXTENSIONS: PROBE_FILE } });
      await assert.rejects(callProbe(node.url, { token, key, headers: { 'x-probe-crash': 'before-commit' } }), 'the connection dies with the process');
      assert.deepEqual(await node.exited, { code: null, signal: 'SIGKILL' });

      t = await t.restart();
      const db = t.gatehouse.database.db;
      assert.deepEqual(await probeCounts(db, accountId), { effects: 0, events: 0 }, 'the effects rolled back with the process');
      assert.equal((await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).execute()).length, 0);

      const retry = await callProbe(t.publicUrl, { token, key });
      assert.equal(retry.status, 201);
      assert.equal(retry.replayed, false);
      const again = await callProbe(t.publicUrl, { token, key });
      assert.equal(again.replayed, true);
      assert.equal(again.text, retry.text);
      assert.deepEqual(await probeCounts(db, accountId), { effects: 1, events: 1 });
    });

    if (target.kind === 'postgres') it('kill -9 between the effects and the commit → nothing performed; after restart the retry is refused 409 while the dead claim holds its lease, then performs the write exactly once', async () => {
      const accountId = await createAccount(t);
      const token = await mintAccessToken(t, { accountId, scopes: [PROBE_SCOPE] });
      const key = randomUUID();
      const node = await spawnGatehouse({ databaseUrl: t.config.databaseUrl, env: { GATEHOUSE_TEST_EXTENSIONS: PROBE_FILE } });
      await assert.rejects(callProbe(node.url, { token, key, headers: { 'x-probe-crash': 'before-commit' } }), 'the connection dies with the process');
      assert.deepEqual(await node.exited, { code: null, signal: 'SIGKILL' });

      t = await t.restart();
      const db = t.gatehouse.database.db;
      assert.deepEqual(await probeCounts(db, accountId), { effects: 0, events: 0 }, 'the effects rolled back with the process');
      const claim = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assert.equal(claim.state, 'running');
      assert.equal(claim.response_body, null, 'the stored response rolled back with the effects');

      t.clock.set(Date.now());
      const early = await callProbe(t.publicUrl, { token, key });
      assert.equal(early.status, 409);
      assert.equal(early.body.code, 'idempotency_key_in_use');
      assert.equal(early.headers.get('retry-after'), '1');

      t.clock.set(claim.locked_until);
      const retry = await callProbe(t.publicUrl, { token, key });
      assert.equal(retry.status, 201);
      assert.equal(retry.replayed, false);
      assert.ok(claim.locked_until - claim.created_at <= DEFAULT_LEASE_MS, 'never stuck longer than one lease');
      assert.deepEqual(await probeCounts(db, accountId), { effects: 1, events: 1 });

      const again = await callProbe(t.publicUrl, { token, key });
      assert.equal(again.replayed, true);
      assert.equal(again.text, retry.text);
      assert.deepEqual(await probeCounts(db, accountId), { effects: 1, events: 1 });
    });
  });
}
