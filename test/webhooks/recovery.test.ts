import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { claimDue } from '../../src/webhooks/queue.ts';
import { recordOutcomes } from '../../src/webhooks/outcomes.ts';
import { newTimeOrderedId } from '../../src/platform/ids.ts';
import { ALLOW_LOOPBACK, deliveriesOf, dispatcher, raise, registerEndpoint, tenant, type Tenant } from './support.ts';

for (const target of databaseTargets()) {
  describe(`webhook recovery API (${target.kind})`, () => {
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

    it('GET /v1/events: newest first, every event exactly once across pages; the read ends on next_cursor null', async () => {
      const who = await tenant(t);
      const ids: string[] = [];
      for (let i = 0; i < 25; i++) {
        t.clock.advance(i % 3 === 0 && i < 24 ? 0 : 1); // equal timestamps too: the keyset breaks ties by id
        ids.push((await raise(t, who.accountId, i % 2 ? 'payout.paid' : 'invoice.settled', `obj_${i}`)).id);
      }
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page = await who.call('GET', `/v1/events?limit=10${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        assert.equal(page.status, 200);
        seen.push(...page.body.data.map((e: { id: string }) => e.id));
        after = page.body.next_cursor;
        pages++;
      } while (after);
      assert.equal(pages, 3);
      assert.deepEqual([...seen].sort(), [...ids].sort());
      const newest = await who.call('GET', '/v1/events?limit=1');
      assert.equal(newest.body.data[0].id, ids[24]);
      assert.deepEqual(newest.body.data[0].data, {
        event: 'invoice.settled',
        object: 'invoice',
        id: 'obj_24',
        state: 'settled',
        created_at: newest.body.data[0].created_at,
        data: { id: 'obj_24', object: 'invoice', state: 'settled' },
      });
      assert.equal(newest.body.data[0].delivery_state, 'none');
      const paid = await who.call('GET', '/v1/events?type=payout.paid&limit=100');
      assert.equal(paid.body.data.length, 12);
      assert.ok(paid.body.data.every((e: { type: string }) => e.type === 'payout.paid'));
    });

    it('cursors are sealed: tampered → cursor_malformed, another account’s → cursor_foreign, another filter → cursor_mismatch; limit out of range → 400', async () => {
      const who = await tenant(t);
      for (let i = 0; i < 3; i++) await raise(t, who.accountId);
      const first = await who.call('GET', '/v1/events?limit=1');
      const cursor: string = first.body.next_cursor;
      assert.ok(cursor);
      assert.ok(!cursor.includes(first.body.data[0].id) && !Buffer.from(cursor, 'base64url').toString('latin1').includes('evt_'));
      const flipped = cursor.slice(0, 20) + (cursor[20] === 'A' ? 'B' : 'A') + cursor.slice(21);
      assert.equal((await who.call('GET', `/v1/events?limit=1&after=${flipped}`)).body.code, 'cursor_malformed');
      const other = await tenant(t);
      const foreign = await other.call('GET', `/v1/events?limit=1&after=${cursor}`);
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, 'cursor_foreign');
      assert.equal((await who.call('GET', `/v1/events?limit=1&type=payout.paid&after=${cursor}`)).body.code, 'cursor_mismatch');
      for (const limit of [0, 101]) {
        const r = await who.call('GET', `/v1/events?limit=${limit}`);
        assert.equal(r.status, 400);
        assert.equal(r.body.code, 'limit_out_of_range');
      }
    });

    it('another account’s event is 404, exactly like a missing one', async () => {
      const who = await tenant(t);
      const other = await tenant(t);
      const event = await raise(t, who.accountId);
      for (const [method, path] of [
        ['GET', `/v1/events/${event.id}`],
        ['POST', `/v1/events/${event.id}/redeliver`],
        ['GET', '/v1/events/evt_00000000000000000000'],
      ] as const) {
        const r = await other.call(method, path);
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 'event_not_found');
      }
      const listed = await other.call('GET', '/v1/events');
      assert.deepEqual(listed.body.data, []);
    });

    it('redeliver: an acknowledged event is sent again with the same Event-Id and a new Delivery-Id', async () => {
      const who = await tenant(t);
      const { secret } = await registerEndpoint(who, receiver.url, ['invoice.settled']);
      receiver.secrets = [secret];
      const start = receiver.received.length;
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      const r = await who.call('POST', `/v1/events/${event.id}/redeliver`);
      assert.equal(r.status, 202);
      assert.deepEqual(r.body, { object: 'redelivery', event_id: event.id, requeued: 1 });
      await dispatcher(t).runDue();
      const mine = receiver.received.slice(start);
      assert.equal(mine.length, 2);
      assert.equal(mine[0]!.headers['event-id'], mine[1]!.headers['event-id']);
      assert.notEqual(mine[0]!.headers['delivery-id'], mine[1]!.headers['delivery-id']);
      assert.ok(mine.every((m) => m.octokitValid && m.standardValid));
    });

    it('redeliver takes endpoint_id alone, enable and disable no members: anything else is 400 validation_failed and nothing is requeued or changed', async () => {
      const who = await tenant(t);
      const { id: endpointId, secret } = await registerEndpoint(who, receiver.url, ['invoice.settled']);
      receiver.secrets = [secret];
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      const deliveries = async () => (await deliveriesOf(t, event.id)).length;
      const before = await deliveries();
      for (const body of [{ endpoint: endpointId }, { endpoint_id: endpointId, reason: 'lost' }, [], 'all']) {
        const refused = await who.call('POST', `/v1/events/${event.id}/redeliver`, body);
        assert.equal(refused.status, 400, JSON.stringify(body));
        assert.equal(refused.body.code, 'validation_failed');
      }
      assert.equal((await dispatcher(t).runDue(), await deliveries()), before, 'nothing requeued');
      const disabled = await who.call('POST', `/v1/webhook_endpoints/${endpointId}/disable`, { reason: 'maintenance' });
      assert.equal(disabled.status, 400);
      assert.equal((await who.call('GET', `/v1/webhook_endpoints/${endpointId}`)).body.status, 'enabled');
      assert.equal((await who.call('POST', `/v1/events/${event.id}/redeliver`, {})).status, 202, 'an empty object is no member');
      assert.equal(await dispatcher(t).runDue(), 1, 'the redelivery is sent, leaving nothing queued');
    });

    it('redeliver: a delivery waiting for its retry is due at once, in a new retry cycle, and stays one queued delivery', async () => {
      const who = await tenant(t);
      const { secret } = await registerEndpoint(who, receiver.url, ['payout.paid']);
      receiver.secrets = [secret];
      receiver.answer = () => 500;
      const event = await raise(t, who.accountId, 'payout.paid', 'po_waiting');
      await dispatcher(t).runDue();
      const [delivery] = await deliveriesOf(t, event.id);
      const queued = () => t.gatehouse.database.db.selectFrom('webhook_queue').selectAll().where('delivery_id', '=', delivery!.id).execute();
      const [waiting] = await queued();
      assert.equal(waiting!.cycle_failures, 1);
      assert.ok(Number(waiting!.next_attempt_at) > t.clock.now(), 'the retry is scheduled, not due');

      receiver.answer = () => 204;
      const r = await who.call('POST', `/v1/events/${event.id}/redeliver`);
      assert.equal(r.status, 202);
      assert.deepEqual(r.body, { object: 'redelivery', event_id: event.id, requeued: 1 });
      const requeued = await queued();
      assert.deepEqual(
        requeued.map((q) => ({ ...q, next_attempt_at: Number(q.next_attempt_at) })),
        [{ delivery_id: delivery!.id, account_id: who.accountId, event_id: event.id, endpoint_id: delivery!.endpoint_id, cycle_failures: 0, next_attempt_at: t.clock.now(), lease_owner: null, lease_until: null }],
      );

      const start = receiver.received.length;
      assert.equal(await dispatcher(t).runDue(), 1);
      assert.equal(receiver.received.slice(start).filter((m) => m.headers['event-id'] === event.id).length, 1);
      assert.deepEqual(await queued(), []);
      const [done] = await deliveriesOf(t, event.id);
      assert.equal(done!.state, 'acknowledged');
      assert.equal(done!.attempt_count, 2);
    });

    it('redeliver while an attempt is in flight and answered 2xx: the attempt counts, the delivery stays pending and queued until it is sent again', async () => {
      const who = await tenant(t);
      const endpoint = await registerEndpoint(who, receiver.url, ['invoice.settled']);
      receiver.secrets = [endpoint.secret];
      const event = await raise(t, who.accountId, 'invoice.settled', 'inv_in_flight');
      const start = receiver.received.length;
      const seen = holdAnswers('inv_in_flight', () => who.call('POST', `/v1/events/${event.id}/redeliver`), () => observe(who, endpoint.id, event.id));

      // The first attempt, then the one the redelivery asked for, in one run.
      assert.equal(await dispatcher(t).runDue(), 2);
      const requested = await seen.meanwhile;
      assert.equal(requested!.status, 202);
      assert.deepEqual(requested!.body, { object: 'redelivery', event_id: event.id, requeued: 1 });
      assert.deepEqual(await seen.resent, stillToSend());
      assert.equal(receiver.received.slice(start).filter((m) => m.headers['event-id'] === event.id).length, 2);
      await assertAcknowledgedTwice(who, event.id);
    });

    it('recover while an attempt is in flight and answered 2xx (the endpoint disabled and enabled meanwhile): the delivery stays pending and queued until it is sent again', async () => {
      const who = await tenant(t);
      const endpoint = await registerEndpoint(who, receiver.url, ['payout.paid']);
      receiver.secrets = [endpoint.secret];
      const since = t.clock.now();
      const event = await raise(t, who.accountId, 'payout.paid', 'po_in_flight');
      const recover = async () => {
        assert.equal((await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/disable`)).status, 200);
        assert.equal((await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/enable`)).status, 200);
        return who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/recover`, { since: new Date(since).toISOString() });
      };
      const seen = holdAnswers('po_in_flight', recover, () => observe(who, endpoint.id, event.id));

      assert.equal(await dispatcher(t).runDue(), 2);
      const recovered = await seen.meanwhile;
      assert.equal(recovered!.status, 202);
      assert.equal(recovered!.body.requeued, 1);
      assert.deepEqual(await seen.resent, stillToSend());
      await assertAcknowledgedTwice(who, event.id);
    });

    it('redeliver while an attempt is in flight, claimed again by another worker before the 2xx is recorded: the new attempt decides, and its failure is retried', async () => {
      const who = await tenant(t);
      const endpoint = await registerEndpoint(who, receiver.url, ['invoice.settled']);
      receiver.secrets = [endpoint.secret];
      const event = await raise(t, who.accountId, 'invoice.settled', 'inv_claimed_again');
      const db = t.gatehouse.database.db;
      const [delivery] = await deliveriesOf(t, event.id);
      const claimAgain = async () => {
        const requested = await who.call('POST', `/v1/events/${event.id}/redeliver`);
        assert.equal(requested.status, 202);
        const claimed = await claimDue(db, { claim: 'wkr_other.1', now: t.clock.now(), leaseMs: 60_000, max: 100, room: { of: new Map(), otherwise: 100 }, skipEndpoints: [] });
        return claimed.find((c) => c.id === delivery!.id);
      };
      const seen = holdAnswers('inv_claimed_again', claimAgain, () => observe(who, endpoint.id, event.id));

      // The first attempt is acknowledged; the delivery is another worker's now, so this one sends nothing more.
      assert.equal(await dispatcher(t).runDue(), 1);
      const other = await seen.meanwhile;
      assert.ok(other, 'the other worker claimed the requeued delivery');
      const queued = () => db.selectFrom('webhook_queue').select(['lease_owner', 'cycle_failures']).where('delivery_id', '=', delivery!.id).execute();
      assert.deepEqual(await queued(), [{ lease_owner: 'wkr_other.1', cycle_failures: 0 }]);
      const shown = await observe(who, endpoint.id, event.id);
      assert.deepEqual({ ...shown, queued: [] }, { ...stillToSend(), queued: [] });

      // The other worker's attempt fails: the delivery is retried, as a requeued one is.
      const failed = { ok: false, status: 500, retryAfter: undefined, excerpt: null, error: null, latencyMs: 1 };
      const policy = { scheduleSeconds: [1], disableAfterMs: 86_400_000, now: () => t.clock.now() };
      const notices = await recordOutcomes(db, [{ delivery: other!, attemptId: newTimeOrderedId('dlv', t.clock.now()), attemptedAt: t.clock.now(), result: failed }], policy);
      assert.deepEqual(notices.map((n) => n.kind), ['retrying']);
      assert.deepEqual(await queued(), [{ lease_owner: null, cycle_failures: 1 }]);
      const [retrying] = await deliveriesOf(t, event.id);
      assert.deepEqual([retrying!.state, retrying!.attempt_count], ['pending', 2]);
      assert.equal((await who.call('GET', `/v1/events/${event.id}`)).body.delivery_state, 'pending');

      t.clock.advance(2_000);
      assert.equal(await dispatcher(t).runDue(), 1);
      const [done] = await deliveriesOf(t, event.id);
      assert.deepEqual([done!.state, done!.attempt_count], ['acknowledged', 3]);
      assert.deepEqual(await queued(), []);
    });

    /**
     * The receiver holds its first 2xx for `objectId` until `meanwhile` has been answered, and its
     * second (the attempt that was asked for) until `resent` has read what is shown then.
     */
    function holdAnswers<M, R>(objectId: string, meanwhile: () => Promise<M>, resent: () => Promise<R>) {
      const held: { meanwhile?: Promise<M>; resent?: Promise<R> } = {};
      receiver.answer = (r) => {
        if (r.body.id !== objectId) return 204;
        if (!held.meanwhile) return { status: 204, after: (held.meanwhile = meanwhile()) };
        if (!held.resent) return { status: 204, after: (held.resent = resent()) };
        return 204;
      };
      return held;
    }

    /** What the delivery and its event look like, in the store and on the API. */
    async function observe(who: Tenant, endpointId: string, eventId: string) {
      const [delivery] = await deliveriesOf(t, eventId);
      const queued = await t.gatehouse.database.db.selectFrom('webhook_queue').select(['cycle_failures']).where('delivery_id', '=', delivery!.id).execute();
      const listed = async (state: string) =>
        (await who.call('GET', `/v1/events?delivery_state=${state}&limit=100`)).body.data.filter((e: { id: string }) => e.id === eventId).length;
      const log = await who.call('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?event_id=${eventId}`);
      return {
        stored: { state: delivery!.state, attempt_count: delivery!.attempt_count, parked_at: delivery!.parked_at },
        queued,
        shown: (await who.call('GET', `/v1/events/${eventId}`)).body.delivery_state,
        listed: { pending: await listed('pending'), acknowledged: await listed('acknowledged') },
        log: log.body.data.map((a: { outcome: string; response_status: number }) => [a.outcome, a.response_status]),
      };
    }

    /** The first attempt answered and counted; the delivery queued and pending wherever it is shown. */
    function stillToSend() {
      return {
        stored: { state: 'pending', attempt_count: 1, parked_at: null },
        queued: [{ cycle_failures: 0 }],
        shown: 'pending',
        listed: { pending: 1, acknowledged: 0 },
        log: [['succeeded', 204]],
      };
    }

    async function assertAcknowledgedTwice(who: Tenant, eventId: string) {
      const [done] = await deliveriesOf(t, eventId);
      assert.equal(done!.state, 'acknowledged');
      assert.equal(done!.attempt_count, 2);
      assert.deepEqual(await t.gatehouse.database.db.selectFrom('webhook_queue').select('delivery_id').where('delivery_id', '=', done!.id).execute(), []);
      assert.equal((await who.call('GET', `/v1/events/${eventId}`)).body.delivery_state, 'acknowledged');
    }

    it('the attempt log keeps status, latency and the first 1024 bytes of the response; recover only requeues parked deliveries since the time given', async () => {
      const who = await tenant(t);
      const { id } = await registerEndpoint(who, receiver.url, ['payout.failed']);
      receiver.answer = () => ({ status: 500, body: 'x'.repeat(5000) });
      const old = await raise(t, who.accountId, 'payout.failed', 'po_old');
      t.clock.advance(10_000);
      const since = t.clock.now();
      const recent = await raise(t, who.accountId, 'payout.failed', 'po_new');
      await dispatcher(t).runDue();
      t.clock.advance(1200);
      await dispatcher(t).runDue();
      const log = await who.call('GET', `/v1/webhook_endpoints/${id}/deliveries?limit=3`);
      assert.equal(log.status, 200);
      assert.equal(log.body.data.length, 3);
      assert.ok(log.body.next_cursor);
      const a = log.body.data[0];
      assert.equal(a.outcome, 'failed');
      assert.equal(a.response_status, 500);
      assert.equal(a.response_body.length, 1024);
      assert.equal(typeof a.latency_ms, 'number');
      const rest = await who.call('GET', `/v1/webhook_endpoints/${id}/deliveries?limit=3&after=${log.body.next_cursor}`);
      assert.equal(rest.body.data.length, 1);
      assert.equal(rest.body.next_cursor, null);
      const byEvent = await who.call('GET', `/v1/webhook_endpoints/${id}/deliveries?event_id=${old.id}`);
      assert.equal(byEvent.body.data.length, 2);

      receiver.answer = () => 204;
      const recovered = await who.call('POST', `/v1/webhook_endpoints/${id}/recover`, { since: new Date(since).toISOString() });
      assert.equal(recovered.body.requeued, 1);
      const before = receiver.received.length;
      await dispatcher(t).runDue();
      assert.equal(receiver.received.length, before + 1);
      assert.equal(receiver.received.at(-1)!.body.id, 'po_new');
      assert.equal((await who.call('GET', `/v1/events/${old.id}`)).body.delivery_state, 'parked');
      assert.equal((await who.call('GET', `/v1/events/${recent.id}`)).body.delivery_state, 'acknowledged');
    });
    it('recover: a since the schema admits but no clock holds (a leap second, 23:59:60) → 400 validation_failed, nothing requeued', async () => {
      const who = await tenant(t);
      const { id } = await registerEndpoint(who, receiver.url, ['payout.failed']);
      receiver.answer = () => 500;
      const event = await raise(t, who.accountId, 'payout.failed', 'po_leap');
      await dispatcher(t).runDue();
      t.clock.advance(1200);
      await dispatcher(t).runDue();
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'parked');
      receiver.answer = () => 204;
      const refused = await who.call('POST', `/v1/webhook_endpoints/${id}/recover`, { since: '2016-12-31T23:59:60Z' });
      assert.equal(refused.status, 400);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(refused.body.code, 'validation_failed');
      assert.equal(refused.body.status, 400);
      assert.match(refused.body.detail, /since/);
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'parked');
      assert.equal(await dispatcher(t).runDue(), 0);
    });
  });
}
