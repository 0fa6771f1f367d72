/**
 * The capability metrics on /metrics, read after real actions through the HTTP API: tokens
 * by grant type, idempotent replays and in-use refusals, payout transitions, webhook attempts
 * by outcome and the delivery queue (pending, due, parked), rate-limit refusals and the store
 * the limits are counted in.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { createIdempotencyStore } from '../../src/idempotency/store.ts';
import { canonicalJson } from '../../src/idempotency/fingerprint.ts';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { testClientOf } from '../helpers/fixtures.ts';
import { basic, postForm, registerClient } from '../oauth/helpers.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { ALLOW_LOOPBACK, dispatcher, registerEndpoint, tenant } from '../webhooks/support.ts';

async function scrape(t: TestApp): Promise<string> {
  const response = await fetch(`${t.adminUrl}/metrics`);
  assert.equal(response.status, 200);
  return response.text();
}

/** The value of one sample, by its exact name and label set as rendered; undefined if absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

for (const target of databaseTargets()) {
  describe(`operations: capability metrics (${target.kind})`, () => {
    let t: TestApp;
    let receiver: Receiver;
    before(async () => {
      receiver = await startReceiver();
      t = await startTestApp(target, {
        env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '60', GATEHOUSE_RATE_LIMIT_API: '6/60', GATEHOUSE_PAYOUT_DELAY: '0' },
      });
    });
    after(async () => {
      await t.close();
      await receiver.close();
    });

    it('tokens issued are counted by grant type, once per token the endpoint answered with', async () => {
      const { accountId } = await newTenant(t);
      const client = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      for (let i = 0; i < 2; i++) {
        const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(client.client_id, client.client_secret) });
        assert.equal(issued.status, 200);
      }
      const refused = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(client.client_id, 'wrong') });
      assert.equal(refused.status, 401);
      assert.equal(sample(await scrape(t), 'gatehouse_oauth_tokens_issued_total{grant_type="client_credentials"}'), 2);
    });

    it('a retried payout counts one replay and one created transition; the processor counts pending → paid', async () => {
      const { token } = await newTenant(t);
      await fund(t, token, 10_000);
      const key = randomUUID();
      const post = () =>
        fetch(`${t.publicUrl}/v1/payouts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ amount: 500, currency: 'EUR', destination: 'acct_metrics' }),
        });
      const first = await post();
      assert.equal(first.status, 201);
      const again = await post();
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replay'), 'true');
      const before = await scrape(t);
      assert.equal(sample(before, 'gatehouse_idempotency_requests_total{outcome="replayed"}'), 1);
      assert.equal(sample(before, 'gatehouse_payouts_transitions_total{from="none",to="pending"}'), 1);
      // Processed ones are exported at 0 before the first: an alert on their rate can see none.
      assert.equal(sample(before, 'gatehouse_payouts_transitions_total{from="pending",to="paid"}'), 0);
      assert.equal(sample(before, 'gatehouse_payouts_transitions_total{from="pending",to="failed"}'), 0);

      const done = await t.gatehouse.services.payoutProcessor.processDuePayouts();
      assert.deepEqual(done, { paid: 1, failed: 0 });
      assert.equal(sample(await scrape(t), 'gatehouse_payouts_transitions_total{from="pending",to="paid"}'), 1);
    });

    it('the delivery queue is measured at scrape time: pending and due, then attempts by outcome, then parked', async () => {
      const who = await tenant(t);
      await registerEndpoint(who, receiver.url, ['invoice.settled']);
      receiver.answer = () => 500;
      const payer = await t.gatehouse.services.accessTokens.issue({ accountId: who.accountId, clientId: testClientOf(who.accountId), userId: null, scopes: ['invoices:write'], ttlSeconds: 3600 });
      for (let i = 0; i < 2; i++) await fund(t, payer.token, 100);
      const queued = await scrape(t);
      assert.equal(sample(queued, 'gatehouse_webhook_deliveries{state="pending"}'), 2);
      assert.equal(sample(queued, 'gatehouse_webhook_deliveries{state="due"}'), 2);
      assert.equal(sample(queued, 'gatehouse_webhook_deliveries{state="parked"}'), 0);

      // First attempts fail: both wait for the retry a minute away, so pending but not due.
      assert.equal(await dispatcher(t).runDue(), 2);
      const waiting = await scrape(t);
      assert.equal(sample(waiting, 'gatehouse_webhook_attempts_total{outcome="failed"}'), 2);
      assert.equal(sample(waiting, 'gatehouse_webhook_deliveries{state="pending"}'), 2);
      assert.equal(sample(waiting, 'gatehouse_webhook_deliveries{state="due"}'), 0);

      // The schedule has one retry: one more failure parks; a success acknowledges.
      t.clock.advance(67_000); // past the 60 s retry and its jitter (±10%)
      let calls = 0;
      receiver.answer = () => (++calls === 1 ? 500 : 204);
      assert.equal(await dispatcher(t).runDue(), 2);
      const settled = await scrape(t);
      assert.equal(sample(settled, 'gatehouse_webhook_attempts_total{outcome="failed"}'), 3);
      assert.equal(sample(settled, 'gatehouse_webhook_attempts_total{outcome="succeeded"}'), 1);
      assert.equal(sample(settled, 'gatehouse_webhook_deliveries{state="pending"}'), 0);
      assert.equal(sample(settled, 'gatehouse_webhook_deliveries{state="parked"}'), 1);
    });

    it('rate-limit refusals are counted by bucket; without Redis the limits are counted locally', async () => {
      const { token } = await newTenant(t);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await api(t, token, 'GET', '/v1/invoices')).status);
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
      const text = await scrape(t);
      assert.ok((sample(text, 'gatehouse_rate_limit_rejections_total{bucket="api"}') ?? 0) >= 2);
      assert.equal(sample(text, 'gatehouse_rate_limit_store{store="local"}'), 1);
      assert.equal(sample(text, 'gatehouse_rate_limit_store{store="redis"}'), 0);
    });

    it('an Idempotency-Key still in use is refused 409 and counted', async () => {
      const { token, accountId } = await newTenant(t);
      await fund(t, token, 1000);
      const key = randomUUID();
      const body = { amount: 5, currency: 'EUR', destination: 'acct_x' };
      // The claim a live owner holds while it runs the effects (another node, mid-request).
      const store = createIdempotencyStore({ db: t.gatehouse.database.db, dialect: t.gatehouse.database.dialect });
      const fingerprint = sha256Hex(canonicalJson(['POST', '/v1/payouts', {}, {}, body]));
      const { claim: held } = await store.claimOrRead({ accountId, clientId: testClientOf(accountId), key }, { fingerprint, now: t.clock.now(), leaseMs: 60_000, retentionMs: 3_600_000 });
      assert.ok(held);
      const response = await fetch(`${t.publicUrl}/v1/payouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 409);
      assert.equal(((await response.json()) as { code: string }).code, 'idempotency_key_in_use');
      assert.equal(sample(await scrape(t), 'gatehouse_idempotency_requests_total{outcome="in_use"}'), 1);
    });
  });
}
