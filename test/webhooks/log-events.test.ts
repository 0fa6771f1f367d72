/**
 * What operators see of webhook delivery: a failed attempt, a parked delivery, an endpoint
 * disabled (410 Gone, or failing for too long), a recovery and a redelivery each leave one
 * line with a stable `event` name, its level and the ids involved, and never the endpoint's
 * secret, its URL (which may carry a credential) or what the receiver answered.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { eventLines } from '../helpers/logs.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { json } from '../helpers/http.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, deliveriesOf, dispatcher, raise, registerEndpoint, tenant, type Tenant } from './support.ts';

const URL_CREDENTIAL = 'url-credential-5e1f0c2a';
const RECEIVER_BODY = 'receiver-private-answer-77ab';

for (const target of databaseTargets()) {
  describe(`webhook log events (${target.kind})`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];
    before(async () => {
      t = await startTestApp(target, { env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,1,1', GATEHOUSE_WEBHOOK_TIMEOUT: '1' } });
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close().catch(() => {})));
      await t.close();
    });

    async function fresh(types = ['*']): Promise<{ who: Tenant; endpoint: { id: string; secret: string }; receiver: Receiver }> {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const who = await tenant(t);
      // A credential in the URL, as some receivers are set up: it must never reach the log.
      const endpoint = await registerEndpoint(who, `${receiver.url}?key=${URL_CREDENTIAL}`, types);
      receiver.secrets = [endpoint.secret];
      return { who, endpoint, receiver };
    }

    function assertNothingPrivate(secret: string): void {
      const all = t.logs.join('');
      assert.ok(!all.includes(secret), 'the endpoint secret is never logged');
      assert.ok(!all.includes(URL_CREDENTIAL), 'the receiver URL is never logged');
      assert.ok(!all.includes(RECEIVER_BODY), 'what the receiver answered is never logged');
    }

    async function queued(deliveryId: string) {
      return t.gatehouse.database.db.selectFrom('webhook_queue').selectAll().where('delivery_id', '=', deliveryId).executeTakeFirst();
    }

    it('a failed attempt that will be retried is webhook.delivery_failed (info) with its ids, status and retry time; the last one, past the schedule, is webhook.delivery_parked (warn, retries_exhausted)', async () => {
      const { who, endpoint, receiver } = await fresh(['invoice.settled']);
      receiver.answer = () => ({ status: 503, body: RECEIVER_BODY });
      const event = await raise(t, who.accountId);
      assert.equal(await dispatcher(t).runDue(), 1);

      const [delivery] = await deliveriesOf(t, event.id);
      const [first] = eventLines(t, 'webhook.delivery_failed').filter((l) => l.event_id === event.id);
      assert.ok(first, 'one line for the failed attempt');
      assert.equal(first.level, 'info');
      assert.deepEqual(
        {
          account_id: first.account_id,
          endpoint_id: first.endpoint_id,
          event_type: first.event_type,
          delivery_id: first.delivery_id,
          attempt_id: first.attempt_id,
          status: first.status,
          error: first.error,
          failures: first.failures,
          retry_at: first.retry_at,
        },
        {
          account_id: who.accountId,
          endpoint_id: endpoint.id,
          event_type: 'invoice.settled',
          delivery_id: delivery!.id,
          attempt_id: receiver.received[0]!.headers['delivery-id'],
          status: 503,
          error: null,
          failures: 1,
          retry_at: new Date((await queued(delivery!.id))!.next_attempt_at).toISOString(),
        },
      );

      for (let i = 0; i < 3; i++) {
        t.clock.advance(1200);
        assert.equal(await dispatcher(t).runDue(), 1);
      }
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'parked');
      assert.equal(await queued(delivery!.id), undefined);
      const failed = eventLines(t, 'webhook.delivery_failed').filter((l) => l.event_id === event.id);
      assert.deepEqual(failed.map((l) => l.failures), [1, 2, 3], 'one line per retried failure');
      const parked = eventLines(t, 'webhook.delivery_parked').filter((l) => l.event_id === event.id);
      assert.equal(parked.length, 1);
      assert.equal(parked[0].level, 'warn');
      assert.equal(parked[0].reason, 'retries_exhausted');
      assert.equal(parked[0].failures, 4);
      assert.equal(parked[0].delivery_id, delivery!.id);
      assert.equal(parked[0].attempt_id, receiver.received[3]!.headers['delivery-id']);
      assert.equal(parked[0].retry_at, undefined);
      assertNothingPrivate(endpoint.secret);
    });

    it('a connection that fails is logged with its error and no status', async () => {
      const { who, endpoint, receiver } = await fresh(['invoice.settled']);
      receiver.answer = () => 'reset';
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      const [line] = eventLines(t, 'webhook.delivery_failed').filter((l) => l.event_id === event.id);
      assert.ok(line);
      assert.equal(line.status, null);
      assert.equal(typeof line.error, 'string');
      assert.equal(line.error, (await t.gatehouse.database.db.selectFrom('webhook_attempts').select('error').where('event_id', '=', event.id).executeTakeFirstOrThrow()).error);
      assertNothingPrivate(endpoint.secret);
    });

    it('410 Gone is webhook.endpoint_disabled (warn, gone, with the deliveries it parked) and the delivery is webhook.delivery_parked (endpoint_disabled)', async () => {
      const { who, endpoint, receiver } = await fresh(['invoice.settled']);
      // A delivery waiting for its retry is parked with the endpoint too.
      receiver.answer = () => 500;
      const waiting = await raise(t, who.accountId, 'invoice.settled', 'inv_BBBBBBBBBBBBBBBBBBBB');
      await dispatcher(t).runDue();
      receiver.answer = () => ({ status: 410, body: RECEIVER_BODY });
      const gone = await raise(t, who.accountId);
      assert.equal(await dispatcher(t).runDue(), 1, 'only the new event is due');

      const got = await who.call('GET', `/v1/webhook_endpoints/${endpoint.id}`);
      assert.equal(got.body.status, 'disabled');
      assert.equal(got.body.disabled_reason, 'gone');
      assert.equal((await deliveriesOf(t, gone.id))[0]!.state, 'parked');
      assert.equal((await deliveriesOf(t, waiting.id))[0]!.state, 'parked');
      const disabled = eventLines(t, 'webhook.endpoint_disabled').filter((l) => l.endpoint_id === endpoint.id);
      assert.equal(disabled.length, 1);
      assert.equal(disabled[0].level, 'warn');
      assert.equal(disabled[0].account_id, who.accountId);
      assert.equal(disabled[0].reason, 'gone');
      assert.equal(disabled[0].status, 410);
      assert.equal(disabled[0].parked, 2);
      const parked = eventLines(t, 'webhook.delivery_parked').filter((l) => l.event_id === gone.id);
      assert.equal(parked.length, 1);
      assert.equal(parked[0].reason, 'endpoint_disabled');
      assert.equal(eventLines(t, 'webhook.delivery_failed').filter((l) => l.event_id === gone.id).length, 0, 'a parked delivery is not also "retried"');
      assertNothingPrivate(endpoint.secret);
    });

    it('an endpoint failing for too long is webhook.endpoint_disabled (failing) with the time its failures began', async () => {
      const { who, endpoint, receiver } = await fresh(['invoice.settled']);
      receiver.answer = () => 500;
      const began = t.clock.now();
      for (let day = 0; day < 6; day++) {
        await raise(t, who.accountId);
        await dispatcher(t).runDue();
        t.clock.advance(24 * 3600 * 1000);
      }
      const endpointRow = await t.gatehouse.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      assert.equal(endpointRow.enabled, 0);
      assert.equal(endpointRow.disabled_reason, 'failing');
      const disabled = eventLines(t, 'webhook.endpoint_disabled').filter((l) => l.endpoint_id === endpoint.id);
      assert.equal(disabled.length, 1);
      assert.equal(disabled[0].reason, 'failing');
      assert.equal(disabled[0].failing_since, new Date(began).toISOString());
      assert.equal(disabled[0].failing_since, new Date(endpointRow.failing_since!).toISOString());
      assert.ok(disabled[0].parked >= 1);
      assertNothingPrivate(endpoint.secret);
    });

    it('recover and redeliver are logged once each, with who asked and how many were requeued; a replay of the same request logs nothing', async () => {
      const { who, endpoint, receiver } = await fresh(['invoice.settled']);
      receiver.answer = () => 503;
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1200);
        await dispatcher(t).runDue();
      }
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'parked');

      const token = await mintAccessToken(t, { accountId: who.accountId, scopes: ['webhooks:manage'], clientId: 'ops-console' });
      const post = async (path: string, key: string, body?: unknown) => {
        const response = await fetch(`${t.publicUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: response.status, replay: response.headers.get('idempotent-replay'), body: await json(response) };
      };
      const since = new Date(event.createdAt - 1000).toISOString();
      const recoverKey = randomUUID();
      const recovered = await post(`/v1/webhook_endpoints/${endpoint.id}/recover`, recoverKey, { since });
      assert.equal(recovered.status, 202);
      assert.equal(recovered.body.requeued, 1);
      const replayed = await post(`/v1/webhook_endpoints/${endpoint.id}/recover`, recoverKey, { since });
      assert.equal(replayed.status, 202);
      assert.equal(replayed.replay, 'true');
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'pending');
      const recoveries = eventLines(t, 'webhook.recovery_requested').filter((l) => l.endpoint_id === endpoint.id);
      assert.equal(recoveries.length, 1, 'the replay performed nothing and logged nothing');
      assert.equal(recoveries[0].level, 'info');
      assert.equal(recoveries[0].account_id, who.accountId);
      assert.equal(recoveries[0].client_id, 'ops-console');
      assert.equal(recoveries[0].since, since);
      assert.equal(recoveries[0].requeued, 1);
      assert.ok(recoveries[0].reqId, 'the line carries the request id');

      receiver.answer = () => 204;
      await dispatcher(t).runDue();
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'acknowledged');
      const redeliverKey = randomUUID();
      assert.equal((await post(`/v1/events/${event.id}/redeliver`, redeliverKey)).status, 202);
      assert.equal((await post(`/v1/events/${event.id}/redeliver`, redeliverKey)).replay, 'true');
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'pending');
      const redeliveries = eventLines(t, 'webhook.redelivery_requested').filter((l) => l.event_id === event.id);
      assert.equal(redeliveries.length, 1);
      assert.equal(redeliveries[0].level, 'info');
      assert.equal(redeliveries[0].account_id, who.accountId);
      assert.equal(redeliveries[0].client_id, 'ops-console');
      assert.equal(redeliveries[0].requeued, 1);
      assert.ok(!t.logs.join('').includes(token), 'the bearer token is never logged');
      assertNothingPrivate(endpoint.secret);
    });

    it('a refused recovery (endpoint disabled) logs no recovery', async () => {
      const { who, endpoint } = await fresh(['invoice.settled']);
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/disable`)).status, 200);
      const refused = await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/recover`, { since: new Date(0).toISOString() });
      assert.equal(refused.status, 409);
      assert.equal(eventLines(t, 'webhook.recovery_requested').filter((l) => l.endpoint_id === endpoint.id).length, 0);
    });
  });
}
