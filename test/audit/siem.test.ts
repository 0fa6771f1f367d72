/**
 * What a SIEM subscribed to `audit.*` receives, in the bytes: what docs/AUDIT.md "Walkthrough" shows
 * from the outside (test/e2e/walkthroughs.test.ts runs it as written, on each database) without
 * seeing the bodies. The streamed record is the record as GET /v1/audit-events presents it, its place
 * in the chain included; sent again on request it is the same bytes under the same Event-Id with a new
 * Delivery-Id; once the person is deleted, a redelivery of what she did sends the detached body.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { api } from '../payments/api.ts';
import { registerClient } from '../oauth/helpers.ts';
import { scimClient, USER } from '../scim/scim-client.ts';
import { startReceiver, type Received, type Receiver } from '../webhooks/receiver.ts';
import { ALLOW_LOOPBACK } from '../webhooks/support.ts';
import type { Json } from '../helpers/http.ts';

const SIEM_SCOPES = ['webhooks:manage', 'events:read', 'audit:read'];

for (const target of databaseTargets()) {
  describe(`an audit trail streamed to a SIEM, in the bytes (${target.kind})`, () => {
    let t: TestApp;
    let receiver: Receiver;
    after(async () => {
      await receiver?.close();
      await t?.close();
    });

    it('the record as the API shows it; the same bytes sent again on request; the detached body after the deletion', async () => {
      t = await startTestApp(target, { env: ALLOW_LOOPBACK });
      receiver = await startReceiver();
      // Records are streamed as they are chained; the sealer runs every second, here on demand.
      const stream = async () => {
        await t.gatehouse.services.audit.sealer.sealPending();
        await t.gatehouse.services.webhooks.dispatcher.runDue();
      };
      const scim = await scimClient(t, 'Acme');
      const { accountId } = scim;
      const siem = await mintAccessToken(t, { accountId, scopes: SIEM_SCOPES });
      const endpoint = await api(t, siem, 'POST', '/v1/webhook_endpoints', { url: receiver.url, event_types: ['audit.*'] });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      receiver.secrets = [endpoint.body.secret as string];

      const books = await registerClient(t, accountId, { client_name: 'Books', grant_types: ['client_credentials'], scope: 'invoices:write' });
      const renamed = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${books.client_id}`, { client_name: 'Books v2' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      const grace = await scim.call('POST', '/Users', { schemas: [USER], userName: 'grace@acme.example', externalId: 'okta-1906', displayName: 'Grace Hopper', password: 'a long enough password' });
      assert.equal(grace.status, 201);
      const graceId = grace.body.id as string;
      const hers = await mintAccessToken(t, { accountId, scopes: ['invoices:write'], userId: graceId, clientId: books.client_id as string });
      assert.equal((await api(t, hers, 'POST', '/v1/invoices', { amount: 70, currency: 'EUR' })).status, 201);
      t.clock.advance(1);
      await stream();
      assert.ok(receiver.received.every((r) => r.octokitValid && r.standardValid), 'every delivery verifies');

      // The streamed record is the record as the API presents it, its place in the chain and its hash included.
      const [record] = (await api(t, siem, 'GET', `/v1/audit-events?action=client.updated`)).body.data as Json[];
      assert.equal(typeof record.seq, 'number');
      const updated = receiver.received.find((r) => r.body.event === 'audit.client.updated')!;
      assert.equal(updated.headers['event-type'], 'audit.client.updated');
      assert.deepEqual(
        { ...updated.body, created_at: undefined },
        { event: 'audit.client.updated', object: 'audit_event', id: record.id, state: 'recorded', created_at: undefined, data: record },
      );

      // Sent again on request: the same bytes, the same Event-Id, a new Delivery-Id; the
      // redelivery, itself a change, is streamed as audit.event.redelivered.
      const eventId = String(updated.headers['event-id']);
      assert.equal((await api(t, siem, 'POST', `/v1/events/${eventId}/redeliver`)).status, 202);
      let seen = receiver.received.length;
      await stream();
      const resent = receiver.received.slice(seen);
      assert.deepEqual(resent.map((r) => r.body.event).sort(), ['audit.client.updated', 'audit.event.redelivered']);
      const again = resent.find((r) => r.body.event === 'audit.client.updated')!;
      assert.equal(again.headers['event-id'], eventId);
      assert.notEqual(again.headers['delivery-id'], updated.headers['delivery-id']);
      assert.equal(again.raw.toString(), updated.raw.toString());

      const actorOf = (r: Received) => (r.body.data as { actor: { id: string; display: string | null } }).actor;
      // Deleted: a redelivery of what she did sends the body as the API now shows it, without her name.
      const invoiced = receiver.received.find((r) => r.body.event === 'audit.invoice.created' && actorOf(r).id === graceId)!;
      assert.equal(actorOf(invoiced).display, 'Grace Hopper');
      assert.equal((await scim.call('DELETE', `/Users/${graceId}`)).status, 204);
      t.clock.advance(1);
      assert.equal((await api(t, siem, 'POST', `/v1/events/${String(invoiced.headers['event-id'])}/redeliver`)).status, 202);
      seen = receiver.received.length;
      await stream();
      const afterDeletion = receiver.received.slice(seen);
      const redelivered = afterDeletion.find((r) => r.body.event === 'audit.invoice.created')!;
      assert.equal(redelivered.headers['event-id'], invoiced.headers['event-id']);
      assert.deepEqual(actorOf(redelivered), { ...actorOf(invoiced), display: null });
      assert.ok(afterDeletion.some((r) => r.body.event === 'audit.scim.user.deleted'), 'the deletion itself is streamed');
      for (const personal of ['grace@acme.example', 'okta-1906', 'Grace Hopper']) {
        assert.ok(!afterDeletion.some((r) => r.raw.toString().includes(personal)), `${personal} is not sent after the deletion`);
      }
    });
  });
}
