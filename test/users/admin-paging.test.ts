/**
 * A person's grants and sessions on the admin API page with sealed cursors like every admin list:
 * oldest first, each row once, and a cursor continues only the list of the person it was issued for.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { Browser, authorizePath, basic, consent, createUser, postForm, redirectParams, registerClient, signIn } from '../oauth/helpers.ts';

const REDIRECT = 'https://app.example/cb';

for (const target of databaseTargets()) {
  describe(`A person's grants and sessions, page by page (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let client: { client_id: string; client_secret: string };
    before(async () => {
      t = await startTestApp(target);
      accountId = await createAccount(t);
      client = (await registerClient(t, accountId, { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid invoices:read' })) as { client_id: string; client_secret: string };
    });
    after(() => t?.close());

    async function signInAndRedeem(userName: string) {
      const browser = new Browser(t.publicUrl);
      let page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope: 'openid invoices:read', state: 's' }));
      page = await signIn(browser, page, userName, 'correct horse battery');
      if (page.status === 200) page = await consent(browser, page);
      assert.equal(page.status, 303, page.html);
      const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code: redirectParams(page).get('code')!, redirect_uri: REDIRECT }, { authorization: basic(client.client_id, client.client_secret) });
      assert.equal(token.status, 200);
    }

    async function readAll(path: string): Promise<{ ids: string[]; pages: number; cursor: string }> {
      const ids: string[] = [];
      let after: string | null = null;
      let cursor = '';
      let pages = 0;
      do {
        const page: Awaited<ReturnType<TestApp['admin']>> = await t.admin('GET', `${path}?limit=2${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        ids.push(...page.body.data.map((r: { id: string }) => r.id));
        after = page.body.next_cursor;
        if (after) cursor = after;
        pages++;
      } while (after !== null);
      return { ids, pages, cursor };
    }

    it('grants and sessions page oldest first; a cursor of one person does not continue another', async () => {
      const ada = await createUser(t, accountId, 'ada');
      const bob = await createUser(t, accountId, 'bob');
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        await signInAndRedeem('ada');
      }
      await signInAndRedeem('bob');
      const base = `/admin/v1/accounts/${accountId}/users`;
      const sessions = await readAll(`${base}/${ada.id}/sessions`);
      const grants = await readAll(`${base}/${ada.id}/grants`);
      const { db } = t.gatehouse.database;
      const storedSessions = await db.selectFrom('oauth_sessions').select('id').where('user_id', '=', ada.id as string).where('ended_at', 'is', null).orderBy('authenticated_at').orderBy('id').execute();
      const storedGrants = await db.selectFrom('oauth_grants').select('id').where('user_id', '=', ada.id as string).where('revoked_at', 'is', null).orderBy('created_at').orderBy('id').execute();
      assert.equal(storedSessions.length, 5);
      assert.equal(storedGrants.length, 5);
      assert.deepEqual(sessions.ids, storedSessions.map((r) => r.id));
      assert.deepEqual(grants.ids, storedGrants.map((r) => r.id));
      assert.equal(sessions.pages, 3);
      const foreign = await t.admin('GET', `${base}/${bob.id}/sessions?after=${encodeURIComponent(sessions.cursor)}`);
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, 'cursor_mismatch');
      const crossed = await t.admin('GET', `${base}/${ada.id}/grants?after=${encodeURIComponent(sessions.cursor)}`);
      assert.equal(crossed.status, 400, 'a sessions cursor does not continue the grants');
    });
  });
}
