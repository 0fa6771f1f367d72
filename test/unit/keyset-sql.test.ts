/**
 * The keyset condition each database receives (paging/keyset.ts): the position compared as a
 * row value, which both planners turn into an index range, never the OR of two comparisons;
 * the order on both columns; one more row than the page; and, in a compiled read, the scope's
 * parameters first and the position's right after them, bound by name where selectKeysetRows
 * fills them in; and on PostgreSQL the page's texts gathered in the page's order and joined by the database.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseKind } from '../../src/config.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { keysetPage, keysetRead, NEWEST_FIRST } from '../../src/paging/keyset.ts';
import type { Placeholder } from '../../src/platform/db/prepared.ts';
import { compilers } from './compile.ts';

const EXPECTED: Record<DatabaseKind, { after: string; first: string }> = {
  sqlite: {
    after: 'select "representation" from "invoices" where "account_id" = ? and ("created_at", "id") < (?, ?) order by "created_at" desc, "id" desc limit 21',
    first: 'select "representation" from "invoices" where "account_id" = ? order by "created_at" desc, "id" desc limit 21',
  },
  postgres: {
    after: 'select "representation" from "invoices" where "account_id" = $1 and ("created_at", "id") < ($2, $3) order by "created_at" desc, "id" desc limit 21',
    first: 'select "representation" from "invoices" where "account_id" = $1 order by "created_at" desc, "id" desc limit 21',
  },
};

describe('keyset paging: the SQL each database receives', () => {
  let db: Record<DatabaseKind, Db>;
  before(async () => {
    db = await compilers();
  });

  it('postgres: a joined read gathers the ordered page into an array and joins its first limit texts', () => {
    const read = keysetRead(
      (scopedDb, value: Placeholder<{ accountId: string }>) => scopedDb.selectFrom('invoices').select('representation').where('account_id', '=', value('accountId')),
      NEWEST_FIRST,
    );
    const after = read.joinedQueries(20).after.bind(db.postgres, { accountId: 'acc_1', keysetAfterKey: 1_700_000_000_000, keysetAfterId: 'inv_9' });
    assert.equal(
      after.sql,
      'select cardinality("page") as "found", array_to_string("page"[1:20], \',\') as "joined", "page"[20] as "last" from (select array((' +
        'select "representation" from "invoices" where "account_id" = $1 and ("created_at", "id") < ($2, $3) order by "created_at" desc, "id" desc limit 21' +
        ')) as "page" offset 0) as "keyset_page"',
    );
    assert.deepEqual(after.parameters, ['acc_1', 1_700_000_000_000, 'inv_9']);
    assert.match(after.sql, / limit 21\)/, 'one row more than the page, to learn whether another follows, written in: a bound LIMIT makes PostgreSQL plan every run');
    assert.equal(read.joinedQueries(20).after, read.joinedQueries(20).after, 'compiled once per page size');
  });

  for (const kind of ['sqlite', 'postgres'] as const) {
    describe(kind, () => {
      it('newest first after a position: a row-value comparison, both columns ordered, limit+1 rows', () => {
        const scoped = db[kind].selectFrom('invoices').select('representation').where('account_id', '=', 'acc_1');
        const query = keysetPage(scoped, NEWEST_FIRST, { key: 1_700_000_000_000, id: 'inv_9' }, 21).compile();
        assert.equal(query.sql, EXPECTED[kind].after);
        assert.doesNotMatch(query.sql, / or /i, 'an OR of two comparisons defeats the index range');
        assert.deepEqual(query.parameters, ['acc_1', 1_700_000_000_000, 'inv_9']);
      });

      it('oldest first compares the other way', () => {
        const scoped = db[kind].selectFrom('invoices').select('representation').where('account_id', '=', 'acc_1');
        const query = keysetPage(scoped, { ...NEWEST_FIRST, direction: 'asc' }, { key: 5, id: 'inv_1' }, 3).compile();
        assert.match(query.sql, /\("created_at", "id"\) > \(/);
        assert.match(query.sql, /order by "created_at" asc, "id" asc/);
      });

      it('a compiled read: the first page without a position, the next with the position after the scope', () => {
        const read = keysetRead(
          (scopedDb, value: Placeholder<{ accountId: string }>) => scopedDb.selectFrom('invoices').select('representation').where('account_id', '=', value('accountId')),
          NEWEST_FIRST,
        );
        const queries = read.queries(21);
        const first = queries.first.bind(db[kind], { accountId: 'acc_1' });
        const after = queries.after.bind(db[kind], { accountId: 'acc_1', keysetAfterKey: 1_700_000_000_000, keysetAfterId: 'inv_9' });
        assert.equal(first.sql, EXPECTED[kind].first);
        assert.equal(after.sql, EXPECTED[kind].after);
        // The one scope value first, the position right after it.
        assert.deepEqual(after.parameters, ['acc_1', 1_700_000_000_000, 'inv_9']);
        assert.equal(read.queries(21).after, queries.after, 'compiled once per page size');
        const smaller = read.queries(11).after.bind(db[kind], { accountId: 'acc_1', keysetAfterKey: 1, keysetAfterId: 'x' });
        assert.notEqual(smaller.sql, after.sql, 'the page size is written into the text');
      });
    });
  }
});
