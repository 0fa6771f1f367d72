/**
 * docs/AUDIT.md "Walkthrough", step by step, on each database: changes made by the operator, a
 * SCIM token, a client and a person through a client; each found in the trail through the API,
 * the admin API and `gatehouse audit export`; each received, signed, by a webhook endpoint
 * subscribed to `audit.*` (and sent again on request); the person deactivated (their name stays
 * on their history), then deleted (it goes, in the trail and in the stored events); a record
 * edited in the database and `gatehouse audit verify` naming it.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { databaseTargets, type DatabaseTarget } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { api } from '../payments/api.ts';
import { Browser, authorizePath, basic, consent, postForm, redirectParams, registerClient, signIn } from '../oauth/helpers.ts';
import { PATCH, USER } from '../scim/scim-client.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { ALLOW_LOOPBACK } from '../webhooks/support.ts';
import type { Json } from '../helpers/http.ts';

const BIN = path.resolve('bin/gatehouse.js');

function gatehouse(args: string[], databaseUrl: string) {
  return spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, GATEHOUSE_DATABASE_URL: databaseUrl }, encoding: 'utf8', timeout: 60_000 });
}

function existing(kind: DatabaseTarget['kind'], url: string): DatabaseTarget {
  return { kind, create: async () => ({ url, drop: async () => {} }) };
}

const SIEM_SCOPES = 'webhooks:manage events:read audit:read';
const REDIRECT = 'http://localhost:3000/callback';
const PASSWORD = 'a long enough password';

for (const target of databaseTargets()) {
  describe(`the audit walkthrough (${target.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('different actors, found through the API, the admin API and the CLI; streamed to a webhook; deactivate keeps, delete detaches; verify names a tampered record', async () => {
      const database = await target.create();
      cleanups.push(database.drop);
      const t: TestApp = await startTestApp(existing(target.kind, database.url), { env: ALLOW_LOOPBACK });
      let open = true;
      cleanups.push(async () => {
        if (open) await t.close();
      });
      const receiver: Receiver = await startReceiver();
      cleanups.push(() => receiver.close());
      const step = () => t.clock.advance(1);
      const runDeliveries = () => t.gatehouse.services.webhooks.dispatcher.runDue();
      // Records are streamed as they are chained; the sealer runs every second, here on demand.
      const seal = () => t.gatehouse.services.audit.sealer.sealPending();

      // 1. As the operator: an account, a client for the SIEM, a client for the books, a SCIM token.
      const accountId = await createAccount(t, 'Acme');
      const siem = await registerClient(t, accountId, { client_name: 'SIEM', grant_types: ['client_credentials'], scope: SIEM_SCOPES });
      const books = await registerClient(t, accountId, { client_name: 'Books', grant_types: ['authorization_code', 'client_credentials'], redirect_uris: [REDIRECT], scope: 'openid invoices:read invoices:write' });
      const scimToken = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'Okta' });
      assert.equal(scimToken.status, 201);
      step();
      const tokenOf = async (client: Json, scope: string) => {
        const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope }, { authorization: basic(client.client_id as string, client.client_secret as string) });
        assert.equal(issued.status, 200, JSON.stringify(issued.body));
        return issued.body.access_token as string;
      };
      const siemToken = await tokenOf(siem, SIEM_SCOPES);

      // 2. The SIEM subscribes an endpoint to every audit event.
      const endpoint = await api(t, siemToken, 'POST', '/v1/webhook_endpoints', { url: receiver.url, event_types: ['audit.*'] });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      receiver.secrets = [endpoint.body.secret as string];
      step();

      // 3. Changes by four actors.
      const scim = (method: string, p: string, body?: unknown) =>
        fetch(`${t.publicUrl}/scim/v2${p}`, {
          method,
          headers: { authorization: `Bearer ${scimToken.body.token as string}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const provisioned = await scim('POST', '/Users', { schemas: [USER], userName: 'grace@acme.example', externalId: 'okta-1906', displayName: 'Grace Hopper', password: PASSWORD, emails: [{ value: 'grace@acme.example', primary: true }] });
      assert.equal(provisioned.status, 201);
      const graceId = ((await provisioned.json()) as { id: string }).id;
      step();
      const renamed = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${books.client_id}`, { client_name: 'Books v2' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      step();
      const booksToken = await tokenOf(books, 'invoices:read invoices:write');
      const invoice = await api(t, booksToken, 'POST', '/v1/invoices', { amount: 5_000, currency: 'EUR' });
      assert.equal(invoice.status, 201);
      step();
      // Grace signs in through Books and allows it.
      const browser = new Browser(t.publicUrl);
      let page = await browser.get(authorizePath({ response_type: 'code', client_id: books.client_id as string, redirect_uri: REDIRECT, scope: 'openid invoices:read', state: 's1', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }));
      page = await signIn(browser, page, 'grace@acme.example', PASSWORD);
      step();
      assert.equal(page.status, 200, 'the consent page');
      page = await consent(browser, page);
      assert.equal(page.status, 303, page.html);
      assert.ok(redirectParams(page).get('code'));
      step();
      // With a role granting invoices:write her token's writes are hers (the token as a grant makes it).
      const byGrace = await mintAccessToken(t, { accountId, scopes: ['invoices:write'], userId: graceId, clientId: books.client_id as string });
      const hers = await api(t, byGrace, 'POST', '/v1/invoices', { amount: 70, currency: 'EUR' });
      assert.equal(hers.status, 201);
      step();

      await seal();

      // 4. Each is in the trail, by actor, through the API …
      const trail = async (query: string) => {
        const page = await api(t, siemToken, 'GET', `/v1/audit-events?limit=100${query}`);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        return page.body.data as Json[];
      };
      const scimTokenId = scimToken.body.id as string;
      const byActor = async (id: string) => (await trail(`&actor=${id}`)).map((r) => [r.action, r.actor.type, r.actor.display]);
      assert.deepEqual(await byActor(scimTokenId), [['scim.user.created', 'scim_token', 'Okta']]);
      assert.deepEqual((await byActor('admin_api')).slice(0, 1), [['client.updated', 'admin', 'Operator (admin API)']]);
      assert.deepEqual(await byActor(books.client_id as string), [['invoice.created', 'client', 'Books v2']]);
      assert.deepEqual(await byActor(graceId), [
        ['invoice.created', 'user', 'Grace Hopper'],
        ['consent.granted', 'user', 'Grace Hopper'],
        ['signin.succeeded', 'user', 'Grace Hopper'],
      ]);
      const consented = (await trail(`&actor=${graceId}&action=consent.`))[0]!;
      assert.deepEqual(consented.actor.client, { id: books.client_id, display: 'Books v2' });
      assert.deepEqual(consented.target, { type: 'client', id: books.client_id });
      // … and the operator's API, across accounts or for one.
      const operator = await t.admin('GET', `/admin/v1/audit-events?account=${accountId}&action=client.updated`);
      assert.equal(operator.status, 200);
      assert.deepEqual(
        (operator.body.data as Json[]).map((r) => [r.target.id, r.changes.client_name]),
        [[books.client_id, { before: 'Books', after: 'Books v2' }]],
      );

      // 5. The webhook receiver got each as a signed audit event, the record as the API shows it.
      await runDeliveries();
      const received = receiver.received.map((r) => r.body.event);
      for (const type of ['audit.webhook_endpoint.created', 'audit.scim.user.created', 'audit.client.updated', 'audit.invoice.created', 'audit.signin.succeeded', 'audit.consent.granted']) assert.ok(received.includes(type), `${type} in ${received.join(', ')}`);
      assert.ok(receiver.received.every((r) => r.octokitValid && r.standardValid), 'every delivery verifies');
      const updatedEvent = receiver.received.find((r) => r.body.event === 'audit.client.updated')!;
      const [apiRecord] = (operator.body.data as Json[]);
      assert.equal(updatedEvent.headers['event-type'], 'audit.client.updated');
      assert.deepEqual(
        { ...updatedEvent.body, created_at: undefined },
        { event: 'audit.client.updated', object: 'audit_event', id: apiRecord.id, state: 'recorded', created_at: undefined, data: apiRecord },
        'the record as GET /v1/audit-events presents it, its place in the chain and its hash included',
      );
      assert.equal(typeof apiRecord.seq, 'number');
      // Sent again on request: the same bytes, the same Event-Id, a new Delivery-Id (and the
      // redelivery, itself a change, is streamed as audit.event.redelivered).
      const eventId = String(updatedEvent.headers['event-id']);
      assert.equal((await api(t, siemToken, 'POST', `/v1/events/${eventId}/redeliver`)).status, 202);
      const before = receiver.received.length;
      await seal();
      await runDeliveries();
      const resent = receiver.received.slice(before);
      assert.deepEqual(resent.map((r) => r.body.event).sort(), ['audit.client.updated', 'audit.event.redelivered']);
      const again = resent.find((r) => r.body.event === 'audit.client.updated')!;
      assert.equal(again.headers['event-id'], eventId);
      assert.notEqual(again.headers['delivery-id'], updatedEvent.headers['delivery-id']);
      assert.equal(again.raw.toString(), updatedEvent.raw.toString());

      // 6. Deactivate Grace: her name stays on her history.
      const patchActive = await scim('PATCH', `/Users/${graceId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      assert.equal(patchActive.status, 200);
      step();
      assert.equal((await trail(`&actor=${graceId}`))[0]!.actor.display, 'Grace Hopper');
      // Delete her: the records keep the action, the target and her pseudonymous id; not her name.
      assert.equal((await scim('DELETE', `/Users/${graceId}`)).status, 204);
      step();
      const afterDelete = await trail(`&actor=${graceId}`);
      assert.deepEqual(afterDelete.map((r) => [r.action, r.actor.id, r.actor.display]), [
        ['invoice.created', graceId, null],
        ['consent.granted', graceId, null],
        ['signin.succeeded', graceId, null],
      ]);
      assert.equal(afterDelete[0]!.target.id, hers.body.id);
      const aboutHer = await trail(`&target=${graceId}`);
      assert.deepEqual(aboutHer.map((r) => [r.action, r.detached, r.changes]), [
        ['scim.user.deleted', false, null],
        ['scim.user.deactivated', true, null],
        ['signin.succeeded', true, null],
        ['scim.user.created', true, null],
      ]);
      // The audit events stored for delivery are detached alike.
      const storedEvents = await t.gatehouse.database.db.selectFrom('events').select('payload').where('account_id', '=', accountId).execute();
      for (const personal of ['grace@acme.example', 'okta-1906', 'Grace Hopper']) {
        assert.ok(!storedEvents.some((e) => e.payload.includes(personal)), `${personal} is gone from stored events`);
      }
      await seal();
      await runDeliveries();
      const deletion = receiver.received.find((r) => r.body.event === 'audit.scim.user.deleted');
      assert.ok(deletion, 'the deletion itself is streamed');

      // 7. The CLI finds the same records, and verify passes.
      await t.gatehouse.services.audit.sealer.sealPending({ forceCheckpoint: true });
      open = false;
      await t.close();
      const exported = gatehouse(['audit', 'export', '--out', '-', '--account', accountId], database.url);
      assert.equal(exported.status, 0, exported.stderr);
      const lines = exported.stdout.trim().split('\n').map((l) => JSON.parse(l) as Json);
      for (const action of ['account.created', 'client.created', 'scim_token.created', 'webhook_endpoint.created', 'scim.user.created', 'client.updated', 'invoice.created', 'scim.user.deactivated', 'scim.user.deleted']) {
        assert.ok(lines.some((l) => l.action === action), `${action} exported`);
      }
      assert.match(exported.stderr, /exported \d+ audit records/);
      const ok = gatehouse(['audit', 'verify', '--account', accountId], database.url);
      assert.equal(ok.status, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, new RegExp(`ok   ${accountId}: `));

      // 8. Tamper with the database: verify names the record.
      const opened = await openDatabase({ databaseUrl: database.url });
      const victim = await opened.db.selectFrom('audit_events').select(['id', 'seq']).where('account_id', '=', accountId).where('action', '=', 'client.updated').executeTakeFirstOrThrow();
      await opened.db.updateTable('audit_events').set({ actor_id: 'cli' }).where('id', '=', victim.id).execute();
      await opened.close();
      const broken = gatehouse(['audit', 'verify', '--account', accountId], database.url);
      assert.equal(broken.status, 4, broken.stdout + broken.stderr);
      assert.match(broken.stdout, new RegExp(`FAIL ${accountId}.*\\n  altered at ${Number(victim.seq)} \\(${victim.id}\\)`));
    });
  });
}
