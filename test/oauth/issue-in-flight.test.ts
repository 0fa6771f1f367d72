/**
 * Token issue meeting the changes that end what it issues (docs/DECISIONS.md "A write locks the
 * rows it is about to refer to"): a code exchange or refresh under way when the person's password
 * is reset, the person is deactivated or the client is deleted; and administrators' changes of a
 * client or a person meeting its deletion. On PostgreSQL each race is made to happen in one order
 * (test/helpers/held-ahead.ts): another connection holds a row the issue reaches late, the issue
 * is sent and waits there, the change is sent and waits on the issue, and then the row is let go.
 * The change must then end what the issue wrote. A client's PATCH after another node rotated its
 * secret is tested on both databases: a node's cached registration must not be written back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, NEEDS_POSTGRES } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { heldAhead } from '../helpers/held-ahead.ts';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { Browser, authorizePath, basic, consent, createUser, postForm, redirectParams, registerClient, signIn } from './helpers.ts';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const REDIRECT = 'https://app.example/callback';
const PASSWORD = 'correct horse battery';

interface Party {
  accountId: string;
  client: { client_id: string; client_secret: string };
  user: { id: string };
}

async function party(t: TestApp): Promise<Party> {
  const accountId = await createAccount(t);
  const client = await registerClient(t, accountId, { client_name: 'Ledger App', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'invoices:read' });
  const user = await createUser(t, accountId, 'ada', PASSWORD);
  return { accountId, client, user };
}

const authorize = (p: Party) =>
  authorizePath({ response_type: 'code', client_id: p.client.client_id, redirect_uri: REDIRECT, scope: 'invoices:read', state: 's', code_challenge: CHALLENGE, code_challenge_method: 'S256' });

async function codeFor(t: TestApp, p: Party, browser = new Browser(t.publicUrl)): Promise<string> {
  let page = await browser.get(authorize(p));
  page = await signIn(browser, page, 'ada', PASSWORD);
  if (page.status === 200) page = await consent(browser, page);
  assert.equal(page.status, 303, page.html);
  return redirectParams(page).get('code')!;
}

const token = (t: TestApp, p: Party, form: Record<string, string>) => postForm(`${t.publicUrl}/token`, form, { authorization: basic(p.client.client_id, p.client.client_secret) });
const redeem = (t: TestApp, p: Party, code: string) => token(t, p, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER });

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('token issue meeting the end of what it issues (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!);
  });
  after(() => t?.close());
  const db = () => t.gatehouse.database.db;
  const live = async (table: 'access_tokens' | 'oauth_refresh_tokens' | 'oauth_grants', p: Party) =>
    (await db().selectFrom(table).select('id').where('client_id', '=', p.client.client_id).where('revoked_at', 'is', null).execute()).length;
  /** The code's row held, so that an exchange sent now waits there, having taken what it holds first. */
  const codeHeld = (code: string) => ({ sql: 'select 1 from oauth_codes where code_digest = $1 for update', params: [sha256Hex(code)], rows: 1 });

  it('a password reset meeting a code exchange under way waits for it, then revokes the tokens it issued', async () => {
    const p = await party(t);
    const code = await codeFor(t, p);
    const [issued, reset] = await heldAhead(t, codeHeld(code), [
      () => redeem(t, p, code),
      () => t.admin('POST', `/admin/v1/accounts/${p.accountId}/users/${p.user.id}/password`, { password: 'a new and longer passphrase' }),
    ]);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(await t.gatehouse.services.accessTokens.verify(issued.body.access_token), undefined);
    assert.deepEqual([await live('access_tokens', p), await live('oauth_refresh_tokens', p), await live('oauth_grants', p)], [0, 0, 0]);
    const refreshed = await token(t, p, { grant_type: 'refresh_token', refresh_token: issued.body.refresh_token });
    assert.equal(refreshed.status, 400);
    assert.equal(refreshed.body.error, 'invalid_grant');
  });

  it('a password changed while the old one is being checked at sign-in → 401, no session started, the failure recorded', async () => {
    const p = await party(t);
    const browser = new Browser(t.publicUrl);
    const page = await browser.get(authorize(p));
    // The change as a reset makes it, held open: the sign-in checks the old password against the row as it was.
    const [signedIn] = await heldAhead(t, { sql: "update users set password_hash = 'replaced' where id = $1", params: [p.user.id], rows: 1 }, [() => signIn(browser, page, 'ada', PASSWORD)]);
    assert.equal(signedIn.status, 401, signedIn.html.slice(0, 200));
    assert.match(signedIn.html, /Wrong username or password/);
    assert.deepEqual(await db().selectFrom('oauth_sessions').select('id').where('user_id', '=', p.user.id).execute(), []);
    const records = await db().selectFrom('audit_events').select(['action', 'changes']).where('target_id', '=', p.user.id).where('action', 'like', 'signin.%').execute();
    assert.deepEqual(records.map((r) => [r.action, JSON.parse(r.changes!)]), [['signin.failed', { reason: { after: 'user_changed' } }]]);
  });

  it('a code asked for under a session being ended → access_denied to the redirect URI, no code issued', async () => {
    const p = await party(t);
    const browser = new Browser(t.publicUrl);
    await codeFor(t, p, browser);
    const codes = async () => (await db().selectFrom('oauth_codes').select('code_digest').where('user_id', '=', p.user.id).execute()).length;
    const before = await codes();
    // The end of the person's sessions as a deactivation or sign-out makes it, held open.
    const [asked] = await heldAhead(t, { sql: 'update oauth_sessions set ended_at = 1 where user_id = $1 and ended_at is null', params: [p.user.id], rows: 1 }, [() => browser.get(authorize(p))]);
    assert.equal(asked.status, 302, asked.html.slice(0, 200));
    const answer = redirectParams(asked);
    assert.deepEqual([answer.get('error'), answer.get('code'), answer.get('state')], ['access_denied', null, 's']);
    assert.equal(await codes(), before);
  });

  it('a deactivation meeting a refresh under way waits for it, then revokes what it issued; reactivating brings none of it back', async () => {
    const p = await party(t);
    const first = await redeem(t, p, await codeFor(t, p));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const refreshRow = await db().selectFrom('oauth_refresh_tokens').select('id').where('client_id', '=', p.client.client_id).executeTakeFirstOrThrow();
    const [refreshed, deactivated] = await heldAhead(t, { sql: 'select 1 from oauth_refresh_tokens where id = $1 for update', params: [refreshRow.id], rows: 1 }, [
      () => token(t, p, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token }),
      () => t.admin('POST', `/admin/v1/accounts/${p.accountId}/users/${p.user.id}/deactivate`),
    ]);
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    assert.equal(deactivated.body.active, false);
    assert.equal((await t.admin('POST', `/admin/v1/accounts/${p.accountId}/users/${p.user.id}/reactivate`)).status, 200);
    assert.equal(await t.gatehouse.services.accessTokens.verify(refreshed.body.access_token), undefined);
    assert.deepEqual([await live('access_tokens', p), await live('oauth_refresh_tokens', p), await live('oauth_grants', p)], [0, 0, 0]);
  });

  it('deleting the client meeting a code exchange under way waits for it, then revokes the tokens it issued', async () => {
    const p = await party(t);
    const code = await codeFor(t, p);
    const [issued, deleted] = await heldAhead(t, codeHeld(code), [() => redeem(t, p, code), () => t.admin('DELETE', `/admin/v1/accounts/${p.accountId}/clients/${p.client.client_id}`)]);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
    assert.equal(await t.gatehouse.services.accessTokens.verify(issued.body.access_token), undefined);
    assert.deepEqual([await live('access_tokens', p), await live('oauth_refresh_tokens', p), await live('oauth_grants', p)], [0, 0, 0]);
  });

  it('a code exchange meeting the client’s deletion under way → 401 invalid_client, nothing issued', async () => {
    const p = await party(t);
    const code = await codeFor(t, p);
    // The token endpoint authenticates the client first (from its cache of a second).
    const [issued] = await heldAhead(t, { sql: 'delete from oauth_clients where id = $1', params: [p.client.client_id], rows: 1 }, [() => redeem(t, p, code)]);
    assert.equal(issued.status, 401, JSON.stringify(issued.body));
    assert.equal(issued.body.error, 'invalid_client');
    assert.deepEqual([await live('access_tokens', p), await live('oauth_grants', p)], [0, 0]);
  });

  it('a client PATCH or secret rotation meeting the client’s deletion → 404 client_not_found, no record of either', async () => {
    const p = await party(t);
    const path = `/admin/v1/accounts/${p.accountId}/clients/${p.client.client_id}`;
    const [patched, rotated] = await heldAhead(t, { sql: 'delete from oauth_clients where id = $1', params: [p.client.client_id], rows: 1 }, [
      () => t.admin('PATCH', path, { client_name: 'Renamed' }),
      () => t.admin('POST', `${path}/secret`),
    ]);
    assert.equal(patched.status, 404, JSON.stringify(patched.body));
    assert.equal(patched.body.code, 'client_not_found');
    assert.equal(rotated.status, 404, JSON.stringify(rotated.body));
    const records = await db().selectFrom('audit_events').select('action').where('target_id', '=', p.client.client_id).execute();
    assert.deepEqual(records.map((r) => r.action), ['client.created']);
  });

  it('two revocations of one grant at once → both 204; one record of it', async () => {
    const p = await party(t);
    assert.equal((await redeem(t, p, await codeFor(t, p))).status, 200);
    const grant = await db().selectFrom('oauth_grants').select('id').where('client_id', '=', p.client.client_id).executeTakeFirstOrThrow();
    const revoke = () => t.admin('DELETE', `/admin/v1/accounts/${p.accountId}/users/${p.user.id}/grants/${grant.id}`);
    const answers = await heldAhead(t, { sql: 'select 1 from oauth_grants where id = $1 for update', params: [grant.id], rows: 1 }, [revoke, revoke]);
    assert.deepEqual(answers.map((a) => a.status), [204, 204]);
    const records = await db().selectFrom('audit_events').select('action').where('target_id', '=', grant.id).execute();
    assert.deepEqual(records.map((r) => r.action), ['grant.revoked']);
  });

  it('deleting a person another administrator is deleting → 404 user_not_found in the admin API’s own shape', async () => {
    const p = await party(t);
    const path = `/admin/v1/accounts/${p.accountId}/users/${p.user.id}`;
    const [deleted] = await heldAhead(t, { sql: 'delete from users where id = $1', params: [p.user.id], rows: 1 }, [() => t.admin('DELETE', path)]);
    assert.equal(deleted.status, 404, JSON.stringify(deleted.body));
    assert.equal(deleted.body.code, 'user_not_found');
    assert.match(deleted.headers.get('content-type') ?? '', /^application\/problem\+json/);
  });

  it('deactivating or resetting the password of a person being deleted → 404 user_not_found, no record of either', async () => {
    const p = await party(t);
    const path = `/admin/v1/accounts/${p.accountId}/users/${p.user.id}`;
    const [deactivated, reset] = await heldAhead(t, { sql: 'delete from users where id = $1', params: [p.user.id], rows: 1 }, [
      () => t.admin('POST', `${path}/deactivate`),
      () => t.admin('POST', `${path}/password`, { password: 'a new and longer passphrase' }),
    ]);
    assert.equal(deactivated.status, 404, JSON.stringify(deactivated.body));
    assert.equal(deactivated.body.code, 'user_not_found');
    assert.equal(reset.status, 404, JSON.stringify(reset.body));
    assert.equal(reset.body.code, 'user_not_found');
    const records = await db().selectFrom('audit_events').select('action').where('target_id', '=', p.user.id).execute();
    assert.deepEqual(records.map((r) => r.action), ['user.created']);
  });

  it('deleting a person meeting their consent under way waits for it, then forgets the consent and ends the code', async () => {
    const p = await party(t);
    const browser = new Browser(t.publicUrl);
    const page = await signIn(browser, await browser.get(authorize(p)), 'ada', PASSWORD);
    assert.equal(page.status, 200, 'the consent page');
    // Another tab's consent, inserted and not yet committed: the consent sent now waits on it, its session held.
    const otherTab = { sql: "insert into oauth_consents (account_id, user_id, client_id, scope, updated_at) values ($1, $2, $3, 'invoices:read', 1)", params: [p.accountId, p.user.id, p.client.client_id], rows: 1 };
    const [consented, deleted] = await heldAhead(t, otherTab, [() => consent(browser, page), () => t.admin('DELETE', `/admin/v1/accounts/${p.accountId}/users/${p.user.id}`)]);
    assert.equal(consented.status, 303, consented.html.slice(0, 200));
    const code = redirectParams(consented).get('code');
    assert.ok(code, 'the consent was given before the deletion');
    assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
    assert.deepEqual(await db().selectFrom('oauth_consents').select('client_id').where('user_id', '=', p.user.id).execute(), []);
    const redeemed = await redeem(t, p, code);
    assert.equal(redeemed.status, 400);
    assert.equal(redeemed.body.error, 'invalid_grant');
  });
});

for (const target of databaseTargets()) {
  describe(`a client's registration changed on another node (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t?.close());

    it('a PATCH right after another node rotated the secret keeps the new secret and refuses the old one', async () => {
      const p = await party(t);
      // This node caches the registration when the client authenticates.
      const before = await token(t, p, { grant_type: 'refresh_token', refresh_token: 'gh_rt_unknown' });
      assert.equal(before.status, 400, JSON.stringify(before.body));
      // Another node rotates the secret: the database changes, this node's cache does not hear of it.
      const rotated = 'gh_cs_rotated-on-another-node-0123456789abcdef';
      await t.gatehouse.database.db.updateTable('oauth_clients').set({ secret_digest: sha256Hex(rotated), secret_rotated_at: t.clock.now() }).where('id', '=', p.client.client_id).execute();
      const patched = await t.admin('PATCH', `/admin/v1/accounts/${p.accountId}/clients/${p.client.client_id}`, { redirect_uris: [REDIRECT, 'https://app.example/other'] });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.redirect_uris, [REDIRECT, 'https://app.example/other']);
      const stored = await t.gatehouse.database.db.selectFrom('oauth_clients').select('secret_digest').where('id', '=', p.client.client_id).executeTakeFirstOrThrow();
      assert.equal(stored.secret_digest, sha256Hex(rotated));
      const old = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: 'gh_rt_unknown' }, { authorization: basic(p.client.client_id, p.client.client_secret) });
      assert.equal(old.status, 401, JSON.stringify(old.body));
      const fresh = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: 'gh_rt_unknown' }, { authorization: basic(p.client.client_id, rotated) });
      assert.equal(fresh.status, 400, JSON.stringify(fresh.body));
      assert.equal(fresh.body.error, 'invalid_grant');
    });
  });
}
