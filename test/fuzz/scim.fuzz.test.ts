/**
 * Fuzzing /scim/v2: JSON bodies of POST, PUT, PATCH and .search for Users and Groups, filters
 * (GET ?filter= and .search), PATCH operations and paths, and list parameters. Properties: never
 * a 5xx, the server still answers, every error is the RFC 7644 §3.12 Error schema, and a refused
 * request stores nothing. Runs on both databases: filters become SQL, and the two dialects
 * differ in what text and numbers they accept.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { GROUP, PATCH, USER, scimClient, type ScimClient } from '../scim/scim-client.ts';
import {
  assertAlive, assertScimError, assertUnchanged, formEncode, fuzz, nastyJsonText, nastyJsonValue, nastyString, rawRequest, stateDigest, type RawResponse, type StateTable,
} from './support.ts';

/** What a SCIM request can touch. */
const TABLES: StateTable[] = ['users', 'scim_groups', 'scim_group_members', 'scim_user_values', 'access_tokens', 'oauth_sessions', 'oauth_grants', 'oauth_refresh_tokens'];
const ATTRIBUTES = [
  'userName', 'externalId', 'active', 'displayName', 'name.givenName', 'name.familyName', 'emails', 'emails.value', 'emails[type eq "work"].value',
  'meta.lastModified', 'meta.created', 'id', 'groups', 'groups.value', 'members', 'members.value', 'title', 'nickName',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value',
  'urn:ietf:params:scim:schemas:core:2.0:User:userName', 'phoneNumbers[type eq "mobile"].value', 'addresses[type eq "work"].locality',
];
const OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr', 'EQ', 'Eq', 'xx'];

for (const target of databaseTargets()) {
  const runs = target.kind === 'sqlite' ? 1 : 0.5;
  describe(`fuzz: SCIM bodies, filters and PATCH paths (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    let userId: string;
    let groupId: string;

    const send = (method: string, path: string, body?: Buffer | string) =>
      rawRequest(t.publicUrl, {
        method,
        target: `/scim/v2${path}`,
        headers: [['authorization', `Bearer ${c.token}`], ...(body === undefined ? [] : [['content-type', 'application/scim+json'] as [string, string]])],
        body,
      });

    /** A 2xx, or a SCIM Error and nothing stored. Returns whether it succeeded. */
    async function check(response: RawResponse, before: Record<string, string>, context: string): Promise<boolean> {
      await assertAlive(t, response, context);
      if (response.status < 300) return true;
      assertScimError(response, context);
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db, TABLES), context);
      return false;
    }

    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'warn' } });
      c = await scimClient(t);
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: 'ada@example.com', externalId: 'e-1', name: { givenName: 'Ada', familyName: 'L' }, emails: [{ value: 'ada@example.com', type: 'work', primary: true }] });
      assert.equal(user.status, 201, JSON.stringify(user.body));
      userId = user.body.id;
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'payers', externalId: 'g-1', members: [{ value: userId }] });
      assert.equal(group.status, 201, JSON.stringify(group.body));
      groupId = group.body.id;
    });
    after(() => t.close());

    const filterText = fc.letrec<{ filter: string }>((tie) => ({
      filter: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...OPERATORS), fc.oneof(nastyString.map((s) => JSON.stringify(s)), fc.constantFrom('true', 'false', 'null', '42', '-1e999', '"2024-01-01T00:00:00Z"', '"\\u0000"', "'x'", ''))).map(([a, o, v]) => (o.toLowerCase() === 'pr' ? `${a} pr` : `${a} ${o} ${v}`)),
        fc.tuple(tie('filter'), fc.constantFrom('and', 'or', 'AND', 'xor'), tie('filter')).map(([l, op, r]) => `${l} ${op} ${r}`),
        tie('filter').map((f) => `not (${f})`),
        tie('filter').map((f) => `(${f})`),
        tie('filter').map((f) => `emails[${f}]`),
        nastyString,
        fc.constantFrom('(', ')', '[', 'userName eq', 'eq "x"', 'userName eq "unterminated', 'a.b.c.d eq 1', 'members[value eq "x"].display eq "y"', '(((((((((((((((((((((((((((((((((((((x eq 1)))))))))))))))))))))))))))))))))))))'),
      ),
    })).filter;

    it('filters: any filter, sortBy and paging on Users and Groups (GET and POST .search) → a ListResponse or invalidFilter; nothing stored', async () => {
      const query = fc.record({
        kind: fc.constantFrom('Users', 'Groups'),
        filter: filterText,
        viaSearch: fc.boolean(),
        sortBy: fc.option(fc.oneof(fc.constantFrom(...ATTRIBUTES), nastyString)),
        startIndex: fc.option(fc.oneof(fc.integer(), fc.constantFrom('x', '1e3', '-0', '99999999999999999999'))),
        count: fc.option(fc.oneof(fc.integer(), fc.constantFrom('x', '1.5', '99999999999999999999'))),
      });
      const before = await stateDigest(t.gatehouse.database.db, TABLES);
      await fuzz(query, 120 * runs, async (q) => {
        let response: RawResponse;
        if (q.viaSearch) {
          const body: Record<string, unknown> = { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter: q.filter };
          if (q.sortBy !== null) body.sortBy = q.sortBy;
          if (q.startIndex !== null) body.startIndex = q.startIndex;
          if (q.count !== null) body.count = q.count;
          response = await send('POST', `/${q.kind}/.search`, JSON.stringify(body));
        } else {
          const params = [`filter=${formEncode(q.filter)}`, q.sortBy === null ? '' : `sortBy=${formEncode(q.sortBy)}`, q.startIndex === null ? '' : `startIndex=${q.startIndex}`, q.count === null ? '' : `count=${q.count}`];
          response = await send('GET', `/${q.kind}?${params.filter(Boolean).join('&')}`);
        }
        const context = `${q.viaSearch ? 'POST .search' : 'GET'} /${q.kind} filter ${JSON.stringify(q.filter)}`;
        if (await check(response, before, context)) {
          assert.equal(response.status, 200, context);
          const list = response.json() as { Resources: unknown[]; totalResults: number };
          assert.ok(Array.isArray(list.Resources) && Number.isInteger(list.totalResults), context);
        }
      });
    });

    it('PATCH Users and Groups: any operations and paths → 200 or a SCIM Error; refused patches store nothing', async () => {
      const operation = fc.record(
        {
          op: fc.oneof(fc.constantFrom('add', 'replace', 'remove', 'Add', 'Replace', 'Remove', 'REPLACE', 'move', 'copy', 'test'), nastyJsonValue),
          path: fc.oneof(fc.constantFrom(...ATTRIBUTES, 'members[value eq "nobody"]', `members[value eq "${'x'.repeat(10)}"]`, 'name', 'emails[value co "@"]', 'urn:bad:schema:attr', '', 'meta', 'id', 'schemas'), nastyString, nastyJsonValue),
          value: nastyJsonValue,
        },
        { requiredKeys: ['op'] },
      );
      const body = fc.oneof(
        fc.array(operation, { maxLength: 4 }).map((ops) => JSON.stringify({ schemas: [PATCH], Operations: ops })),
        fc.array(operation, { maxLength: 4 }).map((ops) => JSON.stringify({ schemas: [PATCH], operations: ops })),
        nastyJsonText({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] }).map((b) => b.toString('latin1')),
      );
      await fuzz(fc.tuple(fc.constantFrom('Users', 'Groups'), body), 120 * runs, async ([kind, text]) => {
        const before = await stateDigest(t.gatehouse.database.db, TABLES);
        const response = await send('PATCH', `/${kind}/${kind === 'Users' ? userId : groupId}`, Buffer.from(text, 'latin1'));
        const context = `PATCH /${kind} ${text.slice(0, 400)}`;
        if (await check(response, before, context)) assert.ok([200, 204].includes(response.status), `${context}: ${response.status}`);
      });
    });

    it('POST and PUT Users and Groups, and /Bulk: adversarial bodies → 2xx or a SCIM Error; refused bodies store nothing', async () => {
      const userBase = { schemas: [USER], userName: 'grace@example.com', externalId: 'e-2', active: true, name: { givenName: 'G', familyName: 'H' }, emails: [{ value: 'g@example.com' }] };
      const groupBase = { schemas: [GROUP], displayName: 'readers', externalId: 'g-2', members: [{ value: 'x' }] };
      const cases = fc.oneof(
        nastyJsonText(userBase).map((body) => ({ method: 'POST', path: '/Users', body })),
        nastyJsonText(groupBase).map((body) => ({ method: 'POST', path: '/Groups', body })),
        nastyJsonText({ ...userBase, userName: 'ada@example.com', externalId: 'e-1' }).map((body) => ({ method: 'PUT', path: `/Users/${userId}`, body })),
        nastyJsonText({ ...groupBase, displayName: 'payers', externalId: 'g-1' }).map((body) => ({ method: 'PUT', path: `/Groups/${groupId}`, body })),
        nastyJsonText({ schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [{ method: 'POST', path: '/Users', bulkId: 'b', data: userBase }] }).map((body) => ({ method: 'POST', path: '/Bulk', body })),
      );
      await fuzz(cases, 120 * runs, async ({ method, path, body }) => {
        const before = await stateDigest(t.gatehouse.database.db, TABLES);
        const response = await send(method, path, body);
        const context = `${method} ${path} ${body.toString('latin1').slice(0, 400)}`;
        if (await check(response, before, context)) {
          if (method === 'POST' && path !== '/Bulk') {
            // Created: remove it again so later cases meet the same uniqueness conditions.
            const id = (response.json() as { id: string }).id;
            assert.equal((await send('DELETE', `${path}/${id}`)).status, 204);
          }
        }
      });
    });

    it('resource ids and projections in the path and query: any text → the resource, 404 or 400 in the SCIM Error shape', async () => {
      const cases = fc.tuple(fc.constantFrom('Users', 'Groups'), fc.oneof(nastyString, fc.constant(userId), fc.constant(groupId)), fc.option(fc.oneof(fc.constantFrom(...ATTRIBUTES), nastyString)));
      const before = await stateDigest(t.gatehouse.database.db, TABLES);
      await fuzz(cases, 60 * runs, async ([kind, id, attributes]) => {
        const path = `/${kind}/${formEncode(id)}${attributes === null ? '' : `?attributes=${formEncode(attributes)}`}`;
        const response = await send('GET', path);
        const context = `GET ${path}`;
        await assertAlive(t, response, context);
        if (response.status !== 200) assertScimError(response, context);
      });
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db, TABLES), 'SCIM GET');
    });
  });
}
