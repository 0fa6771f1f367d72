/**
 * Invalid requests as an integrator meets them: every problem listed at once in problem+json
 * (`errors: [{pointer, in, detail}]`), in words a person can act on; `limit` that is not a number
 * answers the documented limit_out_of_range; and a body-less request that still says
 * Content-Type: application/json is taken as body-less, as many clients and IdP connectors send it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { json } from '../helpers/http.ts';
import { api, newTenant } from '../payments/api.ts';
import { scimClient, USER } from '../scim/scim-client.ts';

for (const target of databaseTargets()) {
  describe(`validation errors and body-less requests (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('a payout with three bad members → 400 validation_failed listing all three, and nothing is stored', async () => {
      const { token } = await newTenant(t);
      const refused = await api(t, token, 'POST', '/v1/payouts', { amount: -5, currency: 'eur', destination: '' });
      assert.equal(refused.status, 400);
      assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(refused.body.code, 'validation_failed');
      const byPointer = Object.fromEntries(refused.body.errors.map((e: { pointer: string; in: string; detail: string }) => [e.pointer, e]));
      assert.deepEqual(Object.keys(byPointer).sort(), ['#/amount', '#/currency', '#/destination']);
      assert.deepEqual(byPointer['#/amount'], { pointer: '#/amount', in: 'body', detail: 'amount must be at least 1' });
      assert.equal(byPointer['#/currency'].detail, 'currency is not an accepted value (ISO 4217 currency code, upper case (e.g. EUR, USD))');
      assert.equal(byPointer['#/destination'].detail, 'destination must not be empty');
      for (const e of refused.body.errors) assert.ok(refused.body.detail.includes(e.detail), refused.body.detail);
      const listed = await api(t, token, 'GET', '/v1/payouts');
      assert.deepEqual(listed.body.data, []);
    });

    it('a missing member and an unknown one are named by their pointer', async () => {
      const { token } = await newTenant(t);
      const refused = await api(t, token, 'POST', '/v1/invoices', { currency: 'EUR', colour: 'blue' });
      assert.equal(refused.status, 400);
      assert.deepEqual(
        [...refused.body.errors].sort((a: { pointer: string }, b: { pointer: string }) => a.pointer.localeCompare(b.pointer)),
        [
          { pointer: '#/amount', in: 'body', detail: 'amount is required' },
          { pointer: '#/colour', in: 'body', detail: 'colour is not a member of this object; remove it' },
        ],
      );
    });

    it('limit=abc → 400 limit_out_of_range, as the paging documentation promises', async () => {
      const { token } = await newTenant(t);
      for (const limit of ['abc', '0', '101']) {
        const refused = await api(t, token, 'GET', `/v1/invoices?limit=${limit}`);
        assert.equal(refused.status, 400, limit);
        assert.equal(refused.body.code, 'limit_out_of_range', limit);
      }
    });

    it('POST …/settle with Content-Type: application/json and no body → 200', async () => {
      const { token } = await newTenant(t);
      const created = await api(t, token, 'POST', '/v1/invoices', { amount: 100, currency: 'EUR' });
      const response = await fetch(`${t.publicUrl}/v1/invoices/${created.body.id}/settle`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
      });
      const body = await json(response);
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.equal(body.state, 'settled');
    });

    it('a body-less POST that needs a body → 400 validation_failed saying the body is missing', async () => {
      const { token } = await newTenant(t);
      const response = await fetch(`${t.publicUrl}/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
      });
      const body = await json(response);
      assert.equal(response.status, 400);
      assert.equal(body.code, 'validation_failed');
      assert.deepEqual(body.errors, [{ pointer: '#', in: 'body', detail: 'The body must be a JSON object' }]);
    });

    it('DELETE /scim/v2/Users/{id} with Content-Type: application/json and no body → 204, and the user is gone', async () => {
      const scim = await scimClient(t);
      const created = await scim.call('POST', '/Users', { schemas: [USER], userName: 'ada' });
      assert.equal(created.status, 201);
      for (const contentType of ['application/json', 'application/scim+json']) {
        const user = contentType === 'application/json' ? created.body : (await scim.call('POST', '/Users', { schemas: [USER], userName: 'grace' })).body;
        const deleted = await scim.call('DELETE', `/Users/${user.id}`, undefined, { 'content-type': contentType });
        assert.equal(deleted.status, 204, contentType);
        assert.equal((await scim.call('GET', `/Users/${user.id}`)).status, 404);
      }
    });
  });
}
