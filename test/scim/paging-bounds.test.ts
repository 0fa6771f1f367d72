/**
 * Pagination parameters at their bounds (RFC 7644 §3.4.2.4), on GET and POST /.search, for
 * users and groups: a start past every result is an empty page with the true totalResults
 * however large the start, startIndex below 1 is 1, a negative count is 0, a count above
 * filter.maxResults is maxResults, and anything that is not an integer is a 400 invalidValue.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, ERROR, GROUP, LIST, USER, type ScimClient } from './scim-client.ts';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const MAX_START_INDEX = Number.MAX_SAFE_INTEGER;

for (const target of databaseTargets()) {
  describe(`SCIM pagination bounds (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t, 'Paging');
      for (const name of ['p1', 'p2', 'p3']) {
        assert.equal((await c.call('POST', '/Users', { schemas: [USER], userName: `${name}@example.com` })).status, 201);
        assert.equal((await c.call('POST', '/Groups', { schemas: [GROUP], displayName: name })).status, 201);
      }
    });
    after(() => t.close());

    /** GET with a query string and POST /.search with the same parameters in a body. */
    async function bothWays(path: 'Users' | 'Groups', query: string, body: Record<string, unknown>) {
      return [await c.call('GET', `/${path}?${query}`), await c.call('POST', `/${path}/.search`, { schemas: [SEARCH], ...body })];
    }

    for (const path of ['Users', 'Groups'] as const) {
      it(`RFC 7644 §3.4.2.4: a startIndex past every result, however large, is an empty page with the true totalResults (${path})`, async () => {
        const starts: Array<[string, unknown]> = [
          // 2^63 - 1, whose nearest double a JSON body carries.
          ['9223372036854775807', 2 ** 63],
          ['1e300', 1e300],
          ['1e400', '1e400'],
          [String(MAX_START_INDEX + 1), MAX_START_INDEX + 1],
        ];
        for (const [text, number] of starts) {
          for (const response of await bothWays(path, `startIndex=${text}&count=2`, { startIndex: number, count: 2 })) {
            assert.equal(response.status, 200, text);
            assert.deepEqual(response.body, { schemas: [LIST], totalResults: 3, itemsPerPage: 0, startIndex: MAX_START_INDEX, Resources: [] }, text);
          }
        }
        // Just past the last result, the start is said as asked.
        for (const response of await bothWays(path, 'startIndex=4', { startIndex: 4 })) {
          assert.deepEqual(response.body, { schemas: [LIST], totalResults: 3, itemsPerPage: 0, startIndex: 4, Resources: [] });
        }
      });

      it(`RFC 7644 §3.4.2.4: startIndex below 1 is 1 and a negative count is 0 (${path})`, async () => {
        for (const [query, body] of [
          ['startIndex=0', { startIndex: 0 }],
          ['startIndex=-9223372036854775808', { startIndex: -(2 ** 63) }],
          ['startIndex=-1e300', { startIndex: -1e300 }],
        ] as const) {
          for (const response of await bothWays(path, query, body)) {
            assert.equal(response.status, 200, query);
            assert.equal(response.body.startIndex, 1, query);
            assert.equal(response.body.totalResults, 3, query);
            assert.equal(response.body.itemsPerPage, 3, query);
          }
        }
        for (const [query, body] of [
          ['count=-1', { count: -1 }],
          ['count=-1e300', { count: -1e300 }],
        ] as const) {
          for (const response of await bothWays(path, query, body)) {
            assert.equal(response.status, 200, query);
            assert.deepEqual(response.body, { schemas: [LIST], totalResults: 3, itemsPerPage: 0, startIndex: 1, Resources: [] }, query);
          }
        }
      });

      it(`a startIndex or count that is not an integer → 400 invalidValue in the SCIM Error shape (${path})`, async () => {
        for (const [name, text] of [
          ['startIndex', '1.5'],
          ['startIndex', 'abc'],
          ['startIndex', '0x10'],
          ['startIndex', 'Infinity'],
          ['startIndex', ''],
          ['count', '2.5'],
          ['count', '1e-3'],
          ['count', 'NaN'],
        ]) {
          const response = await c.call('GET', `/${path}?${name}=${encodeURIComponent(text!)}`);
          assert.equal(response.status, 400, `${name}=${text}`);
          assert.deepEqual(response.body, { schemas: [ERROR], status: '400', scimType: 'invalidValue', detail: `${name} must be an integer` }, `${name}=${text}`);
        }
        for (const [name, value] of [
          ['startIndex', 1.5],
          ['startIndex', 'abc'],
          ['startIndex', true],
          ['startIndex', [2]],
          ['count', { n: 1 }],
          ['count', 0.5],
        ] as const) {
          const response = await c.call('POST', `/${path}/.search`, { schemas: [SEARCH], [name]: value });
          assert.equal(response.status, 400, `${name}: ${JSON.stringify(value)}`);
          assert.deepEqual(response.body, { schemas: [ERROR], status: '400', scimType: 'invalidValue', detail: `${name} must be an integer` });
        }
      });
    }

    it('RFC 7644 §3.4.2.4: a count above filter.maxResults of ServiceProviderConfig gives a page of maxResults', async () => {
      const many = await scimClient(t, 'Many groups');
      const config = await many.call('GET', '/ServiceProviderConfig');
      const maxResults = config.body.filter.maxResults as number;
      const now = t.clock.now();
      const rows = Array.from({ length: maxResults + 1 }, (_, i) => ({
        id: `grp_bulk${String(i).padStart(12, '0')}`,
        account_id: many.accountId,
        display_name: `g${i}`,
        display_name_lower: `g${i}`,
        external_id: null,
        version: 1,
        created_at: now,
        updated_at: now,
      }));
      for (let i = 0; i < rows.length; i += 200) await t.gatehouse.database.db.insertInto('scim_groups').values(rows.slice(i, i + 200)).execute();
      for (const response of [
        await many.call('GET', `/Groups?count=${maxResults * 10}&excludedAttributes=members`),
        await many.call('GET', '/Groups?count=9223372036854775807&excludedAttributes=members'),
        await many.call('POST', '/Groups/.search', { schemas: [SEARCH], count: 1e300, excludedAttributes: ['members'] }),
      ]) {
        assert.equal(response.status, 200);
        assert.equal(response.body.totalResults, maxResults + 1);
        assert.equal(response.body.itemsPerPage, maxResults);
        assert.equal(response.body.Resources.length, maxResults);
      }
    });
  });
}
