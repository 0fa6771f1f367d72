/**
 * POST /v1/events/{id}/redeliver sends an event again where it went: to every endpoint that had a
 * delivery of it and is still enabled, never to one registered after it or disabled when it was
 * raised. With `endpoint_id` it goes to that one endpoint only, which may be one that had no
 * delivery of it, provided it is the account's, enabled and subscribed to the event's type now.
 * The audit record names the endpoint asked for; Idempotency-Key binds the body; an `audit.*`
 * event exists only for a token that holds audit:read.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall } from '../helpers/http.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, deliveriesOf, dispatcher, raise, registerEndpoint, tenant, type Tenant } from './support.ts';

for (const target of databaseTargets()) {
  describe(`redelivery of one event (${target.kind})`, () => {
    let t: TestApp;
    let receiver: Receiver;
    before(async () => {
      t = await startTestApp(target, { env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1' } });
      receiver = await startReceiver();
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });

    const db = () => t.gatehouse.database.db;

    /** Each endpoint's delivery of the event: its state and attempts, by endpoint. */
    async function stored(eventId: string) {
      const rows = await deliveriesOf(t, eventId);
      return Object.fromEntries(rows.map((d) => [d.endpoint_id, { state: d.state, attempt_count: d.attempt_count }]));
    }

    /** How many requests carrying `eventId` the receiver has had since `start`. */
    const sentSince = (start: number, eventId: string) => receiver.received.slice(start).filter((r) => r.headers['event-id'] === eventId).length;

    /** The `event.redelivered` records of the event, with their changes. */
    async function redeliveryRecords(eventId: string) {
      const rows = await db().selectFrom('audit_events').select(['action', 'target_type', 'changes']).where('target_id', '=', eventId).execute();
      return rows.map((r) => ({ action: r.action, target_type: r.target_type, changes: r.changes === null ? null : (JSON.parse(r.changes) as unknown) }));
    }

    /**
     * An event sent to `delivered` when raised; `later` registered after it; `wasDisabled` disabled
     * when it was raised and enabled since. All three take every business event.
     */
    async function eventWithThreeEndpoints(who: Tenant) {
      const delivered = await registerEndpoint(who, receiver.url);
      const wasDisabled = await registerEndpoint(who, receiver.url);
      receiver.secrets = [delivered.secret];
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${wasDisabled.id}/disable`)).status, 200);
      const event = await raise(t, who.accountId, 'invoice.settled', `inv_${randomUUID().slice(0, 8)}`);
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${wasDisabled.id}/enable`)).status, 200);
      const later = await registerEndpoint(who, receiver.url);
      await dispatcher(t).runDue();
      assert.deepEqual(await stored(event.id), { [delivered.id]: { state: 'acknowledged', attempt_count: 1 } });
      return { event, delivered: delivered.id, wasDisabled: wasDisabled.id, later: later.id };
    }

    it('without a body: only to the endpoints the event was delivered to, never to one registered later or disabled when it was raised', async () => {
      const who = await tenant(t);
      const { event, delivered } = await eventWithThreeEndpoints(who);
      const start = receiver.received.length;

      const r = await who.call('POST', `/v1/events/${event.id}/redeliver`);
      assert.equal(r.status, 202, JSON.stringify(r.body));
      assert.deepEqual(r.body, { object: 'redelivery', event_id: event.id, requeued: 1 });
      assert.equal(await dispatcher(t).runDue(), 1);
      assert.equal(sentSince(start, event.id), 1);
      assert.deepEqual(await stored(event.id), { [delivered]: { state: 'acknowledged', attempt_count: 2 } }, 'no delivery written for the other two');
      assert.deepEqual(await redeliveryRecords(event.id), [{ action: 'event.redelivered', target_type: 'event', changes: { requeued: { after: 1 } } }]);
    });

    it('without a body: an endpoint that had a delivery and is disabled now is left out; none left → 202 requeued 0', async () => {
      const who = await tenant(t);
      const { event, delivered } = await eventWithThreeEndpoints(who);
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${delivered}/disable`)).status, 200);
      const r = await who.call('POST', `/v1/events/${event.id}/redeliver`);
      assert.equal(r.status, 202);
      assert.deepEqual(r.body, { object: 'redelivery', event_id: event.id, requeued: 0 });
      assert.equal(await dispatcher(t).runDue(), 0);
      assert.deepEqual(await stored(event.id), { [delivered]: { state: 'acknowledged', attempt_count: 1 } });
      assert.deepEqual(await db().selectFrom('webhook_queue').select('delivery_id').where('event_id', '=', event.id).execute(), []);
    });

    it('without a body: an endpoint that had a delivery and no longer subscribes to the event type is left out', async () => {
      const who = await tenant(t);
      const { event, delivered } = await eventWithThreeEndpoints(who);
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${delivered}`, { event_types: ['payout.paid'] })).status, 200);
      const r = await who.call('POST', `/v1/events/${event.id}/redeliver`);
      assert.equal(r.status, 202);
      assert.deepEqual(r.body, { object: 'redelivery', event_id: event.id, requeued: 0 });
      assert.equal(await dispatcher(t).runDue(), 0);
      assert.deepEqual(await stored(event.id), { [delivered]: { state: 'acknowledged', attempt_count: 1 } });
    });

    it('with endpoint_id: to that endpoint only, even one registered later or disabled when the event was raised; once each, whatever the repeats', async () => {
      const who = await tenant(t);
      const { event, delivered, wasDisabled, later } = await eventWithThreeEndpoints(who);
      const [raised] = await db().selectFrom('events').select('created_at').where('id', '=', event.id).execute();

      for (const endpointId of [later, wasDisabled, later]) {
        const start = receiver.received.length;
        const r = await who.call('POST', `/v1/events/${event.id}/redeliver`, { endpoint_id: endpointId });
        assert.equal(r.status, 202, JSON.stringify(r.body));
        assert.deepEqual(r.body, { object: 'redelivery', event_id: event.id, endpoint_id: endpointId, requeued: 1 });
        assert.equal(await dispatcher(t).runDue(), 1);
        assert.equal(sentSince(start, event.id), 1);
      }
      assert.deepEqual(await stored(event.id), {
        [delivered]: { state: 'acknowledged', attempt_count: 1 },
        [wasDisabled]: { state: 'acknowledged', attempt_count: 1 },
        [later]: { state: 'acknowledged', attempt_count: 2 },
      });
      // Dated as the event, as its other deliveries are: a recovery since a time finds it with them.
      const rows = await deliveriesOf(t, event.id);
      assert.ok(rows.every((d) => Number(d.created_at) === Number(raised!.created_at)));
      const attempts = await db().selectFrom('webhook_attempts').select('endpoint_id').where('event_id', '=', event.id).execute();
      assert.deepEqual(attempts.map((a) => a.endpoint_id).sort(), [delivered, wasDisabled, later, later].sort());
      const records = await redeliveryRecords(event.id);
      assert.deepEqual(
        records.map((r) => r.changes),
        [later, wasDisabled, later].map((endpointId) => ({ requeued: { after: 1 }, endpoint_id: { after: endpointId } })),
      );
    });

    it('with endpoint_id: unknown or another account’s → 404, disabled → 409, not subscribed → 409; nothing written', async () => {
      const who = await tenant(t);
      const other = await tenant(t);
      const { event, delivered } = await eventWithThreeEndpoints(who);
      const foreign = await registerEndpoint(other, receiver.url);
      const payoutsOnly = await registerEndpoint(who, receiver.url, ['payout.paid']);
      const disabled = await registerEndpoint(who, receiver.url, ['invoice.settled']);
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${disabled.id}/disable`)).status, 200);
      const before = await stored(event.id);

      for (const [endpointId, status, code] of [
        ['we_00000000000000000000', 404, 'webhook_endpoint_not_found'],
        [foreign.id, 404, 'webhook_endpoint_not_found'],
        [disabled.id, 409, 'webhook_endpoint_disabled'],
        [payoutsOnly.id, 409, 'webhook_endpoint_not_subscribed'],
      ] as const) {
        const r = await who.call('POST', `/v1/events/${event.id}/redeliver`, { endpoint_id: endpointId });
        assert.equal(r.status, status, `${code}: ${JSON.stringify(r.body)}`);
        assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(r.body.code, code);
        assert.equal(r.body.status, status);
        assert.equal(typeof r.body.title, 'string');
      }
      assert.deepEqual(await stored(event.id), before);
      assert.deepEqual(await stored(event.id), { [delivered]: { state: 'acknowledged', attempt_count: 1 } });
      assert.deepEqual(await db().selectFrom('webhook_queue').select('delivery_id').where('event_id', '=', event.id).execute(), []);
      assert.deepEqual(await redeliveryRecords(event.id), []);
      assert.equal(await dispatcher(t).runDue(), 0);
    });

    it('a body with anything but endpoint_id → 400 validation_failed; nothing requeued', async () => {
      const who = await tenant(t);
      const { event, delivered } = await eventWithThreeEndpoints(who);
      for (const body of [{ endpoint: delivered }, { endpoint_id: delivered, all: true }, { endpoint_id: '' }, { endpoint_id: 7 }, [], 'all']) {
        const r = await who.call('POST', `/v1/events/${event.id}/redeliver`, body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.body.code, 'validation_failed');
      }
      assert.equal(await dispatcher(t).runDue(), 0);
      assert.deepEqual(await stored(event.id), { [delivered]: { state: 'acknowledged', attempt_count: 1 } });
      assert.deepEqual(await redeliveryRecords(event.id), []);
    });

    it('Idempotency-Key: the same request replays its answer and sends nothing more; the key with another endpoint_id → 409 idempotency_key_reused', async () => {
      const who = await tenant(t);
      const { event, later, wasDisabled } = await eventWithThreeEndpoints(who);
      const key = randomUUID();
      const post = async (body: unknown) => {
        const response = await fetch(`${t.publicUrl}/v1/events/${event.id}/redeliver`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.token}`, 'idempotency-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, replayed: response.headers.get('idempotent-replay'), body: (await response.json()) as Record<string, unknown> };
      };
      const first = await post({ endpoint_id: later });
      assert.equal(first.status, 202, JSON.stringify(first.body));
      const again = await post({ endpoint_id: later });
      assert.equal(again.status, 202);
      assert.equal(again.replayed, 'true');
      assert.deepEqual(again.body, first.body);
      const reused = await post({ endpoint_id: wasDisabled });
      assert.equal(reused.status, 409);
      assert.equal(reused.body.code, 'idempotency_key_reused');
      assert.equal(await dispatcher(t).runDue(), 1, 'one redelivery, sent once');
      const endpoints = (await deliveriesOf(t, event.id)).map((d) => d.endpoint_id);
      assert.ok(endpoints.includes(later) && !endpoints.includes(wasDisabled));
      assert.equal((await redeliveryRecords(event.id)).length, 1);
    });

    it('an audit.* event does not exist for a token without audit:read (404, nothing requeued); with it, it is sent again', async () => {
      const auditor = await tenant(t, ['webhooks:manage', 'events:read', 'audit:read']);
      const siem = await registerEndpoint(auditor, receiver.url, ['audit.*']);
      const event = await raise(t, auditor.accountId, 'audit.client.updated', 'aud_00000000000000000001');
      await dispatcher(t).runDue();
      assert.deepEqual(await stored(event.id), { [siem.id]: { state: 'acknowledged', attempt_count: 1 } });

      // The same account, a token without audit:read.
      const manager = await mintAccessToken(t, { accountId: auditor.accountId, scopes: ['webhooks:manage', 'events:read'] });
      for (const body of [undefined, { endpoint_id: siem.id }]) {
        const unseen = await bearerCall(t.publicUrl, manager, 'POST', `/v1/events/${event.id}/redeliver`, body);
        assert.equal(unseen.status, 404, JSON.stringify(body));
        assert.equal(unseen.body.code, 'event_not_found');
      }
      assert.deepEqual(await stored(event.id), { [siem.id]: { state: 'acknowledged', attempt_count: 1 } });
      assert.deepEqual(await redeliveryRecords(event.id), []);

      const seen = await auditor.call('POST', `/v1/events/${event.id}/redeliver`, { endpoint_id: siem.id });
      assert.equal(seen.status, 202, JSON.stringify(seen.body));
      assert.deepEqual(seen.body, { object: 'redelivery', event_id: event.id, endpoint_id: siem.id, requeued: 1 });
      await dispatcher(t).runDue();
      assert.deepEqual(await stored(event.id), { [siem.id]: { state: 'acknowledged', attempt_count: 2 } });
    });
  });
}
