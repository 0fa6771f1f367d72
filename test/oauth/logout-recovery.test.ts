/**
 * Parked back-channel logouts are recovered by the operator, as parked webhooks are: listed
 * (cursor paging, by state and client), retried one by one or all since a time; a retried
 * delivery is sent again with a freshly signed logout token and ends delivered.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { until } from '../helpers/until.ts';
import { createTestClock } from '../../src/platform/clock.ts';
import { scimClient, USER, type ScimClient } from '../scim/scim-client.ts';
import { Browser, authorizePath, consent, registerClient, signIn } from './helpers.ts';
import { startLogoutReceiver, type LogoutReceiver } from './logout-receiver.ts';

const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`Back-channel logout recovery on the admin API (${target.kind})`, () => {
    const clock = createTestClock(Date.now());
    let t: TestApp;
    let scim: ScimClient;
    let userId: string;
    let clientId: string;
    let receiver: LogoutReceiver;

    before(async () => {
      t = await startTestApp(target, { clock, env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1', GATEHOUSE_IN_PROCESS_WORKERS: 'on' } });
      receiver = await startLogoutReceiver({ status: 500 });
      scim = await scimClient(t, 'Acme');
      const created = await scim.call('POST', '/Users', { schemas: [USER], userName: 'grace@example.com', password: PASSWORD });
      userId = created.body.id as string;
      const client = await registerClient(t, scim.accountId, { client_name: 'Web app', redirect_uris: [REDIRECT], backchannel_logout_uri: receiver.url, grant_types: ['authorization_code'], scope: 'openid' });
      clientId = client.client_id as string;
    });
    after(async () => {
      await receiver?.close();
      await t?.close();
    });

    const deliveries = (query = '') => t.admin('GET', `/admin/v1/accounts/${scim.accountId}/logout-deliveries${query}`);

    async function signedIn() {
      const browser = new Browser(t.publicUrl);
      let page = await browser.get(authorizePath({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'openid', state: 's', nonce: 'n' }));
      page = await signIn(browser, page, 'grace@example.com', PASSWORD);
      if (page.status === 200) page = await consent(browser, page);
      assert.equal(page.status, 303, page.html);
    }

    it('two logouts that failed through the schedule are parked, listed, retried one by one and all since a time', async () => {
      await signedIn();
      await signedIn();
      const deactivated = await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/users/${userId}/deactivate`);
      assert.equal(deactivated.status, 200);
      const parked = async () => (await deliveries('?state=parked')).body.data.length === 2;
      await until(async () => (await deliveries('?state=pending')).body.data.every((d: { failures: number }) => d.failures === 1), 10_000, 'a first failure each');
      clock.advance(3_000);
      await until(parked, 10_000, 'both parked after the last step');

      const listed = await deliveries('?state=parked&limit=1');
      assert.equal(listed.status, 200);
      assert.equal(listed.body.data.length, 1);
      assert.notEqual(listed.body.next_cursor, null);
      const first = listed.body.data[0];
      assert.equal(first.object, 'logout_delivery');
      assert.equal(first.client_id, clientId);
      assert.equal(first.user_id, userId);
      assert.equal(first.state, 'parked');
      assert.match(first.last_error, /500/);
      const rest = await deliveries(`?state=parked&limit=1&after=${encodeURIComponent(listed.body.next_cursor)}`);
      assert.equal(rest.body.data.length, 1);
      assert.notEqual(rest.body.data[0].id, first.id);
      assert.equal(rest.body.next_cursor, null);
      const wrongFilter = await deliveries(`?state=pending&after=${encodeURIComponent(listed.body.next_cursor)}`);
      assert.equal(wrongFilter.status, 400, 'a cursor continues only the read with its filters');
      assert.equal((await deliveries(`?client_id=${clientId}`)).body.data.length, 2);
      assert.equal((await deliveries('?client_id=client_other')).body.data.length, 0);

      receiver.answer(200);
      const sentBefore = receiver.tokens.length;
      const retried = await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/logout-deliveries/${first.id}/retry`);
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      assert.equal(retried.body.state, 'pending');
      assert.equal(retried.body.failures, 0);
      await until(async () => (await deliveries('?state=delivered')).body.data.length === 1, 10_000, 'the retried delivery delivered');
      assert.equal(receiver.tokens.length, sentBefore + 1);
      const again = await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/logout-deliveries/${first.id}/retry`);
      assert.equal(again.status, 409);
      assert.equal(again.body.code, 'logout_delivery_not_parked');
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/logout-deliveries/blo_unknown/retry`)).status, 404);

      const none = await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/logout-deliveries/retry`, { since: new Date(clock.now() + 60_000).toISOString() });
      assert.equal(none.body.requeued, 0, 'nothing was queued after since');
      const all = await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/logout-deliveries/retry`, { since: new Date(clock.now() - 3_600_000).toISOString(), client_id: clientId });
      assert.equal(all.status, 200, JSON.stringify(all.body));
      assert.equal(all.body.requeued, 1);
      await until(async () => (await deliveries('?state=delivered')).body.data.length === 2, 10_000, 'both delivered');
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${scim.accountId}/logout-deliveries/retry`, { since: 'yesterday' })).status, 400);

      const trail = await t.admin('GET', `/admin/v1/audit-events?account=${scim.accountId}&action=logout_delivery.retried`);
      assert.equal(trail.body.data.length, 2);
      const one = trail.body.data.find((e: { target: { type: string } }) => e.target.type === 'logout_delivery');
      const bulk = trail.body.data.find((e: { target: { type: string } }) => e.target.type === 'account');
      assert.equal(one.target.id, first.id);
      assert.deepEqual(bulk.changes.requeued, { after: 1 });
      assert.deepEqual(bulk.changes.client_id, { after: clientId });
      // Another account sees none of them.
      const other = await t.admin('POST', '/admin/v1/accounts', { name: 'Other' });
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${other.body.id}/logout-deliveries`)).body.data.length, 0);
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${other.body.id}/logout-deliveries/${first.id}/retry`)).status, 404);
    });
  });
}
