/**
 * How list answers are assembled: the total comes from the page when the page tells it and
 * from a count otherwise, list queries are compiled once per query text and run with the
 * caller's account, and each listed user carries its groups from the same query.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, GROUP, USER, type ScimClient } from './scim-client.ts';

const NAMES = ['u1@example.com', 'u2@example.com', 'u3@example.com', 'u4@example.com', 'u5@example.com'];
const q = (filter: string) => `?filter=${encodeURIComponent(filter)}`;

for (const target of databaseTargets()) {
  describe(`SCIM list queries (${target.kind})`, () => {
    let t: TestApp;
    let a: ScimClient;
    let b: ScimClient;
    const idsOfA: string[] = [];
    before(async () => {
      t = await startTestApp(target);
      a = await scimClient(t, 'A');
      b = await scimClient(t, 'B');
      for (const userName of NAMES) {
        const created = await a.call('POST', '/Users', { schemas: [USER], userName });
        assert.equal(created.status, 201);
        idsOfA.push(created.body.id);
      }
    });
    after(() => t.close());

    // [startIndex, count] → [totalResults, userNames on the page], by userName.
    const PAGES: Array<[number, number, number, string[]]> = [
      [1, 100, 5, NAMES],
      [1, 2, 5, NAMES.slice(0, 2)],
      [4, 2, 5, NAMES.slice(3, 5)],
      [5, 2, 5, NAMES.slice(4)],
      [5, 1, 5, NAMES.slice(4)],
      [6, 2, 5, []],
      [50, 10, 5, []],
      [1, 0, 5, []],
    ];
    for (const [startIndex, count, total, names] of PAGES) {
      it(`RFC 7644 §3.4.2.4: startIndex=${startIndex}&count=${count} → totalResults ${total}, ${names.length} resource(s)`, async () => {
        const response = await a.call('GET', `/Users?sortBy=userName&startIndex=${startIndex}&count=${count}`);
        assert.equal(response.status, 200);
        assert.equal(response.body.totalResults, total);
        assert.equal(response.body.itemsPerPage, names.length);
        assert.equal(response.body.startIndex, startIndex);
        assert.deepEqual(response.body.Resources.map((r: { userName: string }) => r.userName), names);
      });
    }

    it('a filter matching nothing answers totalResults 0 on the first and on a later page', async () => {
      for (const paging of ['', '&startIndex=3&count=2']) {
        const response = await a.call('GET', `/Users${q('userName eq "nobody@example.com"')}${paging}`);
        assert.equal(response.status, 200);
        assert.equal(response.body.totalResults, 0);
        assert.deepEqual(response.body.Resources, []);
      }
    });

    it('the same filter text in two accounts answers each with its own user, in any order of asking', async () => {
      const inB = await b.call('POST', '/Users', { schemas: [USER], userName: 'u3@example.com' });
      assert.equal(inB.status, 201);
      const filter = q('userName eq "U3@example.com"');
      for (const [client, id] of [[a, idsOfA[2]], [b, inB.body.id], [a, idsOfA[2]], [b, inB.body.id]] as const) {
        const response = await client.call('GET', `/Users${filter}`);
        assert.equal(response.status, 200);
        assert.equal(response.body.totalResults, 1);
        assert.deepEqual(response.body.Resources.map((r: { id: string }) => r.id), [id]);
      }
      const deleted = await b.call('DELETE', `/Users/${inB.body.id}`);
      assert.equal(deleted.status, 204);
      assert.equal((await b.call('GET', `/Users${filter}`)).body.totalResults, 0);
      assert.equal((await a.call('GET', `/Users${filter}`)).body.totalResults, 1);
    });

    it('filters that differ only in their values (one compiled shape) each select by their own values', async () => {
      // [filter, userNames it selects]; each group shares one shape.
      const groups: Array<Array<[string, string[]]>> = [
        [['userName eq "u2@example.com"', ['u2@example.com']], ['userName eq "U4@EXAMPLE.COM"', ['u4@example.com']], ['userName eq "nobody"', []]],
        [['userName sw "u1"', ['u1@example.com']], ['userName sw "u"', NAMES], ['userName sw "u5@example.co"', ['u5@example.com']]],
        [['userName ew "5@example.com"', ['u5@example.com']], ['userName ew ".com"', NAMES], ['userName ew "x.com"', []]],
        [['meta.resourceType eq "User" and userName eq "u1@example.com"', ['u1@example.com']], ['meta.resourceType eq "Group" and userName eq "u1@example.com"', []]],
        [['active eq true and userName eq "u3@example.com"', ['u3@example.com']], ['active eq false and userName eq "u3@example.com"', []]],
        [['meta.created lt "2999-01-01T00:00:00Z"', NAMES], ['meta.created lt "2000-01-01T00:00:00Z"', []]],
      ];
      for (const group of groups) {
        for (const [filter, names] of [...group, ...group]) {
          const response = await a.call('GET', `/Users${q(filter)}&sortBy=userName`);
          assert.equal(response.status, 200, filter);
          assert.deepEqual(response.body.Resources.map((r: { userName: string }) => r.userName), names, filter);
          assert.equal(response.body.totalResults, names.length, filter);
        }
      }
      // A value its shape has seen compiled may still be refused on its own merits.
      assert.equal((await a.call('GET', `/Users${q('meta.created lt "yesterday"')}`)).body.scimType, 'invalidFilter');
      assert.equal((await a.call('GET', `/Users${q('userName eq null')}`)).status, 200);
    });

    it('a malformed filter or an unknown sortBy is refused every time it is asked, matches or not', async () => {
      for (let i = 0; i < 2; i++) {
        const malformed = await a.call('GET', `/Users${q('userName eq')}`);
        assert.equal(malformed.status, 400);
        assert.equal(malformed.body.scimType, 'invalidFilter');
        for (const filter of ['userName eq "u1@example.com"', 'userName eq "nobody@example.com"']) {
          const unsorted = await a.call('GET', `/Users${q(filter)}&sortBy=nosuchattribute`);
          assert.equal(unsorted.status, 400);
          assert.equal(unsorted.body.scimType, 'invalidValue');
        }
      }
    });

    it('listed users carry their direct groups ordered by name, as a read of the user does', async () => {
      const zeta = await a.call('POST', '/Groups', { schemas: [GROUP], displayName: 'zeta', members: [{ value: idsOfA[0] }] });
      const alpha = await a.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Alpha "quoted"', members: [{ value: idsOfA[0] }, { value: idsOfA[1] }] });
      assert.equal(zeta.status, 201);
      assert.equal(alpha.status, 201);
      const listed = await a.call('GET', '/Users?sortBy=userName&count=3');
      assert.equal(listed.status, 200);
      const groupsOf = (resource: { groups: Array<{ value: string; display: string; type: string; $ref: string }> }) =>
        resource.groups.map((g) => [g.value, g.display, g.type, g.$ref]);
      const ref = (id: string) => `${t.config.issuer}/scim/v2/Groups/${id}`;
      assert.deepEqual(groupsOf(listed.body.Resources[0]), [
        [alpha.body.id, 'Alpha "quoted"', 'direct', ref(alpha.body.id)],
        [zeta.body.id, 'zeta', 'direct', ref(zeta.body.id)],
      ]);
      assert.deepEqual(groupsOf(listed.body.Resources[1]), [[alpha.body.id, 'Alpha "quoted"', 'direct', ref(alpha.body.id)]]);
      assert.deepEqual(listed.body.Resources[2].groups, []);
      for (const resource of listed.body.Resources) {
        const read = await a.call('GET', `/Users/${resource.id}`);
        assert.deepEqual(read.body.groups, resource.groups);
      }
    });

    it('RFC 7644 §3.4.2.3: resources without the sort attribute come last ascending and first descending', async () => {
      const s = await scimClient(t, 'Sorting');
      const db = t.gatehouse.database.db;
      const people = [
        { userName: 'none-1@example.com' },
        { userName: 'b@example.com', title: 'Bravo', name: { givenName: 'Bravo' } },
        { userName: 'none-2@example.com' },
        { userName: 'a@example.com', title: 'alpha', name: { givenName: 'alpha' } },
      ];
      for (const person of people) assert.equal((await s.call('POST', '/Users', { schemas: [USER], ...person })).status, 201);
      const named = await db.selectFrom('users').select('user_name').where('account_id', '=', s.accountId).where('given_name', 'is not', null).orderBy('user_name').execute();
      assert.deepEqual(named.map((r) => r.user_name), ['a@example.com', 'b@example.com']);
      const list = async (path: string, key: string): Promise<string[]> => {
        const response = await s.call('GET', path);
        assert.equal(response.status, 200, path);
        return response.body.Resources.map((r: Record<string, string>) => r[key]);
      };
      // Resources without the value tie, in no order the RFC gives: they are compared as a set.
      const unordered = (names: string[]) => [...names].sort();
      for (const sortBy of ['title', 'name.givenName']) {
        const up = await list(`/Users?sortBy=${sortBy}&sortOrder=ascending`, 'userName');
        assert.deepEqual(up.slice(0, 2), ['a@example.com', 'b@example.com'], sortBy);
        assert.deepEqual(unordered(up.slice(2)), ['none-1@example.com', 'none-2@example.com'], sortBy);
        const down = await list(`/Users?sortBy=${sortBy}&sortOrder=descending`, 'userName');
        assert.deepEqual(unordered(down.slice(0, 2)), ['none-1@example.com', 'none-2@example.com'], sortBy);
        assert.deepEqual(down.slice(2), ['b@example.com', 'a@example.com'], sortBy);
      }
      for (const group of [{ displayName: 'No id 1' }, { displayName: 'With id', externalId: 'x-1' }, { displayName: 'No id 2' }]) {
        assert.equal((await s.call('POST', '/Groups', { schemas: [GROUP], ...group })).status, 201);
      }
      const up = await list('/Groups?sortBy=externalId&sortOrder=ascending', 'displayName');
      assert.deepEqual([up[0], unordered(up.slice(1))], ['With id', ['No id 1', 'No id 2']]);
      const down = await list('/Groups?sortBy=externalId&sortOrder=descending', 'displayName');
      assert.deepEqual([unordered(down.slice(0, 2)), down[2]], [['No id 1', 'No id 2'], 'With id']);
    });
  });
}
