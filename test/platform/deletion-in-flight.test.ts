/**
 * Writes that refer to a row another transaction is deleting (PostgreSQL, where the two run side
 * by side; docs/DECISIONS.md "A write locks the rows it is about to refer to"): a payout or a
 * settlement fanning out to a webhook endpoint being deleted, a redelivery, a role's replacement,
 * a SCIM group gaining a member, or a member, while one of them is deleted. Each is made to meet
 * the deletion in the one order that used to fail (a 500 from the foreign key's check): another
 * connection deletes the row and holds its transaction open, the write is sent and waits on the
 * row, and the deletion commits. The write then answers as it would have after the deletion and
 * keeps nothing that refers to the deleted row.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { databaseTargets, NEEDS_POSTGRES } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { until } from '../helpers/until.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { ALLOW_LOOPBACK } from '../webhooks/support.ts';
import { scimClient, GROUP, PATCH, USER } from '../scim/scim-client.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('writes that meet a deletion in flight (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!, { env: ALLOW_LOOPBACK });
  });
  after(() => t?.close());
  const db = () => t.gatehouse.database.db;

  /** Runs `deletion` on a connection of its own, sends `write`, lets the deletion commit once the write waits on it. */
  async function deletionAhead<T>(deletion: { sql: string; id: string }, write: () => Promise<T>): Promise<T> {
    const url = new URL(t.config.databaseUrl);
    const schema = url.searchParams.get('schema') ?? 'public';
    url.searchParams.delete('schema');
    const holder = new pg.Client({ connectionString: url.href, options: `-c search_path=${schema}` });
    await holder.connect();
    const waiting = async () => Number((await holder.query('select count(distinct pid) as n from pg_locks where not granted')).rows[0].n);
    try {
      await holder.query('begin');
      const deleted = await holder.query(deletion.sql, [deletion.id]);
      assert.equal(deleted.rowCount, 1);
      const writing = write();
      await until(async () => (await waiting()) === 1, 10_000, 'the write to wait on the row being deleted');
      await holder.query('commit');
      return await writing;
    } finally {
      await holder.end();
    }
  }

  /** An account with money, a token for its payments and another for its webhooks, and two endpoints taking every event. */
  async function accountWithEndpoints() {
    const { token, accountId } = await newTenant(t);
    await fund(t, token, 10_000);
    const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage', 'events:read'] });
    const endpoint = async (path: string) => {
      const created = await api(t, hooks, 'POST', '/v1/webhook_endpoints', { url: `http://127.0.0.1:9/${path}`, event_types: ['*'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    };
    return { token, hooks, accountId, kept: await endpoint('kept'), deleted: await endpoint('deleted') };
  }
  const endpointDeletion = (id: string) => ({ sql: 'delete from webhook_endpoints where id = $1', id });
  const deliveriesOf = (eventId: string) => db().selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', eventId).execute();
  const eventOf = async (objectId: string, type: string) =>
    (await db().selectFrom('events').select('id').where('object_id', '=', objectId).where('type', '=', type).executeTakeFirstOrThrow()).id;

  it('POST /v1/payouts fanning out to an endpoint being deleted → 201; delivered to the endpoint that stays only', async () => {
    const a = await accountWithEndpoints();
    const paid = await deletionAhead(endpointDeletion(a.deleted), () => api(t, a.token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'iban:DE1' }));
    assert.equal(paid.status, 201, JSON.stringify(paid.body));
    assert.equal(paid.body.state, 'pending');
    const stored = await db().selectFrom('payouts').select(['id', 'amount']).where('id', '=', paid.body.id).execute();
    assert.deepEqual(stored, [{ id: paid.body.id, amount: 100 }]);
    assert.deepEqual(await deliveriesOf(await eventOf(paid.body.id, 'payout.created')), [{ endpoint_id: a.kept }]);
    const balance = await db().selectFrom('balances').select('available').where('account_id', '=', a.accountId).where('currency', '=', 'EUR').executeTakeFirstOrThrow();
    assert.equal(Number(balance.available), 9_900);
  });

  it('settling an invoice (its event raised in process) while an endpoint is being deleted → 200; delivered to the endpoint that stays only', async () => {
    const a = await accountWithEndpoints();
    const invoice = await api(t, a.token, 'POST', '/v1/invoices', { amount: 500, currency: 'EUR' });
    assert.equal(invoice.status, 201, JSON.stringify(invoice.body));
    const settled = await deletionAhead(endpointDeletion(a.deleted), () => api(t, a.token, 'POST', `/v1/invoices/${invoice.body.id}/settle`));
    assert.equal(settled.status, 200, JSON.stringify(settled.body));
    assert.equal(settled.body.state, 'settled');
    assert.deepEqual(await deliveriesOf(await eventOf(invoice.body.id, 'invoice.settled')), [{ endpoint_id: a.kept }]);
  });

  it('redelivering an event while an endpoint is being deleted → 202; requeued to the endpoint that stays only', async () => {
    const a = await accountWithEndpoints();
    const paid = await api(t, a.token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'iban:DE1' });
    const eventId = await eventOf(paid.body.id, 'payout.created');
    // Its deliveries gone, so that the redelivery writes them anew, the deleted endpoint's among them.
    await db().deleteFrom('webhook_deliveries').where('event_id', '=', eventId).execute();
    const redelivered = await deletionAhead(endpointDeletion(a.deleted), () => api(t, a.hooks, 'POST', `/v1/events/${eventId}/redeliver`));
    assert.equal(redelivered.status, 202, JSON.stringify(redelivered.body));
    assert.equal(redelivered.body.requeued, 1);
    assert.deepEqual(await deliveriesOf(eventId), [{ endpoint_id: a.kept }]);
  });

  it('replacing a role being deleted → 404 role_not_found; no selector and no record of the replacement kept', async () => {
    const accountId = (await newTenant(t)).accountId;
    const role = await t.admin('POST', `/admin/v1/accounts/${accountId}/roles`, { name: 'reader', scopes: ['invoices:read'], groups: [{ displayName: 'Readers' }] });
    assert.equal(role.status, 201, JSON.stringify(role.body));
    const replaced = await deletionAhead({ sql: 'delete from roles where id = $1', id: role.body.id }, () =>
      t.admin('PUT', `/admin/v1/accounts/${accountId}/roles/${role.body.id}`, { name: 'reader', scopes: ['invoices:read', 'ledger:read'], groups: [{ externalId: 'aad-readers' }] }),
    );
    assert.equal(replaced.status, 404, JSON.stringify(replaced.body));
    assert.equal(replaced.body.code, 'role_not_found');
    assert.deepEqual(await db().selectFrom('role_groups').select('value').where('role_id', '=', role.body.id).execute(), []);
    const records = await db().selectFrom('audit_events').select('action').where('target_id', '=', role.body.id).orderBy('occurred_at').execute();
    assert.deepEqual(records.map((r) => r.action), ['role.created']);
  });

  it('SCIM PATCH adding to a group a person being deleted → 400 invalidValue; the group as it was', async () => {
    const c = await scimClient(t, 'Members deleted in flight');
    const person = await c.call('POST', '/Users', { schemas: [USER], userName: 'leaving@example.com' });
    const stays = await c.call('POST', '/Users', { schemas: [USER], userName: 'staying@example.com' });
    const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Payers', members: [{ value: stays.body.id }] });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const patched = await deletionAhead({ sql: 'delete from users where id = $1', id: person.body.id }, () =>
      c.call('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: person.body.id }] }] }),
    );
    assert.equal(patched.status, 400, JSON.stringify(patched.body));
    assert.equal(patched.body.scimType, 'invalidValue');
    const members = await db().selectFrom('scim_group_members').select('user_id').where('group_id', '=', group.body.id).execute();
    assert.deepEqual(members, [{ user_id: stays.body.id }]);
    const fetched = await c.call('GET', `/Groups/${group.body.id}`);
    assert.equal(fetched.body.meta.version, group.body.meta.version);
  });

  it('SCIM PATCH adding a member to a group being deleted → 404; no membership kept', async () => {
    const c = await scimClient(t, 'Groups deleted in flight');
    const person = await c.call('POST', '/Users', { schemas: [USER], userName: 'joining@example.com' });
    const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Leaving soon' });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const patched = await deletionAhead({ sql: 'delete from scim_groups where id = $1', id: group.body.id }, () =>
      c.call('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: person.body.id }] }] }),
    );
    assert.equal(patched.status, 404, JSON.stringify(patched.body));
    assert.deepEqual(await db().selectFrom('scim_group_members').select('user_id').where('group_id', '=', group.body.id).execute(), []);
  });
});
