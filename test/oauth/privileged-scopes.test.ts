import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { json } from '../helpers/http.ts';
import { issueCode } from '../../src/oauth/grants.ts';
import { PRIVILEGED_SCOPES, SCOPE_NAMES } from '../../src/oauth/scopes.ts';
import { scimClient, GROUP, PATCH, USER, type ScimClient } from '../scim/scim-client.ts';
import { Browser, authorizePath, basic, consent, countRows, postForm, redirectParams, registerClient, signIn } from './helpers.ts';

const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery';

for (const target of databaseTargets()) {
  describe(`OAuth: privileged scopes reach a person only through a role (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    /** A client of the code flow that may be given every scope, privileged ones included. */
    const codeClient = (accountId: string) =>
      registerClient(t, accountId, { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: SCOPE_NAMES.join(' ') });

    const person = async (c: ScimClient, userName: string, password = PASSWORD): Promise<string> => {
      const created = await c.call('POST', '/Users', { schemas: [USER], userName, password });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    };

    const passwordHashOf = async (userId: string) =>
      (await t.gatehouse.database.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow()).password_hash;

    /** Signs in as `userName` asking for `scope`; returns the page after sign-in and the browser. */
    async function signInAsking(client: { client_id: string }, userName: string, scope: string) {
      const browser = new Browser(t.publicUrl);
      const page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope, state: 'st' }));
      assert.equal(page.status, 200);
      return { browser, next: await signIn(browser, page, userName, PASSWORD) };
    }

    const redeem = (client: { client_id: string; client_secret: string }, code: string) =>
      postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, { authorization: basic(client.client_id, client.client_secret) });

    const setPassword = (token: string, userId: string, password: string) =>
      fetch(`${t.publicUrl}/scim/v2/Users/${userId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: password }] }),
      });

    it('the list: scim, webhooks:manage, invoices:write, payouts:write and audit:read are privileged; the read and OpenID Connect scopes are not', () => {
      assert.deepEqual([...PRIVILEGED_SCOPES].sort(), ['audit:read', 'invoices:write', 'payouts:write', 'scim', 'webhooks:manage']);
      assert.deepEqual(SCOPE_NAMES.filter((s) => !PRIVILEGED_SCOPES.has(s)).sort(), ['email', 'events:read', 'invoices:read', 'ledger:read', 'openid', 'payouts:read', 'phone', 'profile']);
    });

    it('an account without role mappings: a person asking for scim and payouts:write is given neither, and cannot set another user’s password through SCIM', async () => {
      const c = await scimClient(t, 'No roles');
      const ada = await person(c, 'ada@example.com');
      const victim = await person(c, 'victim@example.com', 'the victim’s own password');
      const client = await codeClient(c.accountId);

      const flow = await signInAsking(client, 'ada@example.com', 'invoices:read scim payouts:write');
      assert.equal(flow.next.status, 200);
      assert.match(flow.next.html, /See your invoices/);
      assert.doesNotMatch(flow.next.html, /Provision users and groups/);
      assert.doesNotMatch(flow.next.html, /Send payouts/);
      const allowed = await consent(flow.browser, flow.next);
      assert.equal(allowed.status, 303);
      const tokens = await redeem(client, redirectParams(allowed).get('code')!);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.equal(tokens.body.scope, 'invoices:read');
      const stored = await t.gatehouse.database.db.selectFrom('access_tokens').select('scope').where('user_id', '=', ada).execute();
      assert.deepEqual(stored.map((r) => r.scope), ['invoices:read']);

      const before = await passwordHashOf(victim);
      const refused = await setPassword(tokens.body.access_token, victim, 'now I know it');
      assert.equal(refused.status, 403);
      assert.match(refused.headers.get('www-authenticate') ?? '', /insufficient_scope/);
      const body = await json(refused);
      assert.equal(body.status, '403');
      assert.equal(await passwordHashOf(victim), before, 'the victim’s password is unchanged');

      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refreshed.status, 200);
      assert.equal(refreshed.body.scope, 'invoices:read');
    });

    it('asking only for privileged scopes → access_denied with state, no code; a code or grant that recorded scim yields a token without it', async () => {
      const c = await scimClient(t, 'No roles either');
      const ada = await person(c, 'ada@example.com');
      const client = await codeClient(c.accountId);
      const codesBefore = await countRows(t, 'oauth_codes');
      const { next } = await signInAsking(client, 'ada@example.com', 'scim webhooks:manage');
      assert.equal(next.status, 303);
      const denied = redirectParams(next);
      assert.equal(denied.get('error'), 'access_denied');
      assert.equal(denied.get('state'), 'st');
      assert.equal(denied.get('code'), null);
      assert.equal(await countRows(t, 'oauth_codes'), codesBefore);

      // A code recorded with scim (e.g. consented to before this rule): redeemed without it.
      const db = t.gatehouse.database.db;
      const recorded = (scope: string) =>
        issueCode(db, { accountId: c.accountId, clientId: client.client_id, userId: ada, redirectUri: REDIRECT, scope, codeChallenge: null, now: t.clock.now(), ttlSeconds: 30 });
      const mixed = await redeem(client, await recorded('invoices:read scim'));
      assert.equal(mixed.status, 200);
      assert.equal(mixed.body.scope, 'invoices:read');
      const grant = await db.selectFrom('oauth_grants').select('scope').where('user_id', '=', ada).executeTakeFirstOrThrow();
      assert.equal(grant.scope, 'invoices:read scim', 'the grant keeps what was consented; each token is bounded again');
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: mixed.body.refresh_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refreshed.body.scope, 'invoices:read');
      const onlyScim = await redeem(client, await recorded('scim'));
      assert.equal(onlyScim.status, 400);
      assert.equal(onlyScim.body.error, 'invalid_scope');
      assert.equal(onlyScim.body.access_token, undefined);
      const stored = await db.selectFrom('access_tokens').select('scope').where('user_id', '=', ada).execute();
      assert.ok(stored.every((r) => !r.scope.split(' ').includes('scim')), JSON.stringify(stored));
    });

    it('a role that names scim gives it to its holders: their token provisions users; people without that role still get none', async () => {
      const c = await scimClient(t, 'With roles');
      const admin = await person(c, 'it-admin@example.com');
      const clerk = await person(c, 'clerk@example.com');
      const victim = await person(c, 'someone@example.com');
      assert.equal((await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'IT admins', members: [{ value: admin }] })).status, 201);
      assert.equal((await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Clerks', members: [{ value: clerk }] })).status, 201);
      const roles = [
        { name: 'provisioner', scopes: ['scim', 'invoices:read'], groups: [{ displayName: 'IT admins' }] },
        { name: 'clerk', scopes: ['invoices:read'], groups: [{ displayName: 'Clerks' }] },
      ];
      for (const role of roles) assert.equal((await t.admin('POST', `/admin/v1/accounts/${c.accountId}/roles`, role)).status, 201);
      const client = await codeClient(c.accountId);

      const flow = await signInAsking(client, 'it-admin@example.com', 'invoices:read scim');
      assert.match(flow.next.html, /Provision users and groups/);
      const tokens = await redeem(client, redirectParams(await consent(flow.browser, flow.next)).get('code')!);
      assert.equal(tokens.body.scope, 'invoices:read scim');
      const before = await passwordHashOf(victim);
      const reset = await setPassword(tokens.body.access_token, victim, 'a reset by IT');
      assert.equal(reset.status, 200);
      assert.notEqual(await passwordHashOf(victim), before);

      const clerkFlow = await signInAsking(client, 'clerk@example.com', 'invoices:read scim');
      assert.doesNotMatch(clerkFlow.next.html, /Provision users and groups/);
      const clerkTokens = await redeem(client, redirectParams(await consent(clerkFlow.browser, clerkFlow.next)).get('code')!);
      assert.equal(clerkTokens.body.scope, 'invoices:read');
      assert.equal((await setPassword(clerkTokens.body.access_token, victim, 'not allowed')).status, 403);
    });

    it('roles bound API scopes, never the OpenID Connect ones: a person in no mapped group still signs in with openid, profile and email, and gets no API scope', async () => {
      const c = await scimClient(t, 'First role');
      await person(c, 'auditor@example.com');
      await person(c, 'everyone-else@example.com');
      const role = { name: 'auditors', scopes: ['audit:read'], groups: [{ displayName: 'Auditors' }] };
      assert.equal((await t.admin('POST', `/admin/v1/accounts/${c.accountId}/roles`, role)).status, 201);
      const client = await codeClient(c.accountId);
      const flow = await signInAsking(client, 'everyone-else@example.com', 'openid profile email invoices:read');
      const tokens = await redeem(client, redirectParams(await consent(flow.browser, flow.next)).get('code')!);
      assert.equal(tokens.status, 200, JSON.stringify(tokens.body));
      assert.equal(tokens.body.scope, 'openid profile email', 'identity, and no API scope no role of theirs names');
      assert.equal(typeof tokens.body.id_token, 'string');
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      const only = await signInAsking(client, 'everyone-else@example.com', 'invoices:read');
      const denied = redirectParams(only.next);
      assert.equal(denied.get('error'), 'access_denied');
      assert.match(denied.get('error_description')!, /none of their roles names them/);
    });

    it('client credentials stay bounded by the registration alone: a client registered with scim gets it', async () => {
      const c = await scimClient(t, 'Provisioning job');
      const job = await registerClient(t, c.accountId, { grant_types: ['client_credentials'], scope: 'scim' });
      const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(job.client_id, job.client_secret) });
      assert.equal(issued.status, 200);
      assert.equal(issued.body.scope, 'scim');
      const list = await fetch(`${t.publicUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${issued.body.access_token}` } });
      assert.equal(list.status, 200);
    });
  });
}
