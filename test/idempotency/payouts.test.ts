/**
 * Idempotency-Key on the real business writes (POST /v1/payouts, POST /v1/invoices and
 * /settle): every rule of docs/IDEMPOTENCY.md held against the payout row, its ledger
 * entries, its `payout.created` event and the available balance, and across a kill -9
 * between the effects and the commit. Races: races.ts (payouts-races-*.test.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import type { Json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { PROBE_FILE } from '../helpers/idempotency-probe.ts';
import { spawnGatehouse } from '../helpers/processes.ts';
import { api, fund } from '../payments/api.ts';
import { PAYOUT, SCOPES, assertReplayOf, paymentState, post, postPayout, type Call } from './payout-calls.ts';

const HOUR = 3600_000;

for (const target of databaseTargets()) {
  describe(`Idempotency-Key on the payment writes (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'warn', GATEHOUSE_PAYOUT_DELAY: '3600' } });
    });
    after(() => t.close());
    const { db, tenant, written, records } = paymentState(() => t);

    it('same key, different amount → 409 idempotency_key_reused; nothing written, the stored answer untouched', async () => {
      const { accountId, token } = await tenant();
      const key = randomUUID();
      const first = await postPayout(t.publicUrl, { token, key });
      assert.equal(first.status, 201);
      const before = await written(accountId);
      const changed = await postPayout(t.publicUrl, { token, key, body: { ...PAYOUT, amount: PAYOUT.amount + 1 } });
      assert.equal(changed.status, 409);
      assert.match(changed.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(changed.body.code, 'idempotency_key_reused');
      assert.equal(changed.replayed, false);
      assert.deepEqual(await written(accountId), before);
      const [record] = await records(accountId, key);
      assert.equal(record?.response_body, first.text);
      assertReplayOf(await postPayout(t.publicUrl, { token, key }), first);
    });

    it('same body with members reordered and other whitespace → replay of the original, nothing performed again', async () => {
      const { accountId, token } = await tenant();
      const key = randomUUID();
      const first = await postPayout(t.publicUrl, { token, key });
      const rawBody = `{ "destination" : "${PAYOUT.destination}",\n  "currency":"EUR", "amount": 1250.0 }`;
      assertReplayOf(await postPayout(t.publicUrl, { token, key, rawBody }), first);
      assert.equal((await written(accountId)).payouts, 1);
    });

    it('rule 3: the same key from two clients of one account → two payouts, each client replays its own', async () => {
      const { accountId, token } = await tenant();
      const other = await mintAccessToken(t, { accountId, clientId: 'client-b', scopes: SCOPES });
      const key = 'payout-2026-11-0001';
      const a = await postPayout(t.publicUrl, { token, key });
      const b = await postPayout(t.publicUrl, { token: other, key });
      assert.equal(a.status, 201);
      assert.equal(b.status, 201);
      assert.equal(b.replayed, false);
      assert.notEqual(a.body.id, b.body.id);
      assert.deepEqual(await written(accountId), { payouts: 2, events: 2, ledgerEntries: 4, balance: 1_000_000 - 2 * PAYOUT.amount });
      assert.deepEqual((await records(accountId, key)).map((r) => r.client_id).sort(), ['client-a', 'client-b']);
      assertReplayOf(await postPayout(t.publicUrl, { token: other, key }), b);
      assertReplayOf(await postPayout(t.publicUrl, { token, key }), a);
    });

    it('422 insufficient_funds is stored and replayed byte for byte; after the balance grows the key still replays the 422 (the key is spent)', async () => {
      const { accountId, token } = await tenant(1000);
      const key = randomUUID();
      const body = { ...PAYOUT, amount: 5000 };
      const refused = await postPayout(t.publicUrl, { token, key, body });
      assert.equal(refused.status, 422);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(refused.body.code, 'insufficient_funds');
      const [record] = await records(accountId, key);
      assert.equal(record?.state, 'done');
      assert.equal(record?.response_status, 422);
      assert.equal(record?.response_body, refused.text);
      assertReplayOf(await postPayout(t.publicUrl, { token, key, body }), refused);

      await fund(t, token, 10_000);
      assertReplayOf(await postPayout(t.publicUrl, { token, key, body }), refused, 'after the balance grew');
      assert.deepEqual(await written(accountId), { payouts: 0, events: 0, ledgerEntries: 0, balance: 11_000 });
      // A new attempt at the operation is a new key.
      const fresh = await postPayout(t.publicUrl, { token, key: randomUUID(), body });
      assert.equal(fresh.status, 201);
      assert.deepEqual(await written(accountId), { payouts: 1, events: 1, ledgerEntries: 2, balance: 6_000 });
    });

    it('401 (bad token), 403 (no payouts:write) and 400 (schema) are not stored: the next valid request with the key performs the payout', async () => {
      const { accountId, token } = await tenant();
      const readOnly = await mintAccessToken(t, { accountId, clientId: 'client-a', scopes: ['payouts:read'] });
      const refusals: Array<{ call: Omit<Call, 'key'>; status: number; code: string }> = [
        { call: { token: 'gh_at_not-a-real-token' }, status: 401, code: 'invalid_token' },
        { call: { token: readOnly }, status: 403, code: 'insufficient_scope' },
        { call: { token, body: { ...PAYOUT, amount: '1250' } }, status: 400, code: 'validation_failed' },
        { call: { token, body: { ...PAYOUT, currency: 'eur' } }, status: 400, code: 'validation_failed' },
      ];
      let payouts = 0;
      for (const refusal of refusals) {
        const key = randomUUID();
        const refused = await postPayout(t.publicUrl, { key, ...refusal.call });
        assert.equal(refused.status, refusal.status, refusal.code);
        assert.equal(refused.body.code, refusal.code);
        assert.equal((await records(accountId, key)).length, 0, `${refusal.code} left a record`);
        assert.equal((await written(accountId)).payouts, payouts);
        const next = await postPayout(t.publicUrl, { token, key });
        assert.equal(next.status, 201, refusal.code);
        assert.equal(next.replayed, false);
        payouts++;
        assert.deepEqual(await written(accountId), { payouts, events: payouts, ledgerEntries: 2 * payouts, balance: 1_000_000 - payouts * PAYOUT.amount });
      }
    });

    it('an invoice created once under its key; settling it twice with two keys → 409 invoice_already_settled, stored and replayed; settled and credited once', async () => {
      const { accountId, token } = await tenant(0);
      const invoice = { token, key: randomUUID(), body: { amount: 7000, currency: 'EUR' } };
      const created = await post(`${t.publicUrl}/v1/invoices`, invoice);
      assert.equal(created.status, 201);
      assertReplayOf(await post(`${t.publicUrl}/v1/invoices`, invoice), created);
      const settleUrl = `${t.publicUrl}/v1/invoices/${created.body.id}/settle`;
      const [firstKey, secondKey] = [randomUUID(), randomUUID()];
      const settled = await post(settleUrl, { token, key: firstKey });
      assert.equal(settled.status, 200);
      assert.equal(settled.body.state, 'settled');
      const again = await post(settleUrl, { token, key: secondKey });
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'invoice_already_settled');
      assert.equal(again.replayed, false);
      const [record] = await records(accountId, secondKey);
      assert.equal(record?.response_status, 409);
      assert.equal(record?.response_body, again.text);
      assertReplayOf(await post(settleUrl, { token, key: secondKey }), again);
      assertReplayOf(await post(settleUrl, { token, key: firstKey }), settled);
      const entries = await db().selectFrom('ledger_entries').select('amount').where('source_id', '=', created.body.id).execute();
      assert.equal(entries.length, 2);
      const events = await db().selectFrom('events').select('type').where('object_id', '=', created.body.id).execute();
      assert.deepEqual(events, [{ type: 'invoice.settled' }]);
      assert.equal((await written(accountId)).balance, 7000);
    });

    it('OpenAPI: POST /v1/payouts, /v1/invoices and /v1/invoices/{id}/settle document the required Idempotency-Key, Idempotent-Replay and the 409 answer', async () => {
      const doc: Json = await (await fetch(`${t.publicUrl}/openapi.json`)).json();
      for (const [path, success] of [['/v1/payouts', '201'], ['/v1/invoices', '201'], ['/v1/invoices/{id}/settle', '200']] as const) {
        const operation = doc.paths[path].post;
        const header = operation.parameters.find((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key');
        assert.equal(header?.required, true, path);
        assert.equal(operation.responses[success].headers['Idempotent-Replay'].schema.enum[0], 'true', path);
        assert.ok(operation.responses['409'], path);
      }
    });

    it('retention: replayed until 24 h after the first request (injected clock); from then on the key is new and pays out again', async () => {
      const { accountId, token } = await tenant();
      const key = randomUUID();
      const first = await postPayout(t.publicUrl, { token, key });
      assert.equal(first.status, 201);
      t.clock.advance(24 * HOUR - 1);
      const fresh = await mintAccessToken(t, { accountId, clientId: 'client-a', scopes: SCOPES });
      assertReplayOf(await postPayout(t.publicUrl, { token: fresh, key }), first);
      t.clock.advance(1);
      const renewed = await postPayout(t.publicUrl, { token: fresh, key });
      assert.equal(renewed.status, 201);
      assert.equal(renewed.replayed, false);
      assert.notEqual(renewed.body.id, first.body.id);
      assert.deepEqual(await written(accountId), { payouts: 2, events: 2, ledgerEntries: 4, balance: 1_000_000 - 2 * PAYOUT.amount });
      assertReplayOf(await postPayout(t.publicUrl, { token: fresh, key }), renewed);
    });

    it(`kill -9 between the payout and its commit → nothing paid out; after restart the retry ${target.kind === 'postgres' ? 'is 409 while the dead claim holds its lease, then pays' : 'pays'} out exactly once`, async () => {
      t.clock.set(Date.now());
      const { accountId, token } = await tenant();
      const before = await written(accountId);
      const key = randomUUID();
      const node = await spawnGatehouse({ databaseUrl: t.config.databaseUrl, env: { GATEHOUSE_TEST_EXTENSIONS: PROBE_FILE } });
      await assert.rejects(postPayout(node.url, { token, key, headers: { 'x-probe-crash': 'before-commit' } }), 'the connection dies with the process');
      assert.deepEqual(await node.exited, { code: null, signal: 'SIGKILL' });

      t = await t.restart();
      assert.deepEqual(await written(accountId), before, 'payout, ledger entries, event and debit rolled back with the process');
      const [claim] = await records(accountId, key);
      if (target.kind === 'postgres') {
        assert.equal(claim?.state, 'running');
        assert.equal(claim?.response_body, null);
        t.clock.set(Date.now());
        const early = await postPayout(t.publicUrl, { token, key });
        assert.equal(early.status, 409);
        assert.equal(early.body.code, 'idempotency_key_in_use');
        assert.equal(early.headers.get('retry-after'), '1');
        t.clock.set(claim!.locked_until);
      } else {
        assert.equal(claim, undefined, 'SQLite writes the key in the transaction that rolled back');
      }
      const retry = await postPayout(t.publicUrl, { token, key });
      assert.equal(retry.status, 201);
      assert.equal(retry.replayed, false);
      assert.deepEqual(await written(accountId), {
        payouts: before.payouts + 1,
        events: before.events + 1,
        ledgerEntries: before.ledgerEntries + 2,
        balance: before.balance - PAYOUT.amount,
      });
      assertReplayOf(await postPayout(t.publicUrl, { token, key }), retry);
      const listed = await api(t, token, 'GET', '/v1/payouts');
      assert.deepEqual(listed.body.data.map((p: Json) => p.id), [retry.body.id]);
    });
  });
}
