/**
 * A page's named statement on PostgreSQL keeps one generic plan per connection instead of being
 * planned on every request (paging/keyset.ts `pageSize`): with its LIMIT bound, PostgreSQL costs the
 * generic plan for a tenth of the table, finds it far dearer than a custom plan for the bound
 * value and plans every run again, which cost it more than running the page's read.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { describeOnDatabase } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { keysetRead, NEWEST_FIRST, selectKeysetRows } from '../../src/paging/keyset.ts';
import type { Placeholder } from '../../src/platform/db/prepared.ts';
import { insertInvoices } from './seed.ts';

const ROWS = 3000;

describeOnDatabase('postgres', 'a page read keeps its generic plan (postgres)', (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  const accountId = 'acct_plan';
  const read = keysetRead((db, value: Placeholder<{ accountId: string }>) => db.selectFrom('invoices').select('representation').where('account_id', '=', value('accountId')), NEWEST_FIRST);

  before(async () => {
    const created = await target.create();
    drop = created.drop;
    // One connection, so the statement asked about is the one the reads ran on.
    database = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
    await migrateToLatest(database);
    await database.db.insertInto('accounts').values({ id: accountId, name: 'Plan', created_at: 1 }).execute();
    await insertInvoices(database.db, accountId, Array.from({ length: ROWS }, (_, i) => 1_700_000_000_000 + i));
    await sql`analyze invoices`.execute(database.db);
  });

  after(async () => {
    await database.close();
    await drop();
  });

  it('ten first pages of 100: the same rows each time, planned generically after the fifth', async () => {
    const pages = [];
    for (let run = 0; run < 10; run++) pages.push(await selectKeysetRows(database.db, read, { accountId }, undefined, 100));
    const [first] = pages;
    assert.equal(first!.found, 101);
    assert.equal(JSON.parse(`[${first!.joined}]`).length, 100);
    assert.equal((JSON.parse(first!.last!) as { created_at: string }).created_at, new Date(1_700_000_000_000 + ROWS - 100).toISOString());
    for (const page of pages) assert.deepEqual(page, first);
    const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
      select generic_plans, custom_plans from pg_prepared_statements where name like 'gh\\_%' and statement like '%from "invoices"%'`.execute(database.db);
    assert.equal(rows.length, 1, 'the first page runs as one named statement');
    assert.ok(Number(rows[0]!.generic_plans) >= 5, `planned on every run: ${JSON.stringify(rows[0])}`);
  });
});
