import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, ENTERPRISE, ERROR, GROUP, USER, type ScimClient } from './scim-client.ts';

const PEOPLE = [
  { userName: 'alice@Example.com', title: 'Engineer', active: true, name: { givenName: 'Alice', familyName: 'Zed' }, emails: [{ value: 'alice@example.com', type: 'work', primary: true }, { value: 'al@home.org', type: 'home' }], [ENTERPRISE]: { department: 'R&D', employeeNumber: '100' } },
  { userName: 'bob@example.com', title: 'Manager', active: false, name: { givenName: 'Bob', familyName: 'Young' }, emails: [{ value: 'bob@home.org', type: 'home' }], [ENTERPRISE]: { department: 'Sales', employeeNumber: '200' } },
  { userName: 'carol@example.org', active: true, name: { givenName: 'Carol', familyName: 'Xu' }, emails: [{ value: 'carol@example.org', type: 'work' }] },
  { userName: 'dave_%@example.com', title: 'engineer', active: true, displayName: 'Dave' },
];

/** filter → the userNames it selects, the same on every database. */
const CASES: Array<[string, string[]]> = [
  ['userName eq "ALICE@example.com"', ['alice@Example.com']],
  ['userName ne "alice@example.com"', ['bob@example.com', 'carol@example.org', 'dave_%@example.com']],
  ['userName co "EXAMPLE.C"', ['alice@Example.com', 'bob@example.com', 'dave_%@example.com']],
  ['userName sw "B"', ['bob@example.com']],
  ['userName ew ".ORG"', ['carol@example.org']],
  ['userName co "_%"', ['dave_%@example.com']],
  ['title pr', ['alice@Example.com', 'bob@example.com', 'dave_%@example.com']],
  ['not (title pr)', ['carol@example.org']],
  ['title eq "engineer"', ['alice@Example.com', 'dave_%@example.com']],
  ['userName gt "bob@example.com"', ['carol@example.org', 'dave_%@example.com']],
  ['userName ge "bob@example.com"', ['bob@example.com', 'carol@example.org', 'dave_%@example.com']],
  ['userName lt "bob@example.com"', ['alice@Example.com']],
  ['userName le "bob@example.com"', ['alice@Example.com', 'bob@example.com']],
  ['active eq true', ['alice@Example.com', 'carol@example.org', 'dave_%@example.com']],
  ['active eq false', ['bob@example.com']],
  ['name.givenName eq "carol"', ['carol@example.org']],
  ['name.familyName sw "y"', ['bob@example.com']],
  ['emails eq "BOB@home.org"', ['bob@example.com']],
  ['emails.value ew "home.org"', ['alice@Example.com', 'bob@example.com']],
  ['emails[type eq "work" and value co "example"]', ['alice@Example.com', 'carol@example.org']],
  ['emails[type eq "home" and value sw "bob"]', ['bob@example.com']],
  ['emails[type eq "work" and primary eq true]', ['alice@Example.com']],
  ['emails[not (type eq "work")]', ['alice@Example.com', 'bob@example.com']],
  // Without brackets the two tests need not hold for the same email (RFC 7644 §3.4.2.2).
  ['emails.type eq "work" and emails.value sw "al@"', ['alice@Example.com']],
  ['emails[type eq "work" and value sw "al@"]', []],
  ['title eq "engineer" or active eq false and name.familyName eq "young"', ['alice@Example.com', 'bob@example.com', 'dave_%@example.com']],
  ['(title eq "engineer" or active eq false) and name.familyName eq "young"', ['bob@example.com']],
  ['title eq "engineer" and not (displayName pr)', ['alice@Example.com']],
  [`${ENTERPRISE}:department eq "r&d"`, ['alice@Example.com']],
  [`${ENTERPRISE}:employeeNumber gt "150"`, ['bob@example.com']],
  ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "carol@example.org"', ['carol@example.org']],
  ['meta.resourceType eq "User" and userName sw "a"', ['alice@Example.com']],
  ['meta.created gt "2000-01-01T00:00:00Z" and userName sw "c"', ['carol@example.org']],
  ['meta.lastModified lt "2000-01-01T00:00:00Z"', []],
  ['userName Eq "bob@example.com" OR userName eQ "carol@example.org"', ['bob@example.com', 'carol@example.org']],
  ['groups.display eq "admins"', ['alice@Example.com']],
];

const MALFORMED = [
  'userName eq',
  'userName xx "a"',
  '((userName eq "a")',
  'userName eq "unterminated',
  'emails[type eq "work"',
  'and',
  'userName eq "a" and',
  'nosuchattribute eq "x"',
  'password eq "secret"',
  'active gt true',
  'active eq "yes"',
  'userName eq 5',
  'meta.created gt "yesterday"',
  'emails[value eq "a"[type eq "b"]]',
  'name eq "x"',
  'emails[nosub eq "x"]',
  '',
];

for (const target of databaseTargets()) {
  describe(`SCIM filters → SQL (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t);
      const ids: string[] = [];
      for (const person of PEOPLE) {
        const created = await c.call('POST', '/Users', { schemas: [USER, ENTERPRISE], ...person });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        ids.push(created.body.id);
      }
      const group = await c.call('POST', '/Groups', { schemas: [GROUP], displayName: 'Admins', members: [{ value: ids[0] }] });
      assert.equal(group.status, 201);
      // Another account's users never match.
      const other = await scimClient(t, 'Other');
      await other.call('POST', '/Users', { schemas: [USER], userName: 'alice@example.com', title: 'Engineer' });
    });
    after(() => t.close());

    for (const [filter, expected] of CASES) {
      it(`RFC 7644 §3.4.2.2: ${filter}`, async () => {
        const response = await c.call('GET', `/Users?filter=${encodeURIComponent(filter)}&sortBy=userName`);
        assert.equal(response.status, 200, JSON.stringify(response.body));
        assert.equal(response.body.totalResults, expected.length);
        assert.deepEqual(response.body.Resources.map((r: { userName: string }) => r.userName), expected);
      });
    }

    it('RFC 7643 §2.1: strings that are not caseExact compare case-insensitively beyond ASCII, the stored case included', async () => {
      const u = await scimClient(t, 'Unicode');
      const created = await u.call('POST', '/Users', { schemas: [USER], userName: 'Ömer@example.net', displayName: 'Ærø Ömer', name: { givenName: 'Ömer', familyName: 'Łódź' } });
      assert.equal(created.status, 201);
      const filters = [
        'name.givenName eq "Ömer"',
        'name.givenName eq "ÖMER"',
        'name.givenName eq "ömer"',
        'name.familyName eq "ŁÓDŹ"',
        'name.familyName sw "ł"',
        'displayName eq "ærø ömer"',
        'displayName sw "ÆR"',
        'displayName ew "ÖMER"',
        'userName eq "ömer@EXAMPLE.net"',
      ];
      for (const filter of filters) {
        const response = await u.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(response.status, 200, filter);
        assert.equal(response.body.totalResults, 1, filter);
        assert.equal(response.body.Resources[0].id, created.body.id, filter);
      }
      const none = await u.call('GET', `/Users?filter=${encodeURIComponent('name.givenName eq "Omer"')}`);
      assert.equal(none.body.totalResults, 0);
    });

    it('a stored displayName or name is found by its own value on both databases, whatever its letters lower-case to', async () => {
      // İ and a final Σ lower-case differently in JavaScript and in PostgreSQL's lower().
      const u = await scimClient(t, 'Lowering');
      const person = { displayName: 'ÉMILE.İSTANBUL@X.COM', name: { givenName: 'ΟΔΟΣ', familyName: 'İNCE' } };
      const created = await u.call('POST', '/Users', { schemas: [USER], userName: 'emile@x.com', ...person });
      assert.equal(created.status, 201);
      const stored = await t.gatehouse.database.db.selectFrom('users').select(['display_name', 'given_name', 'family_name']).where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.deepEqual(stored, { display_name: person.displayName, given_name: person.name.givenName, family_name: person.name.familyName });
      for (const filter of [
        'displayName eq "ÉMILE.İSTANBUL@X.COM"',
        'displayName eq "émile.İstanbul@x.com"',
        'displayName sw "ÉMILE.İ"',
        'displayName ew "İSTANBUL@X.COM"',
        'displayName co ".İST"',
        'displayName ge "ÉMILE.İSTANBUL@X.COM" and displayName le "ÉMILE.İSTANBUL@X.COM"',
        'name.givenName eq "ΟΔΟΣ"',
        'name.givenName ew "ΔΟΣ"',
        'name.familyName eq "İNCE"',
        'name.familyName sw "İ"',
      ]) {
        const response = await u.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(response.status, 200, filter);
        assert.equal(response.body.totalResults, 1, filter);
        assert.deepEqual(response.body.Resources.map((r: { id: string }) => r.id), [created.body.id], filter);
      }
      const other = await u.call('GET', `/Users?filter=${encodeURIComponent('displayName ne "ÉMILE.İSTANBUL@X.COM"')}`);
      assert.equal(other.status, 200);
      assert.equal(other.body.totalResults, 0);
    });

    it('RFC 7644 §3.4.2.2: a compared value is a JSON string, its escapes decoded (backslash, quote, tab, \\u)', async () => {
      const d = await scimClient(t, 'Backslashes');
      const db = t.gatehouse.database.db;
      const userName = String.raw`CONTOSO\jdoe`;
      const created = await d.call('POST', '/Users', { schemas: [USER], userName, title: 'say "hi"', displayName: 'tab\there' });
      assert.equal(created.status, 201);
      const stored = await db.selectFrom('users').select('user_name').where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.equal(stored.user_name, userName);
      // Each filter as a directory writes it: the value a JSON literal, so "\\" is one backslash.
      for (const filter of [
        String.raw`userName eq "CONTOSO\\jdoe"`,
        String.raw`userName sw "CONTOSO\\"`,
        String.raw`userName ew "\\JDOE"`,
        String.raw`userName eq "CONTOSO\\j\u0064oe"`,
        String.raw`title eq "say \"hi\""`,
        String.raw`title co "\""`,
        String.raw`displayName eq "tab\there"`,
        String.raw`emails[value eq "x"] or userName eq "contoso\\JDOE"`,
      ]) {
        const response = await d.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(response.status, 200, filter);
        assert.equal(response.body.totalResults, 1, filter);
        assert.deepEqual(response.body.Resources.map((r: { userName: string }) => r.userName), [userName], filter);
      }
      // Two backslashes in the filter's text are one in the value, never two.
      const doubled = await d.call('GET', `/Users?filter=${encodeURIComponent(String.raw`userName eq "CONTOSO\\\\jdoe"`)}`);
      assert.equal(doubled.status, 200);
      assert.equal(doubled.body.totalResults, 0);
      // A directory that found nobody would create the user again: the filter must find it first.
      const again = await d.call('POST', '/Users', { schemas: [USER], userName });
      assert.equal(again.status, 409);
      assert.equal((await db.selectFrom('users').select('id').where('account_id', '=', d.accountId).execute()).length, 1);
    });

    it('a value with a malformed escape is 400 invalidFilter naming it', async () => {
      for (const filter of [String.raw`userName eq "CONTOSO\jdoe"`, String.raw`userName eq "\u00"`, String.raw`userName sw "a\x41"`, 'userName eq "tab\there"']) {
        const response = await c.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(response.status, 400, filter);
        assert.deepEqual(response.body.schemas, [ERROR], filter);
        assert.equal(response.body.scimType, 'invalidFilter', filter);
        assert.match(response.body.detail, /is not a JSON string/, filter);
      }
    });

    it('the same filter through POST /.search with attributes, sort and paging', async () => {
      const response = await c.call('POST', '/Users/.search', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'title pr',
        attributes: ['userName', 'name.givenName'],
        sortBy: 'userName',
        sortOrder: 'descending',
        startIndex: 2,
        count: 1,
      });
      assert.equal(response.status, 200);
      assert.equal(response.body.totalResults, 3);
      assert.equal(response.body.itemsPerPage, 1);
      assert.equal(response.body.startIndex, 2);
      assert.deepEqual(response.body.Resources, [{ schemas: [USER, ENTERPRISE], id: response.body.Resources[0].id, userName: 'bob@example.com', name: { givenName: 'Bob' } }]);
    });

    it('userName and a group’s displayName are stored trimmed, and eq finds them by the value as sent', async () => {
      const user = await c.call('POST', '/Users', { schemas: [USER], userName: ' padded@example.com ' });
      assert.equal(user.body.userName, 'padded@example.com');
      const found = await c.call('GET', `/Users?filter=${encodeURIComponent('userName eq " padded@example.com "')}`);
      assert.deepEqual(found.body.Resources.map((r: { id: string }) => r.id), [user.body.id]);
      const group = await c.call('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Padded team ' });
      const team = await c.call('GET', `/Groups?filter=${encodeURIComponent('displayName eq "Padded team "')}`);
      assert.deepEqual(team.body.Resources.map((r: { id: string }) => r.id), [group.body.id]);
      // sw and co compare the text as given.
      assert.equal((await c.call('GET', `/Users?filter=${encodeURIComponent('userName sw " padded"')}`)).body.totalResults, 0);
    });

    it('POST /.search: a member of the wrong type is refused, never left out (a filter left out would list everyone)', async () => {
      const search = (body: Record<string, unknown>) => c.call('POST', '/Users/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], ...body });
      const refused: Array<[Record<string, unknown>, string]> = [
        [{ filter: { userName: 'bob@example.com' } }, 'invalidFilter'],
        [{ filter: ['title pr'] }, 'invalidFilter'],
        [{ filter: 7 }, 'invalidFilter'],
        [{ filter: `userName eq "${'x'.repeat(5000)}"` }, 'invalidValue'],
        [{ filter: 'title pr', sortBy: 3 }, 'invalidValue'],
        [{ filter: 'title pr', sortOrder: 'sideways' }, 'invalidValue'],
        [{ filter: 'title pr', attributes: [1] }, 'invalidValue'],
        [{ filter: 'title pr', excludedAttributes: { userName: true } }, 'invalidValue'],
      ];
      for (const [body, scimType] of refused) {
        const response = await search(body);
        assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
        assert.equal(response.body.scimType, scimType, JSON.stringify(response.body));
      }
      const comma = await search({ filter: 'title pr', attributes: 'userName,title', sortBy: 'userName' });
      assert.equal(comma.status, 200);
      assert.equal(comma.body.totalResults, 3);
    });

    for (const filter of MALFORMED.filter(Boolean)) {
      it(`malformed filter ${JSON.stringify(filter)} → 400 invalidFilter`, async () => {
        const response = await c.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(response.status, 400);
        assert.equal(response.body.status, '400');
        assert.equal(response.body.scimType, 'invalidFilter');
      });
    }

    it('a malformed filter is explained in the filter syntax\'s own terms, not the parser\'s', async () => {
      for (const [filter, detail] of [
        ['userName eq', /a comparison needs a value after its operator, e\.g\. userName eq "bjensen"/],
        ['(userName eq "a"', /a "\(" is not closed/],
        ['emails[type eq "work"', /a "\[" is not closed/],
        ['userName eq "a" and', /it ends where more was expected/],
        ['userName zz "a"', /each comparison is an attribute, an operator/],
      ] as const) {
        const response = await c.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
        assert.equal(response.status, 400, filter);
        assert.equal(response.body.scimType, 'invalidFilter', filter);
        assert.match(response.body.detail, detail, filter);
        assert.doesNotMatch(response.body.detail, /EOT|valFilter|json/, filter);
      }
    });

    it('any filter text → 200 or 400, never 500', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 40, unit: fc.constantFrom(...'userName eq "a" ( ) [ ] and or not pr emails.value co 1 true . : ,'.split('')) }), async (filter) => {
          const response = await c.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
          assert.ok(response.status === 200 || (response.status === 400 && response.body.scimType === 'invalidFilter'), `${filter} → ${response.status}`);
        }),
        { numRuns: 60 },
      );
    });
  });
}
