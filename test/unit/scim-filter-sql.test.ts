/**
 * SCIM filters (RFC 7644 §3.4.2.2) as the SQL each database receives (scim/filter.ts): string
 * comparisons against the stored lower-cased columns unless caseExact, values always bound,
 * `co` spelled per database, ordering on strings in binary collation on PostgreSQL (SQLite's
 * is binary already), value filters as one sub-select per element, and parse failures as
 * 400 invalidFilter.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseKind } from '../../src/config.ts';
import { postgresDialect, sqliteDialect } from '../../src/platform/db/dialect.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { filterShape, parseFilter, translateFilter } from '../../src/scim/filter.ts';
import { groupFilterTarget } from '../../src/scim/groups-store.ts';
import { userFilterTarget } from '../../src/scim/user-filter.ts';
import { compilers } from './compile.ts';

describe('SCIM filters: the SQL each database receives', () => {
  let db: Record<DatabaseKind, Db>;
  before(async () => {
    db = await compilers();
  });

  function users(kind: DatabaseKind, filter: string) {
    return db[kind].selectFrom('users').select('id').where(translateFilter(userFilterTarget('acc_1', dialects[kind]), filter)).compile();
  }
  function groups(kind: DatabaseKind, filter: string) {
    return db[kind].selectFrom('scim_groups').select('id').where(translateFilter(groupFilterTarget('acc_1', dialects[kind]), filter)).compile();
  }
  const dialects = { sqlite: sqliteDialect, postgres: postgresDialect } as const;
  const placeholder = (kind: DatabaseKind, n: number) => (kind === 'sqlite' ? '?' : `$${n}`);

  for (const kind of ['sqlite', 'postgres'] as const) {
    describe(kind, () => {
      it('userName eq: an index lookup on the lower-cased column, the value lower-cased and bound', () => {
        const query = users(kind, 'userName eq "BJensen"');
        assert.equal(query.sql, `select "id" from "users" where ("users"."user_name_lower" = ${placeholder(kind, 1)})`);
        assert.deepEqual(query.parameters, ['bjensen']);
      });

      it('co is a substring search spelled per database, never LIKE (whose wildcards a value could carry)', () => {
        const query = users(kind, 'userName co "a%_"');
        assert.match(query.sql, kind === 'sqlite' ? /instr\("users"\."user_name_lower", \?\) > 0/ : /strpos\("users"\."user_name_lower", \$1\) > 0/);
        assert.doesNotMatch(query.sql, /like/i);
        assert.deepEqual(query.parameters, ['a%_']);
      });

      it('dateTime and boolean values are compared as stored (epoch milliseconds, 0/1)', () => {
        assert.deepEqual(users(kind, 'meta.lastModified gt "2011-05-13T04:42:34Z"').parameters, [Date.parse('2011-05-13T04:42:34Z')]);
        assert.match(users(kind, 'meta.lastModified gt "2011-05-13T04:42:34Z"').sql, /"users"\."updated_at" > /);
        assert.deepEqual(users(kind, 'active eq true').parameters, [1]);
      });

      it('a value filter is one sub-select per element, scoped to the account, every value bound', () => {
        const query = users(kind, 'emails[type eq "work" and value co "@example.com"]');
        assert.match(query.sql, /^select "id" from "users" where users\.id in \(select e\.user_id from scim_user_values e where e\.account_id = /);
        assert.equal((query.sql.match(/exists \(select 1 from scim_user_values x where x\.user_id = e\.user_id and x\.attr = e\.attr and x\.item = e\.item/g) ?? []).length, 2);
        assert.deepEqual(query.parameters, ['acc_1', 'emails', 'type', 'work', 'value', '@example.com']);
      });

      it('and/or/not keep their grouping', () => {
        const query = users(kind, 'name.familyName sw "J" or not (userName ew "x")');
        // SQLite's lower() folds ASCII only: its connections carry js_lower (sqlite.ts).
        const lower = kind === 'sqlite' ? 'js_lower' : 'lower';
        assert.match(query.sql, new RegExp(`where \\(\\(substr\\(${lower}\\("users"\\."family_name"\\), 1, .+\\) = .+\\) or \\(not \\(`));
      });

      it('ordering comparisons on strings do not depend on the locale', () => {
        const query = groups(kind, 'displayName lt "M"');
        const collate = kind === 'postgres' ? ' collate "C"' : '';
        assert.equal(query.sql, `select "id" from "scim_groups" where ("scim_groups"."display_name_lower"${collate} < ${placeholder(kind, 1)})`);
        assert.deepEqual(query.parameters, ['m']);
      });
    });
  }

  it('filters of one shape share their SQL; only the values differ', () => {
    assert.equal(filterShape(parseFilter('userName eq "a"')), filterShape(parseFilter('userName eq "b"')));
    assert.notEqual(filterShape(parseFilter('userName eq "a"')), filterShape(parseFilter('userName eq 1')));
    assert.equal(users('postgres', 'userName eq "a"').sql, users('postgres', 'userName eq "b"').sql);
  });

  it('what cannot be parsed, is too long or names an unknown attribute is 400 invalidFilter', () => {
    for (const text of ['userName eq', 'userName zz "a"', '(userName eq "a"', 'x'.repeat(4097) + ' pr']) {
      assert.throws(() => users('sqlite', text), { status: 400, code: 'scim_invalidFilter' }, text.slice(0, 40));
    }
  });
});
