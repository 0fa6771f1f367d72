/**
 * Each category of action writes its audit record with the right actor, target and changes:
 * the operator, OAuth sign-in, consent, replays and revocation, SCIM users and groups (with the
 * interface's attribution rule: deactivation keeps the person's name on their history, deletion
 * detaches it) and webhook endpoints; on each database.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { Browser, authorizePath, basic, consent, createUser, postForm, redirectParams, registerClient, signIn } from '../oauth/helpers.ts';
import { scimClient, USER, PATCH, GROUP } from '../scim/scim-client.ts';
import { api } from '../payments/api.ts';
import type { Json } from '../helpers/http.ts';

const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`audited actions (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      // Receiver names resolve where the test says (no DNS here).
      t = await startTestApp(target, { deps: { webhookResolve: async () => [{ address: '93.184.216.34', family: 4 }] } });
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    const records = (accountId: string) => db().selectFrom('audit_events').selectAll().where('account_id', '=', accountId).orderBy('occurred_at').orderBy('id').execute();
    const step = () => t.clock.advance(1);
    async function trail(accountId: string, query = '') {
      const reader = await mintAccessToken(t, { accountId, scopes: ['audit:read'] });
      const page = await api(t, reader, 'GET', `/v1/audit-events?limit=100${query}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      return page.body.data as Json[];
    }

    it('operator actions: account, client (secret redacted), user, SCIM token, role', async () => {
      const accountId = await createAccount(t, 'Audited');
      step();
      const client = await registerClient(t, accountId, { client_name: 'Books', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], scope: 'invoices:read' });
      step();
      await createUser(t, accountId, 'ada', PASSWORD);
      step();
      const token = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'Okta' });
      step();
      const rotated = await t.admin('POST', `/admin/v1/accounts/${accountId}/clients/${client.client_id}/secret`);
      assert.equal(rotated.status, 200);
      const rows = await trail(accountId);
      assert.deepEqual(
        rows.map((r) => [r.action, r.actor.type, r.actor.display, r.target.type]).reverse(),
        [
          ['account.created', 'admin', 'Operator (admin API)', 'account'],
          ['client.created', 'admin', 'Operator (admin API)', 'client'],
          ['user.created', 'admin', 'Operator (admin API)', 'user'],
          ['scim_token.created', 'admin', 'Operator (admin API)', 'scim_token'],
          ['client.secret_rotated', 'admin', 'Operator (admin API)', 'client'],
        ],
      );
      const created = rows.find((r) => r.action === 'client.created')!;
      assert.equal(created.target.id, client.client_id);
      assert.deepEqual(created.changes.client_name, { after: 'Books' });
      assert.equal(created.changes.client_secret, undefined, 'the secret is not in what the client shows, so not recorded');
      const user = rows.find((r) => r.action === 'user.created')!;
      assert.deepEqual(user.changes.password, { after: '[redacted]' });
      const scim = rows.find((r) => r.action === 'scim_token.created')!;
      assert.equal(scim.target.id, token.body.id);
      assert.deepEqual(scim.changes.token, { after: '[redacted]' });
      // No secret reaches the trail in clear.
      const stored = JSON.stringify(await records(accountId));
      assert.ok(!stored.includes(rotated.body.client_secret) && !stored.includes(token.body.token) && !stored.includes(PASSWORD));
    });

    it('OAuth: sign-in failed and succeeded, consent granted, a code replay revokes its grant, RFC 7009 revocation', async () => {
      const accountId = await createAccount(t);
      const client = await registerClient(t, accountId, { client_name: 'Ledger App', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'invoices:read' });
      const ada = await createUser(t, accountId, 'ada', PASSWORD);
      const browser = new Browser(t.publicUrl);
      const params = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
      let page = await browser.get(authorizePath(params));
      const failed = await signIn(browser, page, 'ada', 'not the password');
      assert.equal(failed.status, 401);
      step();
      page = await browser.get(authorizePath(params));
      page = await signIn(browser, page, 'ada', PASSWORD);
      step();
      page = await consent(browser, page);
      const code = redirectParams(page).get('code')!;
      const redeem = () =>
        postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' }, { authorization: basic(client.client_id, client.client_secret) });
      const first = await redeem();
      assert.equal(first.status, 200);
      step();
      const revoked = await postForm(`${t.publicUrl}/revoke`, { token: first.body.access_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(revoked.status, 200);
      step();
      const replay = await redeem();
      assert.equal(replay.status, 400);
      const rows = (await trail(accountId)).filter((r) => !['account.created', 'client.created', 'user.created'].includes(r.action)).reverse();
      assert.deepEqual(
        rows.map((r) => [r.action, r.actor.type, r.actor.id, r.target.type]),
        [
          ['signin.failed', 'user', ada.id, 'user'],
          ['signin.succeeded', 'user', ada.id, 'user'],
          ['consent.granted', 'user', ada.id, 'client'],
          ['token.revoked', 'client', client.client_id, 'access_token'],
          ['grant.replay_revoked', 'client', client.client_id, 'grant'],
        ],
      );
      assert.deepEqual(rows[0]!.changes, { reason: { after: 'wrong_password' } });
      assert.equal(rows[1]!.actor.display, 'Ada Lovelace');
      assert.deepEqual(rows[1]!.actor.client, { id: client.client_id, display: 'Ledger App' });
      assert.deepEqual(rows[2]!.changes, { scope: { before: null, after: 'invoices:read' } });
    });

    it('SCIM: create, patch, deactivate (the name stays on the history), delete (the person is detached); the chain still verifies', async () => {
      const scim = await scimClient(t);
      const created = await scim.call('POST', '/Users', { schemas: [USER], userName: 'grace@example.com', externalId: 'okta-77', displayName: 'Grace Hopper', emails: [{ value: 'grace@example.com', primary: true }], password: 'a long enough password' });
      assert.equal(created.status, 201);
      const userId = created.body.id as string;
      step();
      const renamed = await scim.call('PATCH', `/Users/${userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Rear Admiral Hopper' }] });
      assert.equal(renamed.status, 200);
      step();
      // Grace acts herself, through a client: a payout request's record names her.
      const group = await scim.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Finance', members: [{ value: userId }] });
      assert.equal(group.status, 201);
      step();
      const byGrace = await mintAccessToken(t, { accountId: scim.accountId, scopes: ['invoices:write'], userId, clientId: 'cli_books' });
      const invoice = await api(t, byGrace, 'POST', '/v1/invoices', { amount: 10, currency: 'EUR' });
      assert.equal(invoice.status, 201);
      step();
      const deactivated = await scim.call('PATCH', `/Users/${userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
      assert.equal(deactivated.status, 200);
      step();

      let rows = await trail(scim.accountId);
      assert.deepEqual(
        rows.map((r) => r.action).reverse().filter((a) => a !== 'account.created' && a !== 'scim_token.created'),
        ['scim.user.created', 'scim.user.patched', 'scim.group.created', 'invoice.created', 'scim.user.deactivated'],
      );
      const createdRecord = rows.find((r) => r.action === 'scim.user.created')!;
      assert.equal(createdRecord.actor.type, 'scim_token');
      assert.equal(createdRecord.actor.display, 'IdP');
      assert.deepEqual(createdRecord.changes.userName, { after: 'grace@example.com' });
      assert.deepEqual(createdRecord.changes.password, { after: '[redacted]' });
      assert.deepEqual(rows.find((r) => r.action === 'scim.user.patched')!.changes, { displayName: { before: 'Grace Hopper', after: 'Rear Admiral Hopper' } });
      assert.deepEqual(rows.find((r) => r.action === 'scim.user.deactivated')!.changes, { active: { before: true, after: false } });
      // Deactivated: her history keeps her name.
      const hers = rows.find((r) => r.action === 'invoice.created')!;
      assert.deepEqual(hers.actor, { type: 'user', id: userId, display: 'Rear Admiral Hopper', client: { id: 'cli_books', display: null } });
      await t.gatehouse.services.audit.sealer.sealPending({ forceCheckpoint: true });

      const deleted = await scim.call('DELETE', `/Users/${userId}`);
      assert.equal(deleted.status, 204);
      rows = await trail(scim.accountId);
      assert.equal(rows[0]!.action, 'scim.user.deleted');
      const after = rows.find((r) => r.action === 'invoice.created')!;
      assert.deepEqual(after.actor, { type: 'user', id: userId, display: null, client: { id: 'cli_books', display: null } }, 'the pseudonymous id stays, the name is gone');
      assert.equal(after.target.id, invoice.body.id);
      for (const r of rows.filter((r) => r.target.id === userId && r.action !== 'scim.user.deleted')) {
        assert.equal(r.changes, null, r.action);
        assert.equal(r.detached, true, r.action);
      }
      const stored = JSON.stringify(await records(scim.accountId));
      for (const personal of ['grace@example.com', 'okta-77', 'Grace Hopper', 'Rear Admiral']) assert.ok(!stored.includes(personal), personal);
      await t.gatehouse.services.audit.sealer.sealPending();
      const report = await t.gatehouse.services.audit.verifier.verify(scim.accountId);
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.equal(report.chains[0]!.detached, 3);
    });

    it('webhook endpoints: created, secret rotated, disabled, deleted, by the client that manages them', async () => {
      const accountId = await createAccount(t);
      const token = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'], clientId: 'cli_ops' });
      const created = await api(t, token, 'POST', '/v1/webhook_endpoints', { url: 'https://hooks.example.com/in', event_types: ['payout.created'], headers: { 'X-Api-Key': 'receiver-credential' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      step();
      const id = created.body.id as string;
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/rotate_secret`, {})).status, 200);
      step();
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/disable`)).status, 200);
      step();
      assert.equal((await api(t, token, 'DELETE', `/v1/webhook_endpoints/${id}`)).status, 204);
      const rows = (await trail(accountId)).reverse().filter((r) => r.action.startsWith('webhook_endpoint.'));
      assert.deepEqual(
        rows.map((r) => [r.action, r.actor.id, r.target.id]),
        [
          ['webhook_endpoint.created', 'cli_ops', id],
          ['webhook_endpoint.secret_rotated', 'cli_ops', id],
          ['webhook_endpoint.disabled', 'cli_ops', id],
          ['webhook_endpoint.deleted', 'cli_ops', id],
        ],
      );
      assert.deepEqual(rows[0]!.changes.header_names, { after: ['X-Api-Key'] });
      assert.ok(!JSON.stringify(rows).includes('receiver-credential'));
      assert.ok(!JSON.stringify(rows).includes(created.body.secret));
    });
  });
}
