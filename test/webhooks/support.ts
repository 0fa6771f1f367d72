/** Shared steps of the webhook tests: an account with a token, endpoints, events raised in real transactions. */
import assert from 'node:assert/strict';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall, type Json } from '../helpers/http.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { recordEvent } from '../../src/events/outbox.ts';

export const ALLOW_LOOPBACK = { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' };

export interface Tenant {
  accountId: string;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: Json }>;
}

export async function tenant(t: TestApp, scopes = ['webhooks:manage', 'events:read']): Promise<Tenant> {
  const accountId = await createAccount(t);
  const token = await mintAccessToken(t, { accountId, scopes });
  return {
    accountId,
    token,
    async call(method, path, body) {
      // A token per call: tests move the clock by days, past any token's lifetime.
      return bearerCall(t.publicUrl, await mintAccessToken(t, { accountId, scopes }), method, path, body);
    },
  };
}

export async function registerEndpoint(who: Tenant, url: string, eventTypes = ['*']): Promise<{ id: string; secret: string }> {
  const created = await who.call('POST', '/v1/webhook_endpoints', { url, event_types: eventTypes });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return { id: created.body.id, secret: created.body.secret };
}

/** Raises an event the way business code does: inside a committed transaction. */
export async function raise(t: TestApp, accountId: string, type = 'invoice.settled', objectId = 'inv_00000000000000000001') {
  const [object, state] = type.startsWith('invoice') ? ['invoice', 'settled'] : ['payout', type.split('.')[1] === 'created' ? 'pending' : type.split('.')[1]!];
  return t.gatehouse.database.db
    .transaction()
    .execute((trx) => recordEvent(trx, { accountId, type, object: object!, objectId, state: state!, data: { id: objectId, object: object!, state: state! }, at: t.clock.now() }));
}

export async function deliveriesOf(t: TestApp, eventId: string) {
  return t.gatehouse.database.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
}

export function dispatcher(t: TestApp) {
  return t.gatehouse.services.webhooks.dispatcher;
}
