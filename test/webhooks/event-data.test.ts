/**
 * Webhook events carry their object: besides the interface's `event`, `object`, `id` and
 * `state`, a delivery's body holds `data`, the object as the API answered for it when the event
 * was raised (GET /v1/payouts/{id}, /v1/invoices/{id}, the endpoint less its headers). The body
 * is stored with the event, so a redelivery sends the same bytes even after the object moved on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, dispatcher, registerEndpoint, tenant } from './support.ts';
import { api } from '../payments/api.ts';

const SCOPES = ['webhooks:manage', 'events:read', 'invoices:read', 'invoices:write', 'payouts:read', 'payouts:write'];

for (const target of databaseTargets()) {
  describe(`webhook events carry their object (${target.kind})`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];
    before(async () => {
      t = await startTestApp(target, { env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,1,1', GATEHOUSE_PAYOUT_DELAY: '30' } });
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close().catch(() => {})));
      await t.close();
    });

    async function listening(types: string[]) {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const who = await tenant(t, SCOPES);
      const endpoint = await registerEndpoint(who, receiver.url, types);
      receiver.secrets = [endpoint.secret];
      return { who, receiver, endpoint };
    }

    it('invoice.settled, payout.created and payout.paid: data is the object as the API answered it then; the bytes are signed and stored', async () => {
      const { who, receiver } = await listening(['*']);
      const invoice = await who.call('POST', '/v1/invoices', { amount: 10_000, currency: 'EUR', description: 'Consulting' });
      assert.equal(invoice.status, 201);
      const settled = await who.call('POST', `/v1/invoices/${invoice.body.id}/settle`);
      assert.equal(settled.status, 200);
      const payout = await who.call('POST', '/v1/payouts', { amount: 2_500, currency: 'EUR', destination: 'iban:DE89370400440532013000' });
      assert.equal(payout.status, 201);
      const pending = await who.call('GET', `/v1/payouts/${payout.body.id}`);
      t.clock.advance(31_000);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      const paid = await who.call('GET', `/v1/payouts/${payout.body.id}`);
      assert.equal(paid.body.state, 'paid');
      assert.equal(await dispatcher(t).runDue(), 3);

      const byType = new Map(receiver.received.map((r) => [r.body.event, r]));
      assert.deepEqual([...byType.keys()].sort(), ['invoice.settled', 'payout.created', 'payout.paid']);
      for (const got of receiver.received) {
        assert.equal(got.octokitValid, true, `${got.body.event}: @octokit/webhooks-methods verify() on Signature`);
        assert.equal(got.standardValid, true, `${got.body.event}: standardwebhooks on webhook-*`);
        const stored = await t.gatehouse.database.db.selectFrom('events').select('payload').where('id', '=', String(got.headers['event-id'])).executeTakeFirstOrThrow();
        assert.equal(got.raw.toString(), stored.payload, 'the exact bytes stored with the event');
      }
      const settledEvent = byType.get('invoice.settled')!.body;
      assert.deepEqual(
        { ...settledEvent, created_at: undefined },
        { event: 'invoice.settled', object: 'invoice', id: invoice.body.id, state: 'settled', created_at: undefined, data: settled.body },
      );
      assert.deepEqual(byType.get('payout.created')!.body.data, pending.body, 'as GET /v1/payouts/{id} answered while pending');
      assert.equal(byType.get('payout.created')!.body.state, 'pending');
      assert.deepEqual(byType.get('payout.paid')!.body.data, paid.body, 'as GET /v1/payouts/{id} answers once paid');
      assert.equal((byType.get('payout.paid')!.body.data as { processed_at: string | null }).processed_at !== null, true);
    });

    it('a failed payout carries its failure code; a redelivery sends the same bytes, under the same Event-Id', async () => {
      const { who, receiver } = await listening(['payout.failed']);
      const funded = await api(t, who.token, 'POST', '/v1/invoices', { amount: 500, currency: 'EUR' });
      await who.call('POST', `/v1/invoices/${funded.body.id}/settle`);
      const payout = await who.call('POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'test_fail_iban' });
      assert.equal(payout.status, 201, JSON.stringify(payout.body));
      t.clock.advance(31_000);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      assert.equal(await dispatcher(t).runDue(), 1);
      const first = receiver.received[0]!;
      assert.equal(first.body.state, 'failed');
      assert.equal((first.body.data as { failure_code: string }).failure_code, 'destination_rejected');
      assert.deepEqual(first.body.data, (await who.call('GET', `/v1/payouts/${payout.body.id}`)).body);

      const eventId = String(first.headers['event-id']);
      const again = await who.call('POST', `/v1/events/${eventId}/redeliver`);
      assert.equal(again.status, 202, JSON.stringify(again.body));
      assert.equal(await dispatcher(t).runDue(), 1);
      const second = receiver.received[1]!;
      assert.equal(second.headers['event-id'], eventId);
      assert.notEqual(second.headers['delivery-id'], first.headers['delivery-id']);
      assert.equal(second.raw.toString(), first.raw.toString(), 'the same body, byte for byte');
      assert.equal(second.octokitValid, true);
      const listed = await who.call('GET', `/v1/events/${eventId}`);
      assert.deepEqual(listed.body.data, first.body, 'the event API shows the body as sent');
    });

    it('webhook_endpoint.disabled carries the endpoint as the API shows it, less its headers (kept sealed), its URL query values and its path past the first segment', async () => {
      const { who, receiver, endpoint } = await listening(['invoice.settled']);
      const watcher = await startReceiver();
      receivers.push(watcher);
      const watching = await registerEndpoint(who, watcher.url, ['webhook_endpoint.disabled']);
      watcher.secrets = [watching.secret];
      const updated = await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}`, {
        url: `${receiver.url}/T0001/path-credential?token=query-credential&v=2&bare-credential`,
        headers: { Authorization: 'Bearer receiver-credential', 'X-Tenant': 'acme' },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      receiver.answer = () => 410;
      const invoice = await who.call('POST', '/v1/invoices', { amount: 100, currency: 'EUR' });
      await who.call('POST', `/v1/invoices/${invoice.body.id}/settle`);
      await dispatcher(t).runDue();
      await dispatcher(t).runDue();
      const notice = watcher.received.find((r) => r.body.event === 'webhook_endpoint.disabled')!;
      assert.ok(notice, 'the watcher hears of the disable');
      assert.equal(notice.octokitValid, true);
      const shown = (await who.call('GET', `/v1/webhook_endpoints/${endpoint.id}`)).body;
      const { headers: _headers, ...withoutHeaders } = shown;
      assert.equal(shown.url, `${receiver.url}/T0001/path-credential?token=query-credential&v=2&bare-credential`);
      assert.deepEqual(notice.body.data, { ...withoutHeaders, url: `${receiver.url}/[redacted]?token=[redacted]&v=[redacted]&[redacted]` });
      assert.equal(notice.body.state, 'disabled');
      assert.ok(!notice.raw.toString().includes('receiver-credential'), 'no sealed value in the body');
      const stored = await t.gatehouse.database.db.selectFrom('events').select('payload').where('type', '=', 'webhook_endpoint.disabled').where('object_id', '=', endpoint.id).executeTakeFirstOrThrow();
      for (const secret of ['query-credential', 'path-credential', 'bare-credential']) assert.ok(!stored.payload.includes(secret), `${secret}, nor in the stored event`);
    });
  });
}
