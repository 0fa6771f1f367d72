/**
 * Clients registered, updated or given a new secret while their account is closed: whatever the
 * order the two meet in, no client of the closed account is left, none gets a token, and the audit
 * trail records a client.created only for the clients the closing removed. On both databases the
 * close is sent among several registrations at once (on SQLite, whose writes take turns, this shows
 * the rule holds rather than that the race is met); on PostgreSQL, where they are concurrent
 * transactions, the closing is also made to hold the account first and the writes queue behind it
 * (held-ahead.ts): the order in which a write that checked the account before its transaction would
 * leave a client in a closed account.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { heldAhead } from '../helpers/held-ahead.ts';
import { basic, postForm } from '../oauth/helpers.ts';

type Answer = Awaited<ReturnType<TestApp['admin']>>;

const register = (t: TestApp, accountId: string, name: string) =>
  t.admin('POST', `/admin/v1/accounts/${accountId}/clients`, { client_name: name, grant_types: ['client_credentials'], scope: 'invoices:read' });

/**
 * What must hold once the closing committed, whatever the writes met: each was registered before
 * the closing (and removed by it) or refused 404 account_not_found; nothing of the account's clients
 * is stored or authenticates; client.created was recorded exactly for the clients that were made.
 */
async function assertNoClientOutlivesTheClosing(t: TestApp, accountId: string, registrations: Answer[], before: Array<{ client_id: string; client_secret: string }>) {
  for (const answer of registrations) {
    assert.ok(answer.status === 201 || answer.status === 404, `${answer.status} ${JSON.stringify(answer.body)}`);
    if (answer.status === 404) assert.equal(answer.body.code, 'account_not_found');
  }
  const made = [...before, ...registrations.filter((answer) => answer.status === 201).map((answer) => answer.body as { client_id: string; client_secret: string })];
  const db = t.gatehouse.database.db;
  assert.deepEqual(await db.selectFrom('oauth_clients').select('id').where('account_id', '=', accountId).execute(), []);
  for (const client of made) {
    const token = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, { authorization: basic(client.client_id, client.client_secret) });
    assert.equal(token.status, 401, `${client.client_id} got ${JSON.stringify(token.body)}`);
    assert.equal(token.body.error, 'invalid_client');
  }
  const records = await db.selectFrom('audit_events').select(['action', 'target_id', 'changes']).where('account_id', '=', accountId).execute();
  const created = records.filter((r) => r.action === 'client.created').map((r) => r.target_id);
  assert.deepEqual(created.sort(), made.map((c) => c.client_id).sort());
  const closings = records.filter((r) => r.action === 'account.deleted');
  assert.equal(closings.length, 1);
  assert.equal(JSON.parse(closings[0]!.changes!).clients_removed.before, made.length, 'the closing removed every client that was made');
  const account = await db.selectFrom('accounts').select('deleted_at').where('id', '=', accountId).executeTakeFirstOrThrow();
  assert.notEqual(account.deleted_at, null);
}

for (const target of databaseTargets()) {
  describe(`registering clients while their account closes (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('the close sent among registrations: each is made before it (and removed) or refused 404 account_not_found; no client is left', async () => {
      for (let round = 0; round < 3; round++) {
        const accountId = await createAccount(t, `Racing ${round}`);
        const earlier = await register(t, accountId, 'registered before');
        assert.equal(earlier.status, 201);
        const sent = [0, 1, 2, 3].map((i) => register(t, accountId, `racer ${i}`));
        const closing = t.admin('DELETE', `/admin/v1/accounts/${accountId}`);
        sent.push(...[4, 5, 6, 7].map((i) => register(t, accountId, `racer ${i}`)));
        const [closed, ...registrations] = await Promise.all([closing, ...sent]);
        assert.equal(closed!.status, 204, JSON.stringify(closed!.body));
        await assertNoClientOutlivesTheClosing(t, accountId, registrations, [earlier.body]);
      }
    });

    it('after the close, registering, updating and rotating answer 404 account_not_found and record nothing', async () => {
      const accountId = await createAccount(t, 'Closed before');
      const client = await register(t, accountId, 'to be removed');
      assert.equal(client.status, 201);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${accountId}`)).status, 204);
      const path = `/admin/v1/accounts/${accountId}/clients`;
      for (const [method, where, body] of [
        ['POST', path, { client_name: 'late', grant_types: ['client_credentials'], scope: 'invoices:read' }],
        ['PATCH', `${path}/${client.body.client_id}`, { client_name: 'renamed' }],
        ['POST', `${path}/${client.body.client_id}/secret`, undefined],
      ] as const) {
        const answer = await t.admin(method, where, body);
        assert.equal(answer.status, 404, `${method} ${where}`);
        assert.equal(answer.body.code, 'account_not_found', `${method} ${where}`);
      }
      const records = await t.gatehouse.database.db.selectFrom('audit_events').select('action').where('account_id', '=', accountId).execute();
      assert.deepEqual(records.map((r) => r.action).filter((action) => action.startsWith('client.')), ['client.created']);
      await assertNoClientOutlivesTheClosing(t, accountId, [], [client.body]);
    });
  });
}

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('client writes queued behind a closing that holds the account (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!);
  });
  after(() => t?.close());

  it('registrations, an update and a secret rotation wait for the closing, then answer 404 account_not_found; nothing of them is stored or recorded', async () => {
    const accountId = await createAccount(t, 'Closing first');
    const existing = await register(t, accountId, 'existing');
    assert.equal(existing.status, 201);
    // The closing takes the account, removes its clients, then waits on the SCIM tokens held here.
    const scimToken = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'held' });
    assert.equal(scimToken.status, 201);
    const clientPath = `/admin/v1/accounts/${accountId}/clients/${existing.body.client_id}`;
    const [closed, ...writes] = await heldAhead<Answer[]>(t, { sql: 'select id from scim_tokens where account_id = $1 for update', params: [accountId], rows: 1 }, [
      () => t.admin('DELETE', `/admin/v1/accounts/${accountId}`),
      () => register(t, accountId, 'queued 1'),
      () => register(t, accountId, 'queued 2'),
      () => register(t, accountId, 'queued 3'),
      () => t.admin('PATCH', clientPath, { client_name: 'renamed while closing' }),
      () => t.admin('POST', `${clientPath}/secret`),
    ]);
    assert.equal(closed!.status, 204, JSON.stringify(closed!.body));
    for (const answer of writes) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 'account_not_found');
    }
    await assertNoClientOutlivesTheClosing(t, accountId, writes.slice(0, 3), [existing.body]);
    const records = await t.gatehouse.database.db.selectFrom('audit_events').select('action').where('account_id', '=', accountId).where('action', 'in', ['client.updated', 'client.secret_rotated']).execute();
    assert.deepEqual(records, []);
  });
});
