/**
 * Each category of action writes its audit record with the right actor, target and changes:
 * the operator, OAuth sign-in, consent, replays and revocation, SCIM users and groups (with the
 * interface's attribution rule: deactivation keeps the person's name on their history, deletion
 * detaches it), webhook endpoints, client updates and a person's lifecycle on the admin API
 * (sign-out included); on each database.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { Browser, authorizePath, basic, consent, createUser, hiddenFields, postForm, redirectParams, registerClient, signIn } from '../oauth/helpers.ts';
import { sha256Hex } from '../../src/platform/crypto.ts';
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

    it('RFC 7009: a client revoking its refresh token ends the grant (token.revoked); the person’s consent stays remembered', async () => {
      const accountId = await createAccount(t);
      const client = await registerClient(t, accountId, { client_name: 'Ledger App', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'invoices:read' });
      const ada = await createUser(t, accountId, 'ada', PASSWORD);
      const browser = new Browser(t.publicUrl);
      const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
      let page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }));
      page = await signIn(browser, page, 'ada', PASSWORD);
      page = await consent(browser, page);
      const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: redirectParams(page).get('code')!, redirect_uri: REDIRECT, code_verifier: verifier }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(token.status, 200, JSON.stringify(token.body));
      step();
      const revoked = await postForm(`${t.publicUrl}/revoke`, { token: token.body.refresh_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(revoked.status, 200);
      const rows = await trail(accountId);
      assert.deepEqual([rows[0]!.action, rows[0]!.actor.type, rows[0]!.target.type], ['token.revoked', 'client', 'grant']);
      assert.ok(!rows.some((r) => r.action === 'consent.withdrawn'));
      const remembered = await db().selectFrom('oauth_consents').select('scope').where('user_id', '=', ada.id as string).where('client_id', '=', client.client_id as string).execute();
      assert.deepEqual(remembered, [{ scope: 'invoices:read' }]);
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

    it('webhook endpoints: created, updated (before and after, header values never), secret rotated, disabled, enabled, deleted; what changes nothing records nothing', async () => {
      const accountId = await createAccount(t);
      const token = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'], clientId: 'cli_ops' });
      const created = await api(t, token, 'POST', '/v1/webhook_endpoints', { url: 'https://hooks.example.com/in', event_types: ['payout.created'], headers: { 'X-Api-Key': 'receiver-credential' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      step();
      const id = created.body.id as string;
      const updated = await api(t, token, 'POST', `/v1/webhook_endpoints/${id}`, { event_types: ['payout.created', 'payout.paid'], headers: { 'X-Api-Key': 'rotated-credential' } });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      step();
      const unchanged = await api(t, token, 'POST', `/v1/webhook_endpoints/${id}`, { url: 'https://hooks.example.com/in', event_types: ['payout.paid', 'payout.created'].reverse() });
      assert.equal(unchanged.status, 200);
      assert.equal(unchanged.body.updated_at, updated.body.updated_at, 'an update that changes nothing writes nothing');
      step();
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/rotate_secret`, {})).status, 200);
      step();
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/disable`)).status, 200);
      step();
      const again = await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/disable`);
      assert.equal(again.status, 200);
      assert.equal(again.body.status, 'disabled');
      step();
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/enable`)).status, 200);
      step();
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}/enable`)).status, 200);
      step();
      assert.equal((await api(t, token, 'DELETE', `/v1/webhook_endpoints/${id}`)).status, 204);
      const rows = (await trail(accountId)).reverse().filter((r) => r.action.startsWith('webhook_endpoint.'));
      assert.deepEqual(
        rows.map((r) => [r.action, r.actor.id, r.target.id]),
        [
          ['webhook_endpoint.created', 'cli_ops', id],
          ['webhook_endpoint.updated', 'cli_ops', id],
          ['webhook_endpoint.secret_rotated', 'cli_ops', id],
          ['webhook_endpoint.disabled', 'cli_ops', id],
          ['webhook_endpoint.enabled', 'cli_ops', id],
          ['webhook_endpoint.deleted', 'cli_ops', id],
        ],
      );
      assert.deepEqual(rows[0]!.changes.header_names, { after: ['X-Api-Key'] });
      assert.deepEqual(rows[1]!.changes, {
        event_types: { before: ['payout.created'], after: ['payout.created', 'payout.paid'] },
        header_values: { before: '[redacted]', after: '[redacted]' },
      });
      assert.deepEqual(rows[3]!.changes, { enabled: { before: true, after: false }, disabled_reason: { before: null, after: 'manual' } });
      assert.deepEqual(rows[4]!.changes, { enabled: { before: false, after: true }, disabled_reason: { before: 'manual', after: null } });
      const stored = JSON.stringify(await records(accountId));
      for (const secret of ['receiver-credential', 'rotated-credential', created.body.secret as string]) assert.ok(!stored.includes(secret), secret);
    });

    it('webhook endpoint URLs in the trail: the host and first path segment, the query parameters by name; the rest of the path and a bare query token redacted, and changes to them recorded as changed', async () => {
      const accountId = await createAccount(t);
      const token = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'] });
      const url = 'https://hooks.example.com/services/T0001/B0001/PATHSECRETxyz?sk_live_QUERYNOEQUALS&v=2';
      const created = await api(t, token, 'POST', '/v1/webhook_endpoints', { url, event_types: ['payout.created'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.url, url, 'its owner reads the URL deliveries go to');
      const id = created.body.id as string;
      step();
      const rotatedPath = 'https://hooks.example.com/services/T0001/B0001/ROTATEDxyz?sk_live_QUERYNOEQUALS&v=2';
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}`, { url: rotatedPath })).status, 200);
      step();
      const moved = 'https://hooks.example.net:8443/services/T0001/B0001/ROTATEDxyz?sk_live_OTHER&v=2';
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}`, { url: moved })).status, 200);
      step();
      assert.equal((await api(t, token, 'POST', `/v1/webhook_endpoints/${id}`, { url: 'https://hooks.example.net:8443/in' })).status, 200);
      const rows = (await trail(accountId)).reverse().filter((r) => r.action.startsWith('webhook_endpoint.'));
      assert.deepEqual(
        rows.map((r) => [r.action, r.changes.url, r.changes.url_path, r.changes.url_query_values]),
        [
          ['webhook_endpoint.created', { after: 'https://hooks.example.com/services/[redacted]?[redacted]&v=[redacted]' }, { after: '[redacted]' }, { after: '[redacted]' }],
          // Only the redacted part of the path changed: the URL reads the same, and says so.
          ['webhook_endpoint.updated', undefined, { before: '[redacted]', after: '[redacted]' }, undefined],
          ['webhook_endpoint.updated', { before: 'https://hooks.example.com/services/[redacted]?[redacted]&v=[redacted]', after: 'https://hooks.example.net:8443/services/[redacted]?[redacted]&v=[redacted]' }, undefined, { before: '[redacted]', after: '[redacted]' }],
          ['webhook_endpoint.updated', { before: 'https://hooks.example.net:8443/services/[redacted]?[redacted]&v=[redacted]', after: 'https://hooks.example.net:8443/in' }, { before: '[redacted]', after: null }, { before: '[redacted]', after: null }],
        ],
      );
      const stored = JSON.stringify(await records(accountId));
      for (const secret of ['PATHSECRETxyz', 'ROTATEDxyz', 'QUERYNOEQUALS', 'sk_live_OTHER', 'T0001', 'B0001']) assert.ok(!stored.includes(secret), secret);
    });

    it('client PATCH (no secret, even one issued) and the person on the admin API: grant and session revoked, sign-out, password reset, deactivate, reactivate, delete; the chain verifies', async () => {
      const accountId = await createAccount(t, 'Lifecycle');
      const client = await registerClient(t, accountId, { client_name: 'Books', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid invoices:read' });
      const cid = client.client_id as string;
      step();
      const renamed = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${cid}`, { client_name: 'Books v2', require_pkce: true });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.client_secret, undefined);
      step();
      const open = await registerClient(t, accountId, { client_name: 'Native', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], token_endpoint_auth_method: 'none', scope: 'invoices:read' });
      step();
      const confidential = await t.admin('PATCH', `/admin/v1/accounts/${accountId}/clients/${open.client_id}`, { token_endpoint_auth_method: 'client_secret_basic' });
      assert.equal(confidential.status, 200, JSON.stringify(confidential.body));
      const issued = confidential.body.client_secret as string;
      assert.ok(issued, 'moving to a secret method issues a secret, shown once');
      step();
      const ada = await createUser(t, accountId, 'ada', PASSWORD);
      const userId = ada.id as string;
      const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
      async function signedIn() {
        const browser = new Browser(t.publicUrl);
        let page = await browser.get(authorizePath({ response_type: 'code', client_id: cid, redirect_uri: REDIRECT, scope: 'openid invoices:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }));
        page = await signIn(browser, page, 'ada', PASSWORD);
        if (page.status === 200) page = await consent(browser, page);
        assert.equal(page.status, 303, page.html);
        const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: redirectParams(page).get('code')!, redirect_uri: REDIRECT, code_verifier: verifier }, { authorization: basic(cid, client.client_secret) });
        assert.equal(token.status, 200, JSON.stringify(token.body));
        step();
        return { browser, accessToken: token.body.access_token as string };
      }
      const first = await signedIn();
      const second = await signedIn();
      const grant = await db().selectFrom('access_tokens').select('grant_id').where('token_digest', '=', sha256Hex(first.accessToken)).executeTakeFirstOrThrow();
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${userId}/grants/${grant.grant_id}`)).status, 204);
      step();
      const sessions = (await t.admin('GET', `/admin/v1/accounts/${accountId}/users/${userId}/sessions`)).body.data as Array<{ id: string }>;
      assert.equal(sessions.length, 2);
      const [revokedSession, signedOutSession] = [sessions[0]!.id, sessions[1]!.id];
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${userId}/sessions/${revokedSession}`)).status, 204);
      step();
      // RP-initiated logout without a hint: Ada confirms on the page.
      const page = await second.browser.get(`/logout?${new URLSearchParams({ client_id: cid })}`);
      assert.equal(page.status, 200, page.html);
      const out = await second.browser.post('/logout/confirm', { ...hiddenFields(page.html), decision: 'sign_out' });
      assert.equal(out.status, 200, out.html);
      step();
      const reset = await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${userId}/password`, { password: 'a much better passphrase' });
      assert.equal(reset.status, 200);
      step();
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${userId}/deactivate`)).status, 200);
      step();
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${accountId}/users/${userId}/reactivate`)).status, 200);
      step();

      const wired = ['client.updated', 'grant.revoked', 'consent.withdrawn', 'session.revoked', 'session.ended', 'user.password_reset', 'user.deactivated', 'user.reactivated', 'user.deleted'];
      // grant.revoked and consent.withdrawn share their instant; ids of one millisecond fall either way.
      let rows = (await trail(accountId))
        .reverse()
        .filter((r) => wired.includes(r.action))
        .sort((a, b) => (a.occurred_at as string).localeCompare(b.occurred_at as string) || wired.indexOf(a.action as string) - wired.indexOf(b.action as string));
      assert.deepEqual(
        rows.map((r) => [r.action, r.actor.type, r.actor.id, r.target.type, r.target.id]),
        [
          ['client.updated', 'admin', 'admin_api', 'client', cid],
          ['client.updated', 'admin', 'admin_api', 'client', open.client_id],
          ['grant.revoked', 'admin', 'admin_api', 'grant', grant.grant_id],
          ['consent.withdrawn', 'admin', 'admin_api', 'client', cid],
          ['session.revoked', 'admin', 'admin_api', 'session', revokedSession],
          ['session.ended', 'user', userId, 'session', signedOutSession],
          ['user.password_reset', 'admin', 'admin_api', 'user', userId],
          ['user.deactivated', 'admin', 'admin_api', 'user', userId],
          ['user.reactivated', 'admin', 'admin_api', 'user', userId],
        ],
      );
      assert.deepEqual(rows[0]!.changes, { client_name: { before: 'Books', after: 'Books v2' }, require_pkce: { before: false, after: true } });
      // Its name has `token` in it, but it names a method, not a credential: kept in clear.
      assert.deepEqual(rows[1]!.changes.token_endpoint_auth_method, { before: 'none', after: 'client_secret_basic' });
      assert.deepEqual(rows[1]!.changes.client_secret, { before: null, after: '[redacted]' }, 'a secret issued is recorded as issued, never in clear');
      assert.deepEqual(rows[2]!.changes, { client_id: { after: cid }, revoked: { before: false, after: true } });
      assert.deepEqual(rows[3]!.changes, { user_id: { after: userId }, scope: { before: 'invoices:read openid', after: null } }, 'the consent the grant was given under');
      assert.deepEqual(rows[4]!.changes, { ended: { before: false, after: true } });
      assert.deepEqual(rows[5]!.actor.client, { id: cid, display: 'Books v2' });
      assert.deepEqual(rows[6]!.changes, { password: { before: '[redacted]', after: '[redacted]' } });
      assert.deepEqual(rows[7]!.changes, { active: { before: true, after: false } });
      assert.deepEqual(rows[8]!.changes, { active: { before: false, after: true } });
      const remembered = await db().selectFrom('oauth_consents').selectAll().where('user_id', '=', userId).where('client_id', '=', cid).execute();
      assert.deepEqual(remembered, [], 'withdrawn: the next authorization asks her again');
      const stored = JSON.stringify(await records(accountId));
      for (const secret of [issued, client.client_secret as string, PASSWORD, 'a much better passphrase']) assert.ok(!stored.includes(secret), 'no secret reaches the trail');
      await t.gatehouse.services.audit.sealer.sealPending({ forceCheckpoint: true });

      // Deleting on the admin API detaches exactly as SCIM DELETE does.
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}/users/${userId}`)).status, 204);
      rows = await trail(accountId);
      assert.deepEqual([rows[0]!.action, rows[0]!.actor.type, rows[0]!.target.id, rows[0]!.changes], ['user.deleted', 'admin', userId, null]);
      const aboutAda = rows.filter((r) => r.target.id === userId && r.action !== 'user.deleted');
      assert.ok(aboutAda.length >= 5);
      for (const r of aboutAda) {
        assert.equal(r.changes, null, r.action);
        assert.equal(r.detached, true, r.action);
      }
      assert.equal(rows.find((r) => r.action === 'session.ended')!.actor.display, null, 'her sign-out no longer names her');
      await t.gatehouse.services.audit.sealer.sealPending();
      const report = await t.gatehouse.services.audit.verifier.verify(accountId);
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.ok(report.chains[0]!.detached >= 5);
    });
  });
}
