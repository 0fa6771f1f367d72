/**
 * Idempotency-Key semantics as an integrator sees them, through a real /v1 write on a real app
 * (the interface's "Idempotency rules" 1-5 and product decisions on what is stored).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../src/idempotency/fingerprint.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { PROBE_BALANCE, PROBE_SCOPE, probeCounts, registerProbeRoutes } from '../helpers/idempotency-probe.ts';
import { PROBE_BODY, callProbe } from '../helpers/idempotency-client.ts';

for (const target of databaseTargets()) {
  describe(`Idempotency-Key on /v1 writes (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { extensions: { extraRoutes: registerProbeRoutes } });
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    async function credential(clientId = 'client-a', scopes = [PROBE_SCOPE]) {
      const accountId = await createAccount(t);
      return { accountId, token: await mintAccessToken(t, { accountId, clientId, scopes }) };
    }
    async function records(accountId: string) {
      return db().selectFrom('idempotency_keys').selectAll().where('account_id', '=', accountId).execute();
    }

    it('rule 4: a repeat with the same key and request replays the stored status, headers and body byte for byte, with Idempotent-Replay: true, and performs nothing', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const first = await callProbe(t.publicUrl, { token, key });
      assert.equal(first.status, 201);
      assert.equal(first.replayed, false);
      assert.equal(first.headers.get('idempotent-replay'), null);
      assert.match(first.body.id, /^prb_[0-9A-Za-z]{20}$/);
      assert.deepEqual(first.body, { id: first.body.id, object: 'probe_effect', bucket: 'main', ...PROBE_BODY, created_at: first.body.created_at });
      assert.equal(first.headers.get('location'), `/v1/idempotency-probe/main/effects/${first.body.id}`);

      const [record] = await records(accountId);
      assert.equal(record?.state, 'done');
      assert.equal(record?.client_id, 'client-a');
      assert.equal(record?.idempotency_key, key);
      assert.equal(record?.response_status, 201);
      assert.equal(record?.response_body, first.text);
      assert.equal(JSON.parse(record!.response_headers!).location, first.headers.get('location'));

      t.clock.advance(60_000);
      for (let i = 0; i < 3; i++) {
        const again = await callProbe(t.publicUrl, { token, key });
        assert.equal(again.status, 201);
        assert.equal(again.replayed, true);
        assert.equal(again.text, first.text);
        assert.equal(again.headers.get('location'), first.headers.get('location'));
        assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
      }
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 1, events: 1 });
    });

    it('rule 2: a /v1 write without Idempotency-Key → 400 idempotency_key_missing, nothing performed or stored', async () => {
      const { accountId, token } = await credential();
      const response = await callProbe(t.publicUrl, { token, key: null });
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(response.body.code, 'idempotency_key_missing');
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 0, events: 0 });
      assert.equal((await records(accountId)).length, 0);
    });

    it('a key must be 1-255 printable ASCII characters, sent once → else 400 idempotency_key_invalid', async () => {
      const { accountId, token } = await credential();
      for (const key of ['', 'x'.repeat(256), 'tab\there', 'clé']) {
        const response = await callProbe(t.publicUrl, { token, key });
        assert.equal(response.status, 400, JSON.stringify(key));
        assert.equal(response.body.code, 'idempotency_key_invalid');
      }
      const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${t.publicUrl}/v1/idempotency-probe/main/effects`);
        const request = http.request(
          url,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': ['one', 'two'] },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        request.on('error', reject);
        request.end(JSON.stringify(PROBE_BODY));
      });
      assert.equal(twice.status, 400);
      assert.equal(JSON.parse(twice.body).code, 'idempotency_key_invalid');
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 0, events: 0 });

      // Every printable character, including an inner space (HTTP strips outer whitespace).
      const longest = `a ~!"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}`.padEnd(255, 'k');
      const accepted = await callProbe(t.publicUrl, { token, key: longest });
      assert.equal(accepted.status, 201);
      assert.equal((await records(accountId))[0]?.idempotency_key, longest);
    });

    it('rule 5: the same key with a materially different request → 409 idempotency_key_reused; the stored response stays', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const first = await callProbe(t.publicUrl, { token, key });
      assert.equal(first.status, 201);
      const variants = [
        { body: { ...PROBE_BODY, amount: PROBE_BODY.amount + 1 } },
        { body: { ...PROBE_BODY, metadata: { ...PROBE_BODY.metadata, order: 'A-2' } } },
        { body: { amount: PROBE_BODY.amount, currency: PROBE_BODY.currency, destination: PROBE_BODY.destination } },
        { bucket: 'other' },
      ];
      for (const variant of variants) {
        const response = await callProbe(t.publicUrl, { token, key, ...variant });
        assert.equal(response.status, 409, JSON.stringify(variant));
        assert.equal(response.body.code, 'idempotency_key_reused');
        assert.equal(response.replayed, false);
      }
      const again = await callProbe(t.publicUrl, { token, key });
      assert.equal(again.replayed, true);
      assert.equal(again.text, first.text);
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 1, events: 1 });
    });

    it('what is stored of the request is keyed: not its unkeyed SHA-256, which a copy of the database could test guesses against; a key stored with that digest still replays', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const first = await callProbe(t.publicUrl, { token, key });
      assert.equal(first.status, 201);
      const canonical = canonicalJson(['POST', '/v1/idempotency-probe/:bucket/effects', { bucket: 'main' }, {}, PROBE_BODY]);
      const unkeyed = createHash('sha256').update(canonical).digest('hex');
      const [record] = await records(accountId);
      assert.match(record!.fingerprint, /^[0-9a-f]{64}$/);
      assert.notEqual(record!.fingerprint, unkeyed);
      // A record kept from before fingerprints were keyed: the retry is still the same request.
      await db().updateTable('idempotency_keys').set({ fingerprint: unkeyed }).where('id', '=', record!.id).execute();
      const again = await callProbe(t.publicUrl, { token, key });
      assert.equal(again.status, 201);
      assert.equal(again.replayed, true);
      assert.equal(again.text, first.text);
      const changed = await callProbe(t.publicUrl, { token, key, body: { ...PROBE_BODY, amount: PROBE_BODY.amount + 1 } });
      assert.equal(changed.status, 409);
      assert.equal(changed.body.code, 'idempotency_key_reused');
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 1, events: 1 });
    });

    it('the same request spelled differently (members reordered, whitespace, 1250.0) is the same request → replay', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const first = await callProbe(t.publicUrl, { token, key });
      const rawBody = '{ "metadata" : {"batch":"7", "order":"A-1"},\n  "destination":"acct_dest_1", "currency":"EUR", "amount":1250.0 }';
      const again = await callProbe(t.publicUrl, { token, key, rawBody });
      assert.equal(again.status, 201);
      assert.equal(again.replayed, true);
      assert.equal(again.text, first.text);
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 1, events: 1 });
    });

    it('rule 3: keys are scoped to the credential: two clients (and two accounts) using one key perform two writes', async () => {
      const { accountId, token } = await credential('client-a');
      const other = await mintAccessToken(t, { accountId, clientId: 'client-b', scopes: [PROBE_SCOPE] });
      const elsewhere = await credential('client-a');
      const key = 'order-2024-0001';
      const a = await callProbe(t.publicUrl, { token, key });
      const b = await callProbe(t.publicUrl, { token: other, key });
      const c = await callProbe(t.publicUrl, { token: elsewhere.token, key });
      for (const response of [a, b, c]) {
        assert.equal(response.status, 201);
        assert.equal(response.replayed, false);
      }
      assert.notEqual(a.body.id, b.body.id);
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 2, events: 2 });
      assert.deepEqual(await probeCounts(db(), elsewhere.accountId), { effects: 1, events: 1 });
      assert.deepEqual((await records(accountId)).map((r) => r.client_id).sort(), ['client-a', 'client-b']);
      // And each credential replays its own response.
      assert.equal((await callProbe(t.publicUrl, { token: other, key })).text, b.text);
    });

    it('a business 4xx (422 insufficient_funds) is stored and replayed byte for byte; its effects rolled back and no event was emitted', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const body = { ...PROBE_BODY, amount: PROBE_BALANCE + 1 };
      const first = await callProbe(t.publicUrl, { token, key, body });
      assert.equal(first.status, 422);
      assert.match(first.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(first.body.code, 'insufficient_funds');
      assert.equal(first.replayed, false);
      const [record] = await records(accountId);
      assert.equal(record?.state, 'done');
      assert.equal(record?.response_status, 422);
      assert.equal(record?.response_body, first.text);

      const again = await callProbe(t.publicUrl, { token, key, body });
      assert.equal(again.status, 422);
      assert.equal(again.replayed, true);
      assert.equal(again.text, first.text);
      assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 0, events: 0 });
      // The refusal is the key's outcome: a changed request under it is still a reuse.
      assert.equal((await callProbe(t.publicUrl, { token, key })).body.code, 'idempotency_key_reused');
    });

    it('401, 403, 429 and schema failures are not stored: the key stays new and the next request with it performs the write', async () => {
      const { accountId, token } = await credential();
      const readOnly = await mintAccessToken(t, { accountId, clientId: 'client-a', scopes: ['payouts:read'] });
      const refusals: Array<{ call: { token: string; body?: unknown; headers?: Record<string, string> }; status: number; code: string }> = [
        { call: { token: 'gh_at_not-a-real-token' }, status: 401, code: 'invalid_token' },
        { call: { token: readOnly }, status: 403, code: 'insufficient_scope' },
        { call: { token, headers: { 'x-probe-throttle': '1' } }, status: 429, code: 'rate_limited' },
        { call: { token, body: { ...PROBE_BODY, amount: '1250' } }, status: 400, code: 'validation_failed' },
        { call: { token, headers: { 'x-probe-fail': 'rate-limited' } }, status: 429, code: 'rate_limited' },
      ];
      for (const refusal of refusals) {
        const key = randomUUID();
        const response = await callProbe(t.publicUrl, { key, ...refusal.call });
        assert.equal(response.status, refusal.status, refusal.code);
        assert.equal(response.body.code, refusal.code);
        assert.equal((await records(accountId)).length, 0, `${refusal.code} left a record`);
        // A different request under the same key is not a reuse: nothing was stored.
        const next = await callProbe(t.publicUrl, { token, key, body: { ...PROBE_BODY, destination: `after-${refusal.code}` } });
        assert.equal(next.status, 201, refusal.code);
        assert.equal(next.replayed, false);
        await db().deleteFrom('idempotency_keys').where('account_id', '=', accountId).execute();
      }
      assert.deepEqual(await probeCounts(db(), accountId), { effects: refusals.length, events: refusals.length });
    });

    it('an unexpected failure after the effects rolls them back and gives the key back; the retry performs the write once', async () => {
      const { accountId, token } = await credential();
      const key = randomUUID();
      const failed = await callProbe(t.publicUrl, { token, key, headers: { 'x-probe-fail': 'internal' } });
      assert.equal(failed.status, 500);
      assert.equal(failed.body.code, 'internal_error');
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 0, events: 0 });
      assert.equal((await records(accountId)).length, 0);
      const retry = await callProbe(t.publicUrl, { token, key });
      assert.equal(retry.status, 201);
      assert.equal(retry.replayed, false);
      assert.equal((await callProbe(t.publicUrl, { token, key })).text, retry.text);
      assert.deepEqual(await probeCounts(db(), accountId), { effects: 1, events: 1 });
    });

    it('OpenAPI: every POST under /v1 documents a required Idempotency-Key header, the replay header and the 400/409 answers', async () => {
      const doc = await json(await fetch(`${t.publicUrl}/openapi.json`));
      const operation = doc.paths['/v1/idempotency-probe/{bucket}/effects'].post;
      const header = operation.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
      assert.equal(header.required, true);
      assert.equal(header.schema.maxLength, 255);
      assert.match(header.description, /retry/);
      assert.equal(operation.responses['201'].headers['Idempotent-Replay'].schema.enum[0], 'true');
      assert.ok(operation.responses['409']);
      assert.ok(operation.responses['400']);
      // Documentation only: a missing key still gets the runner's own code, not a schema failure.
      const { token } = await credential();
      assert.equal((await callProbe(t.publicUrl, { token, key: null })).body.code, 'idempotency_key_missing');
    });
  });
}
