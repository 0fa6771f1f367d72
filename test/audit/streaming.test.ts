/**
 * Audit records streamed to webhooks (docs/AUDIT.md "Streaming"), on each database: an endpoint
 * subscribes with `audit.*` or `audit.<action>` (anything else under `audit.`, the platform's own
 * actions included, is refused);
 * `*` stays the business events; a record becomes an `audit.<action>` event when it is chained
 * (by the sealer, in that transaction), only while an endpoint subscribes; its deliveries are
 * retried, parked and recovered like every other event's.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { registerClient } from '../oauth/helpers.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { ALLOW_LOOPBACK, dispatcher, raise, registerEndpoint, tenant } from '../webhooks/support.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall } from '../helpers/http.ts';

/** What a SIEM's set-up token holds: the trail is streamed only by a token that may read it. */
const AUDITING = ['webhooks:manage', 'events:read', 'audit:read'];

for (const target of databaseTargets()) {
  describe(`audit events on webhooks (${target.kind})`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];
    before(async () => {
      t = await startTestApp(target, { env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close().catch(() => {})));
      await t.close();
    });
    async function receiver() {
      const r = await startReceiver();
      receivers.push(r);
      return r;
    }
    const seal = () => t.gatehouse.services.audit.sealer.sealPending();
    const auditEventsOf = (accountId: string) =>
      t.gatehouse.database.db.selectFrom('events').select(['type', 'object']).where('account_id', '=', accountId).where('type', 'like', 'audit.%').execute();

    it('subscription: audit.* and audit.<action> are accepted, an unknown audit type is 400', async () => {
      const who = await tenant(t, AUDITING);
      const r = await receiver();
      for (const types of [['audit.*'], ['audit.client.updated', 'payout.paid'], ['*', 'audit.*']]) {
        const created = await who.call('POST', '/v1/webhook_endpoints', { url: r.url, event_types: types });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.deepEqual(created.body.event_types, types);
      }
      // Unknown, or the platform's own (key rotation, imports: no account's, so never sent).
      for (const type of ['audit.client.renamed', 'audit.signing_keys.rotated', 'audit.data.imported']) {
        const refused = await who.call('POST', '/v1/webhook_endpoints', { url: r.url, event_types: [type] });
        assert.equal(refused.status, 400, type);
        assert.equal(refused.body.code, 'validation_failed', JSON.stringify(refused.body));
      }
    });

    it('no endpoint subscribed to audit events: records write no events; `*` receives no audit events; a type receives only its own', async () => {
      const who = await tenant(t, AUDITING);
      const all = await receiver();
      const all_ = await registerEndpoint(who, all.url, ['*']);
      all.secrets = [all_.secret];
      await registerClient(t, who.accountId, { client_name: 'Quiet', grant_types: ['client_credentials'], scope: 'invoices:read' });
      await seal();
      assert.deepEqual(await auditEventsOf(who.accountId), [], 'nobody listens: no audit events');

      const one = await receiver();
      const one_ = await registerEndpoint(who, one.url, ['audit.client.updated']);
      one.secrets = [one_.secret];
      const client = await registerClient(t, who.accountId, { client_name: 'Books', grant_types: ['client_credentials'], scope: 'invoices:read' });
      const renamed = await t.admin('PATCH', `/admin/v1/accounts/${who.accountId}/clients/${client.client_id}`, { client_name: 'Books v2' });
      assert.equal(renamed.status, 200);
      assert.deepEqual(await auditEventsOf(who.accountId), [], 'streamed when chained, not before');
      await seal();
      assert.deepEqual((await auditEventsOf(who.accountId)).map((e) => [e.type, e.object]), [['audit.client.updated', 'audit_event']]);
      await dispatcher(t).runDue();
      assert.equal(all.received.length, 0, '`*` is the business events only');
      assert.deepEqual(one.received.map((r) => r.body.event), ['audit.client.updated']);
      const got = one.received[0]!;
      assert.equal(got.octokitValid, true);
      assert.equal(got.standardValid, true);
      const data = got.body.data as { action: string; actor: unknown; changes: unknown; account: string; seq: number; hash: string };
      assert.equal(typeof data.seq, 'number');
      assert.match(data.hash, /^[0-9a-f]{64}$/);
      assert.equal(data.action, 'client.updated');
      assert.equal(data.account, who.accountId);
      assert.deepEqual(data.actor, { type: 'admin', id: 'admin_api', display: 'Operator (admin API)' });
      assert.deepEqual(data.changes, { client_name: { before: 'Books', after: 'Books v2' } });
    });

    it('a SIEM that is down: the audit event is retried, parked, and recovered', async () => {
      const who = await tenant(t, AUDITING);
      const siem = await receiver();
      const endpoint = await registerEndpoint(who, siem.url, ['audit.*']);
      siem.secrets = [endpoint.secret];
      siem.answer = () => 503;
      const client = await registerClient(t, who.accountId, { client_name: 'Books', grant_types: ['client_credentials'], scope: 'invoices:read' });
      await seal();
      await dispatcher(t).runDue();
      for (let i = 0; i < 3; i++) {
        t.clock.advance(2_000);
        await dispatcher(t).runDue();
      }
      const created = siem.received.filter((r) => r.body.event === 'audit.client.created');
      assert.equal(created.length, 4, 'the first attempt and three retries');
      assert.equal(new Set(created.map((r) => r.headers['event-id'])).size, 1);
      const parked = await who.call('GET', '/v1/events?delivery_state=parked&type=audit.client.created');
      assert.equal(parked.body.data.length, 1);
      assert.equal(parked.body.data[0].data.data.target.id, client.client_id);

      siem.answer = () => 204;
      const recovered = await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/recover`, { since: '2000-01-01T00:00:00Z' });
      assert.equal(recovered.status, 202, JSON.stringify(recovered.body));
      assert.ok(recovered.body.requeued >= 1);
      await dispatcher(t).runDue();
      const last = siem.received.filter((r) => r.body.event === 'audit.client.created').at(-1)!;
      assert.equal(last.raw.toString(), created[0]!.raw.toString(), 'the same bytes after recovery');
      assert.equal((await who.call('GET', `/v1/events/${String(last.headers['event-id'])}`)).body.delivery_state, 'acknowledged');
    });

    it('the streamed records are events only to a token that may read the trail: events:read alone lists and finds none of them', async () => {
      const owner = await tenant(t, AUDITING);
      const siem = await receiver();
      siem.secrets = [(await registerEndpoint(owner, siem.url, ['audit.*', '*'])).secret];
      await registerClient(t, owner.accountId, { client_name: 'Books', grant_types: ['client_credentials'], scope: 'invoices:read' });
      await seal();
      const stored = await auditEventsOf(owner.accountId);
      assert.ok(stored.length >= 2, 'the endpoint and the client were recorded and streamed');
      const auditEvent = await t.gatehouse.database.db.selectFrom('events').select('id').where('account_id', '=', owner.accountId).where('type', '=', 'audit.client.created').executeTakeFirstOrThrow();
      const business = await raise(t, owner.accountId);

      const readerToken = await mintAccessToken(t, { accountId: owner.accountId, scopes: ['events:read'] });
      const listed = await bearerCall(t.publicUrl, readerToken, 'GET', '/v1/events?limit=100');
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.data.map((e: { id: string }) => e.id), [business.id], 'the business event only');
      const byType = await bearerCall(t.publicUrl, readerToken, 'GET', '/v1/events?type=audit.client.created');
      assert.deepEqual(byType.body, { data: [], next_cursor: null });
      const one = await bearerCall(t.publicUrl, readerToken, 'GET', `/v1/events/${auditEvent.id}`);
      assert.equal(one.status, 404);
      assert.equal(one.body.code, 'event_not_found');

      const auditor = await bearerCall(t.publicUrl, await mintAccessToken(t, { accountId: owner.accountId, scopes: ['events:read', 'audit:read'] }), 'GET', '/v1/events?limit=100');
      assert.equal(auditor.body.data.length, stored.length + 1);
      const found = await owner.call('GET', `/v1/events/${auditEvent.id}`);
      assert.equal(found.status, 200);
      assert.equal(found.body.type, 'audit.client.created');

      // Nor are their delivery attempts, on the endpoint's attempt log.
      await dispatcher(t).runDue();
      const endpointId = (await t.gatehouse.database.db.selectFrom('webhook_endpoints').select('id').where('account_id', '=', owner.accountId).executeTakeFirstOrThrow()).id;
      const attemptTypes = async (scopes: string[]) => {
        const page = await bearerCall(t.publicUrl, await mintAccessToken(t, { accountId: owner.accountId, scopes }), 'GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`);
        assert.equal(page.status, 200);
        return [...new Set((page.body.data as Array<{ event_type: string }>).map((a) => a.event_type))].sort();
      };
      const everyType = await attemptTypes(['webhooks:manage', 'audit:read']);
      assert.ok(everyType.some((type) => type.startsWith('audit.')) && everyType.includes('invoice.settled'), everyType.join());
      assert.deepEqual(await attemptTypes(['webhooks:manage']), ['invoice.settled']);
    });

    it('webhooks:manage alone cannot stream the trail: making, pointing elsewhere, re-keying or removing an endpoint with audit types needs audit:read too', async () => {
      const owner = await tenant(t, AUDITING);
      const manager = await tenant(t);
      const siem = await receiver();
      const db = t.gatehouse.database.db;
      const endpointsOf = async (accountId: string) => (await db.selectFrom('webhook_endpoints').select(['url', 'event_types']).where('account_id', '=', accountId).execute()).map((e) => [e.url, e.event_types]);

      for (const types of [['audit.*'], ['payout.paid', 'audit.client.updated']]) {
        const refused = await manager.call('POST', '/v1/webhook_endpoints', { url: siem.url, event_types: types });
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.code, 'insufficient_scope');
        assert.equal(refused.body.detail, 'This operation needs the scope webhooks:manage audit:read');
        assert.match(refused.headers.get('www-authenticate')!, /error="insufficient_scope".*scope="webhooks:manage audit:read"/);
      }
      assert.deepEqual(await endpointsOf(manager.accountId), [], 'nothing stored');
      // Business events stay webhooks:manage's; adding audit types to such an endpoint does not.
      const business = await registerEndpoint(manager, siem.url, ['payout.paid']);
      const widened = await manager.call('POST', `/v1/webhook_endpoints/${business.id}`, { event_types: ['payout.paid', 'audit.*'] });
      assert.equal(widened.status, 403);
      assert.deepEqual(await endpointsOf(manager.accountId), [[siem.url, JSON.stringify(['payout.paid'])]]);

      // The account's SIEM endpoint, set up by a token that may read the trail.
      const streaming = await registerEndpoint(owner, siem.url, ['audit.*']);
      // Another client of the same account, holding webhooks:manage without audit:read.
      const managerOfOwner = await mintAccessToken(t, { accountId: owner.accountId, scopes: ['webhooks:manage', 'events:read'] });
      const attempts: Array<[string, string, unknown]> = [
        ['POST', `/v1/webhook_endpoints/${streaming.id}`, { url: 'http://127.0.0.1:9/elsewhere' }],
        ['POST', `/v1/webhook_endpoints/${streaming.id}`, { event_types: ['payout.paid'] }],
        ['POST', `/v1/webhook_endpoints/${streaming.id}/rotate_secret`, {}],
        ['POST', `/v1/webhook_endpoints/${streaming.id}/disable`, undefined],
        ['POST', `/v1/webhook_endpoints/${streaming.id}/recover`, { since: '2020-01-01T00:00:00Z' }],
        ['DELETE', `/v1/webhook_endpoints/${streaming.id}`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const refused = await bearerCall(t.publicUrl, managerOfOwner, method, path, body);
        assert.equal(refused.status, 403, `${method} ${path}: ${JSON.stringify(refused.body)}`);
        assert.equal(refused.body.code, 'insufficient_scope');
      }
      const kept = await db.selectFrom('webhook_endpoints').select(['url', 'event_types', 'enabled', 'previous_secret_sealed']).where('id', '=', streaming.id).executeTakeFirstOrThrow();
      assert.deepEqual([kept.url, kept.event_types, kept.enabled, kept.previous_secret_sealed], [siem.url, JSON.stringify(['audit.*']), 1, null], 'not moved, narrowed, disabled or re-keyed');
      // It can still be read, and the token that may read the trail changes it.
      assert.equal((await bearerCall(t.publicUrl, managerOfOwner, 'GET', `/v1/webhook_endpoints/${streaming.id}`)).status, 200);
      assert.equal((await owner.call('POST', `/v1/webhook_endpoints/${streaming.id}`, { description: 'SIEM' })).status, 200);
    });
  });
}
