/**
 * A person deleted while a sealer streams what she did (PostgreSQL, where the two are concurrent
 * transactions): the sealer has read her name into an audit event's body and not yet committed
 * when the deletion detaches the stored bodies. The deletion waits for the sealer's commit (it
 * holds the account's chain, as a sealer does), so it finds that body and takes her name out; a
 * deletion that did not wait would miss it and the body would keep her name for redelivery.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { api } from '../payments/api.ts';
import { registerClient } from '../oauth/helpers.ts';
import { scimClient, USER } from '../scim/scim-client.ts';
import { ALLOW_LOOPBACK } from '../webhooks/support.ts';
import { streamSealed } from '../../src/audit/stream.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('deleting a person while a sealer streams what she did (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!, { env: ALLOW_LOOPBACK });
  });
  after(() => t?.close());

  it('the deletion waits for the sealer and detaches the body it wrote: no name, userName or externalId left', async () => {
    const db = t.gatehouse.database.db;
    const scim = await scimClient(t, 'Acme');
    const { accountId } = scim;
    const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage', 'audit:read'] });
    const endpoint = await api(t, hooks, 'POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/siem', event_types: ['audit.*'] });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const books = await registerClient(t, accountId, { client_name: 'Books', grant_types: ['client_credentials'], scope: 'invoices:write' });
    const grace = await scim.call('POST', '/Users', { schemas: [USER], userName: 'grace@acme.example', externalId: 'okta-1906', displayName: 'Grace Hopper', password: 'a long enough password' });
    assert.equal(grace.status, 201);
    const graceId = grace.body.id as string;
    await t.gatehouse.services.audit.sealer.sealPending();
    // What she did, about something else than her: her invoice, not yet sealed.
    const hers = await mintAccessToken(t, { accountId, scopes: ['invoices:write'], userId: graceId, clientId: books.client_id as string });
    assert.equal((await api(t, hers, 'POST', '/v1/invoices', { amount: 70, currency: 'EUR' })).status, 201);
    t.clock.advance(1);

    let deletion: Promise<{ status: number }> | undefined;
    let waited = false;
    // A sealer's transaction, held open: the chain's head locked, her record streamed with her name.
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('audit_chains').set({ updated_at: t.clock.now() }).where('account_id', '=', accountId).execute();
      const pending = await trx.selectFrom('audit_events').selectAll().where('account_id', '=', accountId).where('seq', 'is', null).execute();
      assert.deepEqual(pending.map((r) => [r.action, r.actor_id]), [['invoice.created', graceId]]);
      assert.equal(await streamSealed(trx, accountId, pending), 1);
      let deleted = false;
      deletion = scim.call('DELETE', `/Users/${graceId}`).then((response) => {
        deleted = true;
        return response;
      });
      // Until the deletion has finished, or waits on a lock.
      while (!deleted && !waited) {
        const waiting = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
        waited = Number(waiting.rows[0]!.n) > 0;
        if (!waited) await new Promise((resolve) => setImmediate(resolve));
      }
    });
    assert.equal((await deletion!).status, 204);

    // The held transaction streamed the record without sealing it, so this app's own sealer may
    // seal and stream it once more after the deletion: every body there is must be detached.
    const bodies = await db.selectFrom('events').select(['type', 'payload']).where('account_id', '=', accountId).where('type', '=', 'audit.invoice.created').execute();
    assert.ok(bodies.length >= 1);
    for (const stored of bodies) {
      const body = JSON.parse(stored.payload) as { data: { actor: { id: string; display: string | null } } };
      assert.deepEqual([body.data.actor.id, body.data.actor.display], [graceId, null]);
    }
    const everything = (await db.selectFrom('events').select('payload').where('account_id', '=', accountId).execute()).map((e) => e.payload).join('\n');
    for (const personal of ['grace@acme.example', 'okta-1906', 'Grace Hopper']) assert.ok(!everything.includes(personal), `${personal} is left in a stored body`);
    assert.equal(waited, true, 'the deletion waited for the sealer');
  });
});
