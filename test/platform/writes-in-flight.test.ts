/**
 * Writes that meet a change another transaction is making (PostgreSQL, where the two run side by
 * side; docs/DECISIONS.md "A write locks the rows it is about to refer to"), each made to meet it
 * in the one order that used to fail (test/helpers/held-ahead.ts): another connection makes the
 * change and holds its transaction open, the write is sent and waits on what it holds, and the
 * change commits. A payout or a settlement fanning out to a webhook endpoint being deleted, a
 * redelivery, a role's replacement, a SCIM group gaining a member, or a member, while one of them
 * is deleted; two redeliveries or two secret rotations at once; an endpoint disabled while a write
 * fans out to it; an account renamed or given a SCIM token while it closes. The write answers as it would have after the change (never 500) and
 * keeps nothing the change has ended.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { databaseTargets, NEEDS_POSTGRES } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { heldAhead } from '../helpers/held-ahead.ts';
import { api, fund, newTenant } from '../payments/api.ts';
import { ALLOW_LOOPBACK } from '../webhooks/support.ts';
import { scimClient, GROUP, PATCH, USER } from '../scim/scim-client.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('writes that meet a change in flight (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!, { env: ALLOW_LOOPBACK });
  });
  after(() => t?.close());
  const db = () => t.gatehouse.database.db;

  /** Sends `write` once `deletion` (one row) is made and held uncommitted, and lets it commit once the write waits on it. */
  async function deletionAhead<T>(deletion: { sql: string; id: string }, write: () => Promise<T>): Promise<T> {
    const [written] = await heldAhead(t, { sql: deletion.sql, params: [deletion.id], rows: 1 }, [write]);
    return written;
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
    // Delivered to both when raised: the redelivery requeues both endpoints' deliveries, the deleted one's among them.
    assert.deepEqual((await deliveriesOf(eventId)).map((d) => d.endpoint_id).sort(), [a.kept, a.deleted].sort());
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

  it('SCIM PATCH adding to a group a person being deleted → the person is left out; the group as it was', async () => {
    const c = await scimClient(t, 'Members deleted in flight');
    const person = await c.call('POST', '/Users', { schemas: [USER], userName: 'leaving@example.com' });
    const stays = await c.call('POST', '/Users', { schemas: [USER], userName: 'staying@example.com' });
    const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Payers', members: [{ value: stays.body.id }] });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    const patched = await deletionAhead({ sql: 'delete from users where id = $1', id: person.body.id }, () =>
      c.call('PATCH', `/Groups/${group.body.id}`, { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: person.body.id }] }] }),
    );
    assert.equal(patched.status, 204, JSON.stringify(patched.body));
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

  it('two redeliveries of one event to an endpoint at once → both 202; one delivery to it, not two', async () => {
    const a = await accountWithEndpoints();
    const paid = await api(t, a.token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'iban:DE1' });
    const eventId = await eventOf(paid.body.id, 'payout.created');
    // No deliveries: the redeliveries naming the endpoint write its delivery, once.
    await db().deleteFrom('webhook_deliveries').where('event_id', '=', eventId).execute();
    // From two nodes: one node's writes of an account already take turns in its write lane.
    const other = await t.anotherNode();
    try {
      const [first, second] = await heldAhead(t, { sql: 'select 1 from events where id = $1 for update', params: [eventId], rows: 1 }, [
        () => api(t, a.hooks, 'POST', `/v1/events/${eventId}/redeliver`, { endpoint_id: a.kept }),
        () => api(other, a.hooks, 'POST', `/v1/events/${eventId}/redeliver`, { endpoint_id: a.kept }),
      ]);
      assert.equal(first.status, 202, JSON.stringify(first.body));
      assert.equal(second.status, 202, JSON.stringify(second.body));
      assert.deepEqual([first.body.requeued, second.body.requeued], [1, 1]);
      assert.deepEqual(await deliveriesOf(eventId), [{ endpoint_id: a.kept }]);
    } finally {
      await other.close();
    }
  });

  it('two secret rotations at once → both 200; the second keeps the first’s secret signing beside its own', async () => {
    const a = await accountWithEndpoints();
    const stored = () => db().selectFrom('webhook_endpoints').select(['secret_sealed', 'previous_secret_sealed']).where('id', '=', a.kept).executeTakeFirstOrThrow();
    const original = (await stored()).secret_sealed;
    const rotate = (node: TestApp) => () => api(node, a.hooks, 'POST', `/v1/webhook_endpoints/${a.kept}/rotate_secret`, { overlap_seconds: 3600 });
    const other = await t.anotherNode();
    try {
      const [first, second] = await heldAhead(t, { sql: 'select 1 from webhook_endpoints where id = $1 for update', params: [a.kept], rows: 1 }, [rotate(t), rotate(other)]);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(second.status, 200, JSON.stringify(second.body));
    } finally {
      await other.close();
    }
    const after = await stored();
    // Neither the secret both replaced nor the current one: the first rotation's.
    assert.notEqual(after.previous_secret_sealed, null);
    assert.notEqual(after.previous_secret_sealed, original);
    assert.notEqual(after.previous_secret_sealed, after.secret_sealed);
  });

  /** The account's closing as the closing transaction makes it, held open. */
  const closing = (accountId: string) => ({ sql: 'update accounts set deleted_at = 1 where id = $1 and deleted_at is null', params: [accountId], rows: 1 });

  it('renaming an account while it closes → 404 account_not_found; the closing’s state kept, no record of a rename', async () => {
    const accountId = (await newTenant(t)).accountId;
    const [renamed] = await heldAhead(t, closing(accountId), [() => t.admin('PATCH', `/admin/v1/accounts/${accountId}`, { name: 'Renamed' })]);
    assert.equal(renamed.status, 404, JSON.stringify(renamed.body));
    assert.equal(renamed.body.code, 'account_not_found');
    const account = await db().selectFrom('accounts').select(['name', 'deleted_at']).where('id', '=', accountId).executeTakeFirstOrThrow();
    assert.notEqual(account.name, 'Renamed');
    assert.equal(Number(account.deleted_at), 1);
    assert.deepEqual(await db().selectFrom('audit_events').select('id').where('account_id', '=', accountId).where('action', '=', 'account.updated').execute(), []);
  });

  it('issuing a SCIM token while the account closes → 404 account_not_found; no token kept', async () => {
    const accountId = (await newTenant(t)).accountId;
    const [issued] = await heldAhead(t, closing(accountId), [() => t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'Late' })]);
    assert.equal(issued.status, 404, JSON.stringify(issued.body));
    assert.equal(issued.body.code, 'account_not_found');
    assert.deepEqual(await db().selectFrom('scim_tokens').select('id').where('account_id', '=', accountId).execute(), []);
  });

  it('disabling an endpoint while a write fans out to it: the disable waits, then parks the delivery that write queued', async () => {
    const a = await accountWithEndpoints();
    const paid = await api(t, a.token, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'iban:DE1' });
    const eventId = await eventOf(paid.body.id, 'payout.created');
    await db().deleteFrom('webhook_deliveries').where('event_id', '=', eventId).execute();
    // A write under way that fans the event out to the endpoint, as a payout's statement does, held open.
    const fanningOut = {
      sql: `with delivery as (
              insert into webhook_deliveries (id, account_id, event_id, endpoint_id, state, attempt_count, last_attempt_at, parked_at, created_at, updated_at)
              values ('whd_inflight00000000000', $2, $3, $1, 'pending', 0, null, null, 1, 1) returning id
            )
            insert into webhook_queue (delivery_id, account_id, event_id, endpoint_id, cycle_failures, next_attempt_at, lease_owner, lease_until)
            select id, $2, $3, $1, 0, 1, null, null from delivery`,
      params: [a.kept, a.accountId, eventId],
      rows: 1,
    };
    const [disabled] = await heldAhead(t, fanningOut, [() => api(t, a.hooks, 'POST', `/v1/webhook_endpoints/${a.kept}/disable`)]);
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    assert.equal(disabled.body.status, 'disabled');
    assert.deepEqual(await db().selectFrom('webhook_queue').select('delivery_id').where('endpoint_id', '=', a.kept).execute(), []);
    const delivery = await db().selectFrom('webhook_deliveries').select(['state', 'parked_at']).where('id', '=', 'whd_inflight00000000000').executeTakeFirstOrThrow();
    assert.equal(delivery.state, 'parked');
    assert.notEqual(delivery.parked_at, null);
  });
});
