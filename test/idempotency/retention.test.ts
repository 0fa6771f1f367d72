/**
 * Retention (interface, Limits and the idempotency record's state table): a stored outcome is
 * replayed within the retention window (24 h by default, configurable); once the window has
 * passed the key is new, and the background sweep removes the record in batches.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { PROBE_SCOPE, probeCounts, registerProbeRoutes } from '../helpers/idempotency-probe.ts';
import { PROBE_BODY, callProbe } from '../helpers/idempotency-client.ts';

const HOUR = 3600_000;

for (const target of databaseTargets()) {
  describe(`Idempotency-Key retention (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { extensions: { extraRoutes: registerProbeRoutes } });
    });
    after(() => t.close());

    async function credential() {
      const accountId = await createAccount(t);
      // Long-lived enough for the clock moves below.
      const issued = await t.gatehouse.services.accessTokens.issue({ accountId, clientId: 'client-a', scopes: [PROBE_SCOPE], ttlSeconds: 24 * 3600 * 10 });
      return { accountId, token: issued.token };
    }
    const records = (accountId: string) =>
      t.gatehouse.database.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).execute();

    it('replayed until 24 h after the first request; from then on the same key is new, before and after the sweep', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const first = await callProbe(t.publicUrl, { token, key });
      assert.equal(first.status, 201);
      assert.equal((await records(accountId))[0]?.expires_at, (await records(accountId))[0]!.created_at + 24 * HOUR);

      t.clock.advance(24 * HOUR - 1);
      const late = await callProbe(t.publicUrl, { token, key });
      assert.equal(late.replayed, true);
      assert.equal(late.text, first.text);

      t.clock.advance(1);
      // Not swept yet, and a different body: still not a reuse, because the key is new.
      const renewed = await callProbe(t.publicUrl, { token, key, body: { ...PROBE_BODY, amount: 7 } });
      assert.equal(renewed.status, 201);
      assert.equal(renewed.replayed, false);
      assert.notEqual(renewed.body.id, first.body.id);
      const [record] = await records(accountId);
      assert.equal(record?.response_body, renewed.text, 'the record now holds the new outcome');
      assert.equal(record?.created_at, t.clock.now());

      t.clock.advance(24 * HOUR);
      assert.ok((await t.gatehouse.services.idempotency.sweepExpired()) >= 1);
      assert.equal((await records(accountId)).length, 0);
      const afterSweep = await callProbe(t.publicUrl, { token, key });
      assert.equal(afterSweep.status, 201);
      assert.equal(afterSweep.replayed, false);
      assert.deepEqual(await probeCounts(t.gatehouse.database.db, accountId), { effects: 3, events: 3 });
    });

    it('the sweep deletes every expired record in batches and keeps the ones still inside the window', async () => {
      // Start from an empty table: everything earlier tests stored has expired and is swept.
      t.clock.advance(25 * HOUR);
      await t.gatehouse.services.idempotency.sweepExpired();
      const { accountId, token } = await credential();
      const oldKeys = Array.from({ length: 23 }, () => randomUUID());
      for (const key of oldKeys) assert.equal((await callProbe(t.publicUrl, { token, key })).status, 201);
      t.clock.advance(12 * HOUR);
      for (let i = 0; i < 5; i++) assert.equal((await callProbe(t.publicUrl, { token, key: randomUUID() })).status, 201);
      t.clock.advance(12 * HOUR);

      assert.equal(await t.gatehouse.services.idempotency.sweepExpired({ batchSize: 4, maxBatches: 2 }), 8, 'one sweep is bounded');
      assert.equal(await t.gatehouse.services.idempotency.sweepExpired({ batchSize: 4 }), 15);
      assert.equal(await t.gatehouse.services.idempotency.sweepExpired({ batchSize: 4 }), 0);
      const left = await records(accountId);
      assert.equal(left.length, 5);
      assert.ok(left.every((r) => r.expires_at > t.clock.now()));
      const reused = await callProbe(t.publicUrl, { token, key: oldKeys[0]! });
      assert.equal(reused.replayed, false);
      assert.equal(reused.status, 201);
    });

    it('GATEHOUSE_IDEMPOTENCY_RETENTION sets the window', async () => {
      const short = await startTestApp(target, {
        env: { GATEHOUSE_IDEMPOTENCY_RETENTION: '3600' },
        extensions: { extraRoutes: registerProbeRoutes },
      });
      try {
        const accountId = await createAccount(short);
        const token = await mintAccessToken(short, { accountId, scopes: [PROBE_SCOPE] });
        const key = randomUUID();
        const first = await callProbe(short.publicUrl, { token, key });
        short.clock.advance(HOUR - 1);
        assert.equal((await callProbe(short.publicUrl, { token, key })).text, first.text);
        short.clock.advance(1);
        const renewed = await callProbe(short.publicUrl, { token, key });
        assert.equal(renewed.replayed, false);
        assert.notEqual(renewed.body.id, first.body.id);
      } finally {
        await short.close();
      }
    });
  });
}
