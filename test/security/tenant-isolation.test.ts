/**
 * Tenant isolation: every credential of account A, against every object of account B, on every
 * endpoint family. Another account's object answers exactly like a missing one (404 in the
 * protocol's own shape; `active: false` at introspection; a no-op 200 at revocation, RFC 7009
 * §2.2), never 403 and never a detail of the object; and nothing of B changes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { basic, postForm } from '../oauth/helpers.ts';
import { stateDigest } from '../fuzz/support.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { REDIRECT, VERIFIER, createTenant, type Tenant } from './flows.ts';
import { PATCH, USER, GROUP } from '../scim/scim-client.ts';

for (const target of databaseTargets()) {
  describe(`security: tenant isolation (${target.kind})`, () => {
    let t: TestApp;
    let a: Tenant;
    let b: Tenant;

    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
      a = await createTenant(t, 'Alpha');
      b = await createTenant(t, 'Beta');
    });
    after(() => t.close());

    /** The answer says nothing of B's object: none of its identifying values appear. */
    function assertReveals(nothingOf: Tenant, text: string, context: string) {
      for (const value of [nothingOf.accountId, nothingOf.endpoint.secret, 'Beta', 'beta@example.com', nothingOf.userName]) {
        assert.ok(!text.includes(value), `${context}: the answer reveals ${value}: ${text.slice(0, 300)}`);
      }
    }

    it('/v1: A\'s token on B\'s invoices, payouts, events and webhook endpoints → 404 problem+json, B unchanged', async () => {
      const before = await stateDigest(t.gatehouse.database.db, ['invoices', 'payouts', 'ledger_entries', 'balances', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_queue']);
      const e = b.endpoint.id;
      const calls: Array<[string, string, unknown?]> = [
        ['GET', `/v1/invoices/${b.invoiceId}`],
        ['POST', `/v1/invoices/${b.openInvoiceId}/settle`],
        ['GET', `/v1/payouts/${b.payoutId}`],
        ['GET', `/v1/events/${b.eventId}`],
        ['POST', `/v1/events/${b.eventId}/redeliver`],
        ['GET', `/v1/webhook_endpoints/${e}`],
        ['POST', `/v1/webhook_endpoints/${e}`, { url: 'http://127.0.0.1:9/stolen', event_types: ['*'] }],
        ['POST', `/v1/webhook_endpoints/${e}/disable`],
        ['POST', `/v1/webhook_endpoints/${e}/enable`],
        ['POST', `/v1/webhook_endpoints/${e}/rotate_secret`, {}],
        ['GET', `/v1/webhook_endpoints/${e}/deliveries`],
        ['POST', `/v1/webhook_endpoints/${e}/recover`, { since: '2000-01-01T00:00:00Z' }],
        ['DELETE', `/v1/webhook_endpoints/${e}`],
      ];
      for (const [method, path, body] of calls) {
        const response = await a.api(method, path, body);
        const context = `${method} ${path}`;
        assert.equal(response.status, 404, `${context}: ${response.status} ${JSON.stringify(response.body)}`);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, context);
        assert.match(response.body.code, /_not_found$/, context);
        assertReveals(b, JSON.stringify(response.body), context);
      }
      assert.deepEqual(await stateDigest(t.gatehouse.database.db, ['invoices', 'payouts', 'ledger_entries', 'balances', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_queue']), before);
    });

    it('/v1 lists: A\'s pages hold none of B\'s invoices, payouts, ledger entries, events or endpoints; B\'s cursor is refused as foreign', async () => {
      for (const path of ['/v1/invoices', '/v1/payouts', '/v1/ledger/entries', '/v1/events', '/v1/webhook_endpoints']) {
        const page = await a.api('GET', `${path}?limit=100`);
        assert.equal(page.status, 200, path);
        assert.ok(page.body.data.length > 0, `${path}: A sees its own rows`);
        assertReveals(b, JSON.stringify(page.body), path);
        for (const id of [b.invoiceId, b.openInvoiceId, b.payoutId, b.eventId, b.endpoint.id]) assert.ok(!JSON.stringify(page.body).includes(id), `${path} lists ${id}`);
        const theirs = await b.api('GET', `${path}?limit=1`);
        if (theirs.body.next_cursor) {
          const foreign = await a.api('GET', `${path}?limit=1&after=${encodeURIComponent(theirs.body.next_cursor)}`);
          assert.equal(foreign.status, 400, path);
          assert.equal(foreign.body.code, 'cursor_foreign', path);
        }
      }
    });

    it('/v1 deliveries: A\'s endpoint filtered by B\'s event id lists nothing of B', async () => {
      const deliveries = await a.api('GET', `/v1/webhook_endpoints/${a.endpoint.id}/deliveries?limit=100&event_id=${b.eventId}`);
      assert.equal(deliveries.status, 200);
      assert.deepEqual(deliveries.body.data, []);
      const events = await a.api('GET', `/v1/events?limit=100&type=invoice.settled`);
      assert.ok(!JSON.stringify(events.body).includes(b.eventId));
    });

    it('SCIM: A\'s SCIM token on B\'s users and groups → 404 SCIM Error; filters and memberships never reach B', async () => {
      const before = await stateDigest(t.gatehouse.database.db, ['users', 'scim_groups', 'scim_group_members', 'scim_user_values']);
      const replaceUser = { schemas: [USER], userName: 'beta@example.com', active: false };
      const patch = { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] };
      for (const [method, path, body] of [
        ['GET', `/Users/${b.scimUserId}`], ['PUT', `/Users/${b.scimUserId}`, replaceUser], ['PATCH', `/Users/${b.scimUserId}`, patch], ['DELETE', `/Users/${b.scimUserId}`],
        ['GET', `/Groups/${b.scimGroupId}`], ['PUT', `/Groups/${b.scimGroupId}`, { schemas: [GROUP], displayName: 'x' }],
        ['PATCH', `/Groups/${b.scimGroupId}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: a.scimUserId }] }] }], ['DELETE', `/Groups/${b.scimGroupId}`],
      ] as Array<[string, string, unknown?]>) {
        const response = await a.scim(method, path, body);
        const context = `${method} ${path}`;
        assert.equal(response.status, 404, `${context}: ${JSON.stringify(response.body)}`);
        assert.deepEqual(response.body.schemas, ['urn:ietf:params:scim:api:messages:2.0:Error'], context);
        assertReveals(b, JSON.stringify(response.body), context);
      }
      for (const kind of ['Users', 'Groups']) {
        const found = await a.scim('GET', `/${kind}?filter=${encodeURIComponent(`id eq "${kind === 'Users' ? b.scimUserId : b.scimGroupId}"`)}`);
        assert.equal(found.body.totalResults, 0, kind);
        const all = await a.scim('GET', `/${kind}`);
        assertReveals(b, JSON.stringify(all.body), `GET /${kind}`);
      }
      // Adding B's user to A's group, or A's user to B's group, by id.
      const cross = await a.scim('PATCH', `/Groups/${a.scimGroupId}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: b.scimUserId }] }] });
      // Another account's user is no user of this one: left out, as a deleted one is (docs/SCIM.md).
      assert.equal(cross.status, 204, `cross-account member: ${cross.status} ${JSON.stringify(cross.body)}`);
      const members = await a.scim('GET', `/Groups/${a.scimGroupId}`);
      assert.ok(!JSON.stringify(members.body).includes(b.scimUserId), 'B\'s user became a member of A\'s group');
      assert.deepEqual(await stateDigest(t.gatehouse.database.db, ['users', 'scim_groups', 'scim_group_members', 'scim_user_values']), before);
      // An OAuth access token of A with the scim scope does not reach B either; nor does B's SCIM token reach A.
      const scopedToken = await mintAccessToken(t, { accountId: a.accountId, scopes: ['scim'] });
      const viaOAuth = await fetch(`${t.publicUrl}/scim/v2/Users/${b.scimUserId}`, { headers: { authorization: `Bearer ${scopedToken}` } });
      assert.equal(viaOAuth.status, 404);
      assertReveals(b, await viaOAuth.text(), 'OAuth token with scim');
      const bOnA = await b.scim('GET', `/Users/${a.scimUserId}`);
      assert.equal(bOnA.status, 404);
    });

    it('OAuth: A\'s client introspects B\'s tokens → active:false only; revoking them is a no-op; B\'s refresh token and code are invalid_grant for A', async () => {
      const auth = { authorization: basic(a.client.client_id, a.client.client_secret) };
      for (const token of [b.userTokens.access_token, b.userTokens.refresh_token, b.clientToken, b.token]) {
        const introspected = await postForm(`${t.publicUrl}/introspect`, { token }, auth);
        assert.equal(introspected.status, 200);
        assert.deepEqual(introspected.body, { active: false });
        const revoked = await postForm(`${t.publicUrl}/revoke`, { token }, auth);
        assert.equal(revoked.status, 200);
      }
      // Still valid for B after A's attempts.
      for (const token of [b.userTokens.access_token, b.clientToken, b.token]) {
        assert.equal((await fetch(`${t.publicUrl}/v1/invoices?limit=1`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
      }
      const refresh = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: b.userTokens.refresh_token }, auth);
      assert.equal(refresh.status, 400);
      assert.equal(refresh.body.error, 'invalid_grant');
      const code = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: b.userTokens.code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, auth);
      assert.equal(code.status, 400);
      assert.equal(code.body.error, 'invalid_grant');
      // B's refresh token still works for B: another client's attempt revoked nothing.
      const own = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: b.userTokens.refresh_token }, { authorization: basic(b.client.client_id, b.client.client_secret) });
      assert.equal(own.status, 200, JSON.stringify(own.body));
      // A client id of B with A's secret, and A's id in the body beside B's Basic credentials.
      const mixed = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(b.client.client_id, a.client.client_secret) });
      assert.equal(mixed.status, 401);
      assert.equal(mixed.body.error, 'invalid_client');
    });

    it('sign-in: B\'s user cannot sign in through A\'s client, and B\'s session does not carry over to A\'s client', async () => {
      const { Browser, authorizePath, signIn } = await import('../oauth/helpers.ts');
      const browser = new Browser(t.publicUrl);
      const query = { response_type: 'code', client_id: a.client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' };
      const page = await browser.get(authorizePath(query));
      const result = await signIn(browser, page, b.userName, b.password);
      assert.equal(result.status, 401);
      browser.cookies.set('gh_session', b.session);
      const again = await browser.get(authorizePath(query));
      assert.equal(again.status, 200, 'a session of B must not be accepted for A\'s client');
      assert.match(again.html, /action="\/authorize\/login"/);
    });
  });
}
