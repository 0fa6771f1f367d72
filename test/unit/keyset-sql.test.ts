/**
 * The keyset condition each database receives (paging/keyset.ts): the position compared as a
 * row value, which both planners turn into an index range, never the OR of two comparisons;
 * the order on both columns; one more row than the page; and, in a compiled read, the scope's
 * parameters first and the position's right after them, where selectKeysetPage fills them in.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DatabaseKind } from '../../src/config.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { compileKeysetRead, keysetPage, NEWEST_FIRST } from '../../src/paging/keyset.ts';
import { compilers } from './compile.ts';

const EXPECTED: Record<DatabaseKind, { after: string; first: string }> = {
  sqlite: {
    after: 'select "representation" from "invoices" where "account_id" = ? and ("created_at", "id") < (?, ?) order by "created_at" desc, "id" desc limit 21',
    first: 'select "representation" from "invoices" where "account_id" = ? order by "created_at" desc, "id" desc limit 21',
  },
  postgres: {
    after: 'select "representation" from "invoices" where "account_id" = $1 and ("created_at", "id") < ($2, $3) order by "created_at" desc, "id" desc limit $4',
    first: 'select "representation" from "invoices" where "account_id" = $1 order by "created_at" desc, "id" desc limit $2',
  },
};

describe('keyset paging: the SQL each database receives', () => {
  let db: Record<DatabaseKind, Db>;
  before(async () => {
    db = await compilers();
  });

  for (const kind of ['sqlite', 'postgres'] as const) {
    describe(kind, () => {
      it('newest first after a position: a row-value comparison, both columns ordered, limit+1 rows', () => {
        const scoped = db[kind].selectFrom('invoices').select('representation').where('account_id', '=', 'acc_1');
        const query = keysetPage(scoped, NEWEST_FIRST, { key: 1_700_000_000_000, id: 'inv_9' }, 21).compile();
        assert.equal(query.sql, EXPECTED[kind].after);
        assert.doesNotMatch(query.sql, / or /i, 'an OR of two comparisons defeats the index range');
        assert.deepEqual(query.parameters, kind === 'sqlite' ? ['acc_1', 1_700_000_000_000, 'inv_9'] : ['acc_1', 1_700_000_000_000, 'inv_9', 21]);
      });

      it('oldest first compares the other way', () => {
        const scoped = db[kind].selectFrom('invoices').select('representation').where('account_id', '=', 'acc_1');
        const query = keysetPage(scoped, { ...NEWEST_FIRST, direction: 'asc' }, { key: 5, id: 'inv_1' }, 3).compile();
        assert.match(query.sql, /\("created_at", "id"\) > \(/);
        assert.match(query.sql, /order by "created_at" asc, "id" asc/);
      });

      it('a compiled read: the first page without a position, the next with the position after the scope', () => {
        const read = compileKeysetRead(db[kind].selectFrom('invoices').select('representation').where('account_id', '=', ''), NEWEST_FIRST);
        assert.equal(read.scopeSize, 1);
        const { first, after } = read.queries(21);
        assert.equal(first.sql, EXPECTED[kind].first);
        assert.equal(after.sql, EXPECTED[kind].after);
        assert.equal(read.queries(21).after, after, 'compiled once per page size');
        assert.notEqual(read.queries(11).after.sql === after.sql && kind === 'sqlite', true, 'SQLite writes the page size into the text');
      });
    });
  }
});
