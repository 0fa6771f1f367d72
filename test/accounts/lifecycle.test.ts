/**
 * An account's lifecycle on the admin API: every admin list pages with sealed cursors
 * (accounts, clients, SCIM tokens, roles); PATCH changes the name and the sign-in branding
 * (logo as a checked data: URI, colour as #rrggbb); DELETE closes the account: refused while it
 * holds money or pending payouts, otherwise nothing of it authenticates any more, its records
 * and audit trail are kept.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken, PNG_PIXEL } from '../helpers/fixtures.ts';
import { api, fund, ALL_SCOPES } from '../payments/api.ts';
import { basic, postForm, registerClient } from '../oauth/helpers.ts';
import { scimClient, USER } from '../scim/scim-client.ts';

for (const target of databaseTargets()) {
  describe(`Accounts: paging, update and closing (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
    });
    after(() => t?.close());

    /** Every page of an admin collection; asserts each page's shape and size. */
    async function readAll(path: string, limit: number): Promise<{ ids: string[]; pages: number }> {
      const ids: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<TestApp['admin']>> = await t.admin('GET', `${path}?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        assert.ok(page.body.data.length <= limit);
        ids.push(...page.body.data.map((row: { id?: string; client_id?: string }) => row.id ?? row.client_id));
        after = page.body.next_cursor;
        pages++;
      } while (after !== null);
      return { ids, pages };
    }

    it('GET /admin/v1/accounts pages newest first with sealed cursors; a cursor of another list is refused', async () => {
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(10);
        made.push(await createAccount(t, `Paged ${i}`));
      }
      const { ids, pages } = await readAll('/admin/v1/accounts', 2);
      assert.deepEqual(ids.slice(0, 5), [...made].reverse(), 'newest first');
      assert.equal(new Set(ids).size, ids.length, 'each account once');
      assert.ok(pages >= 3);
      const first = await t.admin('GET', '/admin/v1/accounts?limit=1');
      const clients = await t.admin('GET', `/admin/v1/accounts/${made[0]}/clients?after=${encodeURIComponent(first.body.next_cursor)}`);
      assert.equal(clients.status, 400);
      assert.match(clients.body.code, /^cursor_/);
      assert.equal((await t.admin('GET', '/admin/v1/accounts?limit=101')).body.code, 'limit_out_of_range');
    });

    it('clients, SCIM tokens and roles of an account page with cursors, each row once, and stay in their account', async () => {
      const accountId = await createAccount(t, 'Many things');
      const other = await createAccount(t, 'Other');
      const clients: string[] = [];
      const tokens: string[] = [];
      const roles: string[] = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(10);
        clients.push((await registerClient(t, accountId, { client_name: `c${i}`, grant_types: ['client_credentials'], scope: 'invoices:read' })).client_id as string);
        tokens.push((await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: `t${i}` })).body.id);
        const role = await t.admin('POST', `/admin/v1/accounts/${accountId}/roles`, { name: `role ${String.fromCharCode(101 - i)}`, scopes: ['invoices:read'], groups: [] });
        assert.equal(role.status, 201, JSON.stringify(role.body));
        roles.push(role.body.id);
      }
      await registerClient(t, other, { client_name: 'theirs', grant_types: ['client_credentials'], scope: 'invoices:read' });
      assert.deepEqual((await readAll(`/admin/v1/accounts/${accountId}/clients`, 2)).ids, [...clients].reverse());
      assert.deepEqual((await readAll(`/admin/v1/accounts/${accountId}/scim-tokens`, 2)).ids, [...tokens].reverse());
      // Roles by name: "role a" … "role e" were made in reverse order.
      assert.deepEqual((await readAll(`/admin/v1/accounts/${accountId}/roles`, 2)).ids, [...roles].reverse());
      // A cursor belongs to the account it was issued for.
      const page = await t.admin('GET', `/admin/v1/accounts/${accountId}/clients?limit=1`);
      const foreign = await t.admin('GET', `/admin/v1/accounts/${other}/clients?limit=1&after=${encodeURIComponent(page.body.next_cursor)}`);
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, 'cursor_foreign');
    });

    it('a created SCIM token and role are where their Location says: GET there shows the token as the list does (never the token), and the role', async () => {
      const accountId = await createAccount(t, 'Located');
      const other = await createAccount(t, 'Elsewhere');
      const issued = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'Okta' });
      assert.equal(issued.status, 201);
      const location = issued.headers.get('location')!;
      assert.equal(location, `/admin/v1/accounts/${accountId}/scim-tokens/${issued.body.id}`);
      const shown = await t.admin('GET', location);
      assert.equal(shown.status, 200, JSON.stringify(shown.body));
      const listed = (await t.admin('GET', `/admin/v1/accounts/${accountId}/scim-tokens`)).body.data;
      assert.deepEqual(shown.body, listed[0]);
      assert.deepEqual(shown.body, { id: issued.body.id, object: 'scim_token', description: 'Okta', created_at: issued.body.created_at, revoked_at: null });
      assert.ok(!JSON.stringify(shown.body).includes(issued.body.token), 'never the token itself');
      // No body at all: the description defaults, as the document says.
      const bare = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`);
      assert.equal(bare.status, 201, JSON.stringify(bare.body));
      assert.equal(bare.body.description, 'SCIM token');
      assert.equal((await t.admin('DELETE', location)).status, 204);
      const revoked = await t.admin('GET', location);
      assert.equal(revoked.status, 200);
      assert.equal(revoked.body.revoked_at, new Date(t.clock.now()).toISOString());
      const row = await t.gatehouse.database.db.selectFrom('scim_tokens').select(['account_id', 'revoked_at']).where('id', '=', issued.body.id).executeTakeFirstOrThrow();
      assert.deepEqual({ ...row, revoked_at: Number(row.revoked_at) }, { account_id: accountId, revoked_at: t.clock.now() });
      for (const path of [`/admin/v1/accounts/${other}/scim-tokens/${issued.body.id}`, `/admin/v1/accounts/${accountId}/scim-tokens/scimtok_00000000000000000000`]) {
        const missing = await t.admin('GET', path);
        assert.equal(missing.status, 404, path);
        assert.equal(missing.body.code, 'scim_token_not_found', path);
      }

      const role = await t.admin('POST', `/admin/v1/accounts/${accountId}/roles`, { name: 'finance', scopes: ['invoices:read'], groups: [{ displayName: 'Finance' }] });
      assert.equal(role.status, 201, JSON.stringify(role.body));
      assert.equal(role.headers.get('location'), `/admin/v1/accounts/${accountId}/roles/${role.body.id}`);
      const fetched = await t.admin('GET', role.headers.get('location')!);
      assert.equal(fetched.status, 200);
      assert.deepEqual(fetched.body, role.body);

      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}`)).status, 204);
      const closed = await t.admin('GET', location);
      assert.equal(closed.status, 404);
      assert.equal(closed.body.code, 'account_not_found');
      const roleGone = await t.admin('GET', role.headers.get('location')!);
      assert.equal(roleGone.status, 404);
      assert.equal(roleGone.body.code, 'account_not_found');
      const tombstone = await t.admin('GET', `/admin/v1/accounts/${accountId}`);
      assert.equal(tombstone.status, 200, 'the account itself is read as its tombstone');
      assert.equal(tombstone.body.closed_at, new Date(t.clock.now()).toISOString());
    });

    it('PATCH changes the name, colour and logo, records account.updated without the logo bytes; bad branding → 400', async () => {
      const accountId = await createAccount(t, 'Before');
      t.clock.set(Date.UTC(2031, 0, 2, 3, 4, 5));
      const patched = await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { name: 'Acme Ltd', brand_color: '#0B5FFF', logo: PNG_PIXEL });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.name, 'Acme Ltd');
      assert.equal(patched.body.brand_color, '#0b5fff');
      assert.equal(patched.body.logo, PNG_PIXEL);
      assert.equal(patched.body.updated_at, '2031-01-02T03:04:05.000Z');
      assert.deepEqual((await t.admin('GET', `/admin/v1/accounts/${accountId}`)).body, patched.body);
      const row = await t.gatehouse.database.db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
      assert.equal(row.brand_color, '#0b5fff');
      const audit = await t.admin('GET', `/admin/v1/audit-events?account=${accountId}&action=account.updated`);
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
      assert.equal(audit.body.data.length, 1);
      assert.deepEqual(audit.body.data[0].changes, {
        name: { before: 'Before', after: 'Acme Ltd' },
        brand_color: { before: null, after: '#0b5fff' },
        logo: { before: null, after: 'image/png, 68 bytes' },
      });

      const refused = [
        [{ brand_color: 'blue' }, 'validation_failed'],
        [{ brand_color: '#12345' }, 'validation_failed'],
        [{ logo: 'https://cdn.example/logo.png' }, 'invalid_branding'],
        [{ logo: '' }, 'invalid_branding'],
        [{ logo: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' }, 'invalid_branding'],
        [{ logo: 'data:image/png;base64,PGh0bWw+PHNjcmlwdD48L3NjcmlwdD4=' }, 'invalid_branding'],
        [{ logo: `data:image/png;base64,${Buffer.concat([Buffer.from(PNG_PIXEL.slice(22), 'base64'), Buffer.alloc(33 * 1024)]).toString('base64')}` }, 'validation_failed'],
        [{}, 'validation_failed'],
        [{ name: ' ' }, 'validation_failed'],
      ] as const;
      for (const [body, code] of refused) {
        const response = await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(response.body.code, code, JSON.stringify(response.body));
      }
      const cleared = await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { brand_color: null, logo: null });
      assert.equal(cleared.body.brand_color, null);
      assert.equal(cleared.body.logo, null);
      assert.equal(cleared.body.name, 'Acme Ltd');
      assert.equal((await t.admin('PATCH', '/admin/v1/accounts/acct_00000000000000000000', { name: 'x' })).status, 404);
    });

    it('DELETE is refused while the account holds a balance or pending payouts (409 problem+json), then closes it', async () => {
      const accountId = await createAccount(t, 'Closing');
      const token = await mintAccessToken(t, { accountId, scopes: ALL_SCOPES });
      await fund(t, token, 1_000);
      const holding = await t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
      assert.equal(holding.status, 409);
      assert.match(holding.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(holding.body.code, 'account_holds_funds');
      assert.match(holding.body.detail, /1000 EUR/);

      const payout = await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'acct-good' });
      assert.equal(payout.status, 201);
      const pending = await t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
      assert.equal(pending.status, 409);
      assert.equal(pending.body.code, 'account_has_pending_payouts');
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${accountId}`)).status, 200, 'a refused close changes nothing');

      t.clock.advance(60_000);
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      assert.equal((await api(t, token, 'GET', `/v1/payouts/${payout.body.id}`)).body.state, 'paid');
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}`)).status, 204);
      const tombstone = await t.admin('GET', `/admin/v1/accounts/${accountId}`);
      assert.equal(tombstone.status, 200);
      assert.notEqual(tombstone.body.closed_at, null);
      // The ledger and payouts are kept with the tombstone.
      const { db } = t.gatehouse.database;
      assert.equal((await db.selectFrom('payouts').select('id').where('account_id', '=', accountId).execute()).length, 1);
      assert.ok((await db.selectFrom('ledger_entries').select('id').where('account_id', '=', accountId).execute()).length >= 4);
    });

    it('a balance past 2^53 minor units is named exactly when it refuses the close (no 500)', async () => {
      const accountId = await createAccount(t, 'Large holder');
      const token = await mintAccessToken(t, { accountId, scopes: ALL_SCOPES });
      await fund(t, token, 1_000);
      const { db } = t.gatehouse.database;
      // 2^53 + 1: past what a JavaScript number holds exactly, well within a 64-bit integer.
      await db.updateTable('balances').set({ available: sql<number>`9007199254740993` }).where('account_id', '=', accountId).execute();
      const holding = await t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
      assert.equal(holding.status, 409, JSON.stringify(holding.body));
      assert.equal(holding.body.code, 'account_holds_funds');
      assert.match(holding.body.detail, /9007199254740993 EUR/);
      const stored = await db.selectFrom('balances').select(sql<string>`cast(available as text)`.as('available')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assert.equal(stored.available, '9007199254740993', 'the refused close left the balance as it was');
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${accountId}`)).status, 200);
    });

    it('closing ends every credential of the account: clients, tokens, sessions, people, SCIM tokens; its audit trail stays readable', async () => {
      const scim = await scimClient(t, 'To close');
      const { accountId } = scim;
      const person = await scim.call('POST', '/Users', { schemas: [USER], userName: 'grace@example.com', externalId: 'ext-grace', password: 'correct horse battery' });
      assert.equal(person.status, 201);
      const client = await registerClient(t, accountId, { client_name: 'Back office', grant_types: ['client_credentials'], scope: 'invoices:read' });
      const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, { authorization: basic(client.client_id as string, client.client_secret as string) });
      assert.equal(issued.status, 200);
      const accessToken = issued.body.access_token as string;
      const userToken = await mintAccessToken(t, { accountId, scopes: ['invoices:read'], clientId: client.client_id as string, userId: person.body.id as string });
      assert.equal((await api(t, accessToken, 'GET', '/v1/invoices')).status, 200);
      assert.equal((await api(t, userToken, 'GET', '/v1/invoices')).status, 200);
      const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'] });
      const endpoint = await api(t, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', event_types: ['invoice.settled'] });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      // An endpoint that would be told of another's automatic disable: closing tells nobody.
      const watcher = await api(t, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/notices', event_types: ['webhook_endpoint.disabled'] });
      assert.equal(watcher.status, 201, JSON.stringify(watcher.body));
      const other = await createAccount(t, 'Bystander');
      const otherToken = await mintAccessToken(t, { accountId: other, scopes: ['invoices:read'] });

      t.clock.advance(2_000);
      const tokenRequest = () => postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, { authorization: basic(client.client_id as string, client.client_secret as string) });
      assert.equal((await tokenRequest()).status, 200, 'the client is in the token endpoint\'s cache');
      const closed = await t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
      assert.equal(closed.status, 204, JSON.stringify(closed.body));
      const afterClose = await tokenRequest();
      assert.equal(afterClose.status, 401, 'no token for a client deleted a moment ago');
      assert.equal(afterClose.body.error, 'invalid_client');

      assert.equal((await api(t, accessToken, 'GET', '/v1/invoices')).status, 401, 'a client-credentials token of a deleted client');
      assert.equal((await api(t, userToken, 'GET', '/v1/invoices')).status, 401);
      assert.equal((await scim.call('GET', '/Users')).status, 401, 'the SCIM token is revoked');
      t.clock.advance(2_000);
      const again = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, { authorization: basic(client.client_id as string, client.client_secret as string) });
      assert.equal(again.status, 401);
      assert.equal(again.body.error, 'invalid_client');
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${accountId}`)).body.name, 'To close', 'the account itself is read as its tombstone');
      for (const path of ['/clients', '/users', '/scim-tokens', '/roles']) {
        const response = await t.admin('GET', `/admin/v1/accounts/${accountId}${path}`);
        assert.equal(response.status, 404, path);
        assert.equal(response.body.code, 'account_not_found');
      }
      assert.equal((await t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { name: 'x' })).status, 404);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}`)).status, 404);
      assert.ok(!(await t.admin('GET', '/admin/v1/accounts?limit=100')).body.data.some((a: { id: string }) => a.id === accountId));

      const { db } = t.gatehouse.database;
      assert.equal((await db.selectFrom('users').select('id').where('account_id', '=', accountId).execute()).length, 0);
      assert.equal((await db.selectFrom('oauth_clients').select('id').where('account_id', '=', accountId).execute()).length, 0);
      assert.equal((await db.selectFrom('access_tokens').select('id').where('account_id', '=', accountId).where('revoked_at', 'is', null).execute()).length, 0);
      assert.equal((await db.selectFrom('scim_tokens').select('id').where('account_id', '=', accountId).where('revoked_at', 'is', null).execute()).length, 0);
      // Its endpoints are disabled for a reason of their own, not as if their owner had disabled them.
      const disabled = await db.selectFrom('webhook_endpoints').select(['id', 'enabled', 'disabled_reason', 'updated_at']).where('account_id', '=', accountId).orderBy('id').execute();
      assert.deepEqual(
        disabled.map((e) => ({ ...e, updated_at: Number(e.updated_at) })),
        [endpoint.body.id as string, watcher.body.id as string].sort().map((id) => ({ id, enabled: 0, disabled_reason: 'account_closed', updated_at: t.clock.now() - 2_000 })),
      );
      const shown = await t.gatehouse.services.webhooks.endpoints.get(accountId, endpoint.body.id as string);
      assert.equal(shown.status, 'disabled');
      assert.equal(shown.disabled_reason, 'account_closed');
      assert.deepEqual(await db.selectFrom('events').select('type').where('account_id', '=', accountId).where('type', '=', 'webhook_endpoint.disabled').execute(), []);
      assert.deepEqual(await db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', accountId).execute(), []);
      const tombstone = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
      assert.equal(typeof tombstone.deleted_at, 'number');
      assert.equal((await api(t, otherToken, 'GET', '/v1/invoices')).status, 200, 'other accounts are untouched');

      const trail = await t.admin('GET', `/admin/v1/audit-events?account=${accountId}&limit=100`);
      assert.equal(trail.status, 200);
      const actions = trail.body.data.map((e: { action: string }) => e.action);
      assert.equal(actions[0], 'account.deleted');
      assert.ok(actions.includes('scim.user.created') && actions.includes('client.created'));
      assert.deepEqual(trail.body.data[0].changes, {
        name: { before: 'To close' },
        clients_removed: { before: 1 },
        people_removed: { before: 1 },
        scim_access_revoked: { before: 1 },
        webhook_endpoints_disabled: { before: 2 },
      });
      const created = trail.body.data.find((e: { action: string }) => e.action === 'scim.user.created');
      assert.equal(created.changes, null, "the deleted person's details are detached");
    });

    it('closing detaches the audit events stored for delivery: no name, e-mail or externalId of its people stays in their bodies', async () => {
      const scim = await scimClient(t, 'Streams its trail');
      const { accountId } = scim;
      const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage', 'audit:read'] });
      const endpoint = await api(t, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', event_types: ['audit.*'] });
      assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
      const person = await scim.call('POST', '/Users', {
        schemas: [USER],
        userName: 'lin@streams.example',
        externalId: 'ext-lin-77',
        displayName: 'Lin Streams',
        password: 'correct horse battery',
        emails: [{ value: 'lin.work@streams.example', primary: true }],
      });
      assert.equal(person.status, 201);
      const userId = person.body.id as string;
      const client = await registerClient(t, accountId, { client_name: 'Ledger app', grant_types: ['client_credentials'], scope: 'invoices:write' });
      // A change made by the person (actor), beside the ones made about them (target).
      const hers = await mintAccessToken(t, { accountId, scopes: ['invoices:write'], clientId: client.client_id as string, userId });
      assert.equal((await api(t, hers, 'POST', '/v1/invoices', { amount: 1_200, currency: 'EUR' })).status, 201);
      await t.gatehouse.services.audit.sealer.sealPending();

      const { db } = t.gatehouse.database;
      const stored = () => db.selectFrom('events').select(['type', 'payload']).where('account_id', '=', accountId).where('type', 'like', 'audit.%').execute();
      const personal = ['lin@streams.example', 'lin.work@streams.example', 'ext-lin-77', 'Lin Streams'];
      const before = await stored();
      assert.ok(before.some((e) => e.type === 'audit.scim.user.created' && e.payload.includes('ext-lin-77')), 'what was recorded about her was streamed');
      assert.ok(before.some((e) => e.type === 'audit.invoice.created' && e.payload.includes('Lin Streams')), 'her name as the actor was streamed');

      t.clock.advance(2_000);
      const closed = await t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
      assert.equal(closed.status, 204, JSON.stringify(closed.body));

      const after = await stored();
      assert.equal(after.length, before.length, 'the events stay, detached');
      for (const value of personal) assert.ok(!after.some((e) => e.payload.includes(value)), `${value} is gone from the stored events`);
      const bodies = after.map((e) => JSON.parse(e.payload) as { event: string; data: { actor: { id: string; display: string | null }; target: { id: string }; changes: unknown; detached: boolean } });
      const created = bodies.find((b) => b.event === 'audit.scim.user.created')!;
      assert.deepEqual([created.data.target.id, created.data.changes, created.data.detached], [userId, null, true]);
      const invoiced = bodies.find((b) => b.event === 'audit.invoice.created')!;
      assert.deepEqual([invoiced.data.actor.id, invoiced.data.actor.display], [userId, null], 'her id stays, her name goes');
      assert.equal(invoiced.data.detached, false, 'a record about an invoice keeps its changes');
    });
  });
}
