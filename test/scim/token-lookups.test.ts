/**
 * SCIM tokens checked together: on PostgreSQL the token lookups of requests that arrive together
 * go as one statement (`lookupByKey`); each request is still judged by its own token, answered
 * as its own account, and a revoked token is refused on the very next request.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { statementsSentDuring } from '../helpers/sent-statements.ts';
import { createScimTokens } from '../../src/scim/tokens.ts';
import { ERROR, LIST, USER, scimClient, type ScimClient } from './scim-client.ts';

for (const target of databaseTargets()) {
  describe(`SCIM token lookups arriving together (${target.kind})`, () => {
    let t: TestApp;
    let north: ScimClient;
    let south: ScimClient;
    let revokedToken: string;
    before(async () => {
      t = await startTestApp(target);
      north = await scimClient(t, 'North');
      south = await scimClient(t, 'South');
      assert.equal((await north.call('POST', '/Users', { schemas: [USER], userName: 'ada@north.example' })).status, 201);
      assert.equal((await south.call('POST', '/Users', { schemas: [USER], userName: 'bob@south.example' })).status, 201);
      const issued = await t.admin('POST', `/admin/v1/accounts/${north.accountId}/scim-tokens`, { description: 'Old IdP' });
      revokedToken = issued.body.token as string;
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${north.accountId}/scim-tokens/${issued.body.id as string}`)).status, 204);
    });
    after(() => t.close());

    const listUsers = (token: string) => fetch(`${t.publicUrl}/scim/v2/Users`, { headers: { authorization: `Bearer ${token}` } });

    it('requests sent at once: each sees only its own account; a revoked or unknown token is refused with a SCIM 401', async () => {
      const tokens = { north: north.token, south: south.token, revoked: revokedToken, unknown: `gh_scim_${'A'.repeat(43)}` };
      const names = Object.keys(tokens) as Array<keyof typeof tokens>;
      const sent = [...names, ...names, ...names];
      const answers = await Promise.all(sent.map(async (name) => ({ name, response: await listUsers(tokens[name]) })));
      for (const { name, response } of answers) {
        const body = (await response.json()) as { schemas: string[]; Resources?: Array<{ userName: string }>; status?: string };
        if (name === 'north' || name === 'south') {
          assert.equal(response.status, 200, name);
          assert.deepEqual(body.schemas, [LIST]);
          assert.deepEqual(body.Resources!.map((u) => u.userName), [name === 'north' ? 'ada@north.example' : 'bob@south.example']);
        } else {
          assert.equal(response.status, 401, name);
          assert.deepEqual(body.schemas, [ERROR]);
          assert.equal(body.status, '401');
          assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
        }
      }
    });

    it('lookups asked for in one turn of the event loop: one statement on PostgreSQL, each answered for its own token', async () => {
      const tokens = createScimTokens({ db: t.gatehouse.database.db, clock: t.clock });
      const asked = [north.token, revokedToken, south.token, north.token, `gh_scim_${'B'.repeat(43)}`];
      let principals: Array<{ accountId: string } | undefined> = [];
      const statements = await statementsSentDuring(async () => {
        principals = await Promise.all(asked.map((token) => tokens.verify(token)));
      });
      assert.deepEqual(
        principals.map((p) => p?.accountId),
        [north.accountId, undefined, south.accountId, north.accountId, undefined],
      );
      // Counted by table: the app's background work (the audit sealer) may send statements meanwhile.
      const lookups = statements.filter((s) => s.text.includes('"scim_tokens"'));
      if (target.kind === 'postgres') assert.equal(lookups.length, 1, lookups.map((s) => s.text).join('\n'));
    });
  });
}
