import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

for (const target of databaseTargets()) {
  describe(`admin API: accounts (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('POST /admin/v1/accounts → 201 {id, name, created_at}; GET finds it; it survives a restart', async () => {
      t.clock.set(Date.UTC(2031, 4, 6, 7, 8, 9, 123));
      const created = await t.admin('POST', '/admin/v1/accounts', { name: 'Acme Payments' });
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^acct_[0-9A-Za-z]{20}$/);
      assert.deepEqual(created.body, {
        id: created.body.id,
        object: 'account',
        name: 'Acme Payments',
        brand_color: null,
        logo: null,
        created_at: '2031-05-06T07:08:09.123Z',
        updated_at: null,
        closed_at: null,
      });
      assert.equal(created.headers.get('location'), `/admin/v1/accounts/${created.body.id}`);

      t = await t.restart();
      const fetched = await t.admin('GET', `/admin/v1/accounts/${created.body.id}`);
      assert.equal(fetched.status, 200);
      assert.deepEqual(fetched.body, created.body);
      const listed = await t.admin('GET', '/admin/v1/accounts');
      assert.equal(listed.status, 200);
      assert.ok(listed.body.data.some((a: { id: string }) => a.id === created.body.id));
    });

    it('lists newest first', async () => {
      t.clock.advance(1000);
      const a = await t.admin('POST', '/admin/v1/accounts', { name: 'First' });
      t.clock.advance(1000);
      const b = await t.admin('POST', '/admin/v1/accounts', { name: 'Second' });
      const listed = await t.admin('GET', '/admin/v1/accounts?limit=2');
      assert.deepEqual(
        listed.body.data.map((x: { id: string }) => x.id),
        [b.body.id, a.body.id],
      );
    });

    it('a wrong or missing admin token → 401 problem+json, nothing created', async () => {
      const before = (await t.admin('GET', '/admin/v1/accounts?limit=100')).body.data.length;
      for (const [authorization, challenge, detail] of [
        ['Bearer wrong-token', 'Bearer realm="gatehouse-admin", error="invalid_token"', /not this installation's admin token: GATEHOUSE_ADMIN_TOKEN, or the token generated at the first start/],
        ['Basic Zm9vOmJhcg==', 'Bearer realm="gatehouse-admin"', /^Send Authorization: Bearer <admin token>$/],
        [undefined, 'Bearer realm="gatehouse-admin"', /^Send Authorization: Bearer <admin token>$/],
      ] as const) {
        const response = await fetch(`${t.adminUrl}/admin/v1/accounts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          body: JSON.stringify({ name: 'Intruder' }),
        });
        assert.equal(response.status, 401);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(response.headers.get('www-authenticate'), challenge);
        const body = await json(response);
        assert.equal(body.code, 'admin_unauthorized');
        assert.match(body.detail, detail);
        assert.equal(body.status, 401);
      }
      const after = (await t.admin('GET', '/admin/v1/accounts?limit=100')).body.data.length;
      assert.equal(after, before);
      // Each is a line to alert on, with where it came from; never the token tried.
      const refused = t.logs.join('').trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.event === 'admin.authentication_failed');
      assert.deepEqual(refused.map((l) => [l.level, l.ip, l.token_given]), [['warn', '127.0.0.1', true], ['warn', '127.0.0.1', false], ['warn', '127.0.0.1', false]]);
      assert.ok(!t.logs.join('').includes('wrong-token'));
    });

    it('a closed account is read as its tombstone (closed_at), listed only with state=closed, and nothing else of it answers', async () => {
      t.clock.advance(1000);
      const open = await t.admin('POST', '/admin/v1/accounts', { name: 'Stays' });
      t.clock.advance(1000);
      const closing = await t.admin('POST', '/admin/v1/accounts', { name: 'Leaves' });
      t.clock.advance(60_000);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${closing.body.id}`)).status, 204);
      const closedAt = new Date(t.clock.now()).toISOString();

      const tombstone = await t.admin('GET', `/admin/v1/accounts/${closing.body.id}`);
      assert.equal(tombstone.status, 200);
      assert.deepEqual(tombstone.body, { ...closing.body, updated_at: closedAt, closed_at: closedAt });
      const stored = await t.gatehouse.database.db.selectFrom('accounts').select(['name', 'deleted_at']).where('id', '=', closing.body.id).executeTakeFirstOrThrow();
      assert.deepEqual({ ...stored, deleted_at: Number(stored.deleted_at) }, { name: 'Leaves', deleted_at: t.clock.now() });

      const ids = (body: { data: Array<{ id: string }> }) => body.data.map((a) => a.id);
      const opened = await t.admin('GET', '/admin/v1/accounts?limit=100');
      assert.ok(ids(opened.body).includes(open.body.id));
      assert.ok(!ids(opened.body).includes(closing.body.id), 'the default list holds open accounts only');
      assert.deepEqual(ids((await t.admin('GET', '/admin/v1/accounts?state=open&limit=100')).body), ids(opened.body));
      const closedList = await t.admin('GET', '/admin/v1/accounts?state=closed&limit=100');
      assert.equal(closedList.status, 200);
      assert.ok(ids(closedList.body).includes(closing.body.id));
      assert.ok(closedList.body.data.every((a: { closed_at: string | null }) => a.closed_at !== null));

      // A cursor continues only the list it came from.
      const first = await t.admin('GET', '/admin/v1/accounts?limit=1');
      assert.ok(first.body.next_cursor);
      const crossed = await t.admin('GET', `/admin/v1/accounts?state=closed&after=${encodeURIComponent(first.body.next_cursor)}`);
      assert.equal(crossed.status, 400);
      const wrongState = await t.admin('GET', '/admin/v1/accounts?state=deleted');
      assert.equal(wrongState.status, 400);
      assert.equal(wrongState.body.code, 'validation_failed');

      // Seen, not changed: the account's other routes and its writes answer as for an unknown one.
      for (const [method, path, body] of [
        ['PATCH', `/admin/v1/accounts/${closing.body.id}`, { name: 'Back' }],
        ['DELETE', `/admin/v1/accounts/${closing.body.id}`, undefined],
        ['GET', `/admin/v1/accounts/${closing.body.id}/clients`, undefined],
      ] as const) {
        const refused = await t.admin(method, path, body);
        assert.equal(refused.status, 404, `${method} ${path}`);
        assert.equal(refused.body.code, 'account_not_found', `${method} ${path}`);
      }
      assert.equal((await t.admin('GET', `/admin/v1/accounts/${closing.body.id}`)).body.name, 'Leaves');
    });

    it('unknown account → 404 account_not_found', async () => {
      const response = await t.admin('GET', '/admin/v1/accounts/acct_00000000000000000000');
      assert.equal(response.status, 404);
      assert.equal(response.body.code, 'account_not_found');
    });

    it('the admin API is not served on the public listener', async () => {
      const response = await fetch(`${t.publicUrl}/admin/v1/accounts`);
      assert.equal(response.status, 404);
      assert.equal((await json(response)).code, 'not_found');
    });
  });
}
