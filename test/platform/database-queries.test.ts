/**
 * Query helpers of the database layer: integer LIMIT/OFFSET written as literals on SQLite (a
 * bound LIMIT makes SQLite prepare the statement again on every run), and prepared queries
 * compiled once and run with the values of their placeholders.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { openDatabase, selectColumn, type Database } from '../../src/platform/db/database.ts';
import { placeholder, preparedForKeys, preparedQuery, type Placeholder } from '../../src/platform/db/prepared.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { sql } from 'kysely';
import fs from 'node:fs';

for (const target of databaseTargets()) {
  describe(`database queries (${target.kind})`, () => {
    let created: { url: string; drop(): Promise<void> };
    let database: Database;
    before(async () => {
      created = await target.create();
      database = await openDatabase({ databaseUrl: created.url });
      await migrateToLatest(database);
      const rows = ['a', 'b', 'c', 'd'].map((name, i) => ({ id: `acct_${name}`, name: `Account ${name}`, created_at: 1000 + i }));
      await database.db.insertInto('accounts').values(rows).execute();
    });
    after(async () => {
      await database.close();
      await created.drop();
    });

    const page = (limit: number, offset: number) => database.db.selectFrom('accounts').select('id').where('name', 'like', 'Account %').orderBy('created_at').limit(limit).offset(offset);

    it('integer LIMIT and OFFSET are literals on SQLite and parameters on PostgreSQL; other values stay bound', () => {
      const compiled = page(2, 1).compile();
      if (target.kind === 'sqlite') {
        assert.match(compiled.sql, / limit 2 offset 1$/);
        assert.deepEqual(compiled.parameters, ['Account %']);
      } else {
        assert.match(compiled.sql, / limit \$2 offset \$3$/);
        assert.deepEqual(compiled.parameters, ['Account %', 2, 1]);
      }
    });

    it('pages of every size and depth read the right rows, one after another', async () => {
      const expected = ['acct_a', 'acct_b', 'acct_c', 'acct_d'];
      for (const [limit, offset] of [[2, 0], [2, 2], [1, 3], [3, 1], [2, 0], [5, 4]] as const) {
        const rows = await page(limit, offset).execute();
        assert.deepEqual(rows.map((r) => r.id), expected.slice(offset, offset + limit));
      }
    });

    it('a prepared query runs with the values of its placeholders; other parameters keep their compiled values', async () => {
      // A placeholder made before the query is built (as a SCIM filter's are) binds as one made in it.
      const name = placeholder<string>('name');
      const byName = preparedQuery((db) => db.selectFrom('accounts').select('id').where('name', '=', name).where('created_at', '>=', 1001).orderBy('id').limit(10));
      const run = async (values: { name: string }) => (await byName.execute(database.db, values)).rows;
      assert.deepEqual(await run({ name: 'Account b' }), [{ id: 'acct_b' }]);
      assert.deepEqual(await run({ name: 'Account a' }), [], 'created_at >= 1001 was kept');
      assert.deepEqual(await run({ name: 'Account d' }), [{ id: 'acct_d' }]);
      assert.deepEqual(await run({ name: 'Account %' }), [], 'a value is compared, never spliced');
    });

    it('selectColumn returns the first column of every row, in the order of the query', async () => {
      const query = database.db.selectFrom('accounts').select('id').where('name', 'like', 'Account %').orderBy('created_at', 'desc').compile();
      assert.deepEqual(await selectColumn<string>(database.db, query), ['acct_d', 'acct_c', 'acct_b', 'acct_a']);
      let pending: Promise<string[]> | undefined;
      await database.db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values({ id: 'acct_e', name: 'Account e', created_at: 2000 }).execute();
        if (target.kind === 'sqlite') {
          // SQLite's one connection is the open transaction's: the read waits for it, so it
          // never sees a transaction's writes half done.
          pending = selectColumn<string>(database.db, query);
          assert.equal(await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('waiting'), 20))]), 'waiting');
        }
        await trx.deleteFrom('accounts').where('id', '=', 'acct_e').execute();
      });
      if (pending) assert.deepEqual(await pending, ['acct_d', 'acct_c', 'acct_b', 'acct_a']);
      assert.deepEqual(await selectColumn<string>(database.db, query), ['acct_d', 'acct_c', 'acct_b', 'acct_a']);
    });

    it('a query over lists of keys finds the rows of every key, for any length of either list, an empty one matching nothing', async () => {
      const byIds = preparedForKeys(['ids', 'names'], (db, keys) =>
        db.selectFrom('accounts').select('id').where((eb) => eb.or([eb('id', 'in', keys.ids), eb('name', 'in', keys.names)])).orderBy('id'),
      );
      const run = async (ids: string[], names: string[]) => (await byIds.execute(database.db, { ids, names })).rows.map((row) => row.id);
      assert.deepEqual(await run(['acct_b'], []), ['acct_b']);
      assert.deepEqual(await run(['acct_c', 'acct_a', 'acct_x'], ['Account d']), ['acct_a', 'acct_c', 'acct_d'], 'three keys (padded to four) and one name');
      assert.deepEqual(await run(['acct_a', 'acct_b', 'acct_c', 'acct_d', 'acct_a'], ['Account %']), ['acct_a', 'acct_b', 'acct_c', 'acct_d'], 'five keys, padded to eight; a value is compared, never spliced');
      assert.deepEqual(await run([], []), []);
    });

    it('a placeholder a query never binds is refused when the query is compiled', () => {
      const unused = preparedQuery((db, value: Placeholder<{ unused: string }>) => {
        value('unused');
        return db.selectFrom('accounts').select('id').where('id', '=', 'x');
      });
      assert.throws(() => unused.bind(database.db, { unused: 'x' }), /placeholder unused is not a parameter/);
    });
  });
}

const socketDirectory = '/var/run/postgresql';
const postgresUrl = process.env.GATEHOUSE_TEST_DATABASE_URL;
describe('PostgreSQL over its Unix socket', { skip: !postgresUrl || !fs.existsSync(socketDirectory) ? 'no PostgreSQL socket here' : false }, () => {
  it('?host=<directory> connects through the socket, and the location names it', async () => {
    const url = new URL(postgresUrl!);
    url.searchParams.set('host', socketDirectory);
    const database = await openDatabase({ databaseUrl: url.href });
    try {
      const { rows } = await sql<{ client: string | null }>`select inet_client_addr()::text as client`.execute(database.db);
      assert.equal(rows[0]!.client, null, 'a socket connection has no client address');
      assert.equal(database.location, `${socketDirectory} (socket)${url.pathname}`);
    } finally {
      await database.close();
    }
  });
});

const postgresTarget = databaseTargets().find((target) => target.kind === 'postgres');
describe('statements PostgreSQL keeps prepared', { skip: postgresTarget ? false : NEEDS_POSTGRES }, () => {
  const accountById = preparedQuery((db, value: Placeholder<{ id: string }>) => db.selectFrom('accounts').select(['id', 'name']).where('id', '=', value('id')));
  const kept = (database: Database) =>
    sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements where name like 'gh\\_%'`.execute(database.db);

  it('a query over lists of keys keeps one generic plan per length: none is planned again on every run', async () => {
    const created = await postgresTarget!.create();
    const database = await openDatabase({ databaseUrl: created.url, poolSize: 1 });
    try {
      await migrateToLatest(database);
      await database.db.insertInto('accounts').values([1, 2, 3].map((i) => ({ id: `acct_plan${i}`, name: `Plan ${i}`, created_at: i }))).execute();
      const byIds = preparedForKeys(['ids'], (db, keys) => db.selectFrom('accounts').select('id').where('id', 'in', keys.ids));
      for (let run = 0; run < 12; run++) {
        assert.equal((await byIds.execute(database.db, { ids: ['acct_plan1'] })).rows.length, 1);
        assert.equal((await byIds.execute(database.db, { ids: ['acct_plan1', 'acct_plan2', 'acct_plan3'] })).rows.length, 3);
      }
      const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
        select statement, generic_plans, custom_plans from pg_prepared_statements where statement like '%from "accounts" where "id" in%'`.execute(database.db);
      // Lengths 1 and 4 (three keys padded): two statements, each planned for its values five times, then generic.
      assert.deepEqual(rows.map((row) => [row.statement.match(/\$\d+/g)!.length, Number(row.custom_plans), Number(row.generic_plans)]).sort(), [[1, 5, 7], [4, 5, 7]]);
    } finally {
      await database.close();
      await created.drop();
    }
  });

  it('a prepared query runs by name, parsed once per connection, and gives the same rows; ?prepare=off runs it unnamed', async () => {
    const created = await postgresTarget!.create();
    for (const prepare of ['on', 'off']) {
      const url = new URL(created.url);
      if (prepare === 'off') url.searchParams.set('prepare', 'off');
      // One connection, so the statement's connection is the one asked about.
      const database = await openDatabase({ databaseUrl: url.href, poolSize: 1 });
      try {
        await migrateToLatest(database);
        const id = `acct_kept_${prepare}`;
        await database.db.insertInto('accounts').values({ id, name: `Kept ${prepare}`, created_at: 1 }).execute();
        for (let run = 0; run < 3; run++) assert.deepEqual((await accountById.execute(database.db, { id })).rows, [{ id, name: `Kept ${prepare}` }]);
        const { rows } = await kept(database);
        const mine = rows.filter((row) => row.statement.includes('from "accounts" where "id" = $1'));
        assert.equal(mine.length, prepare === 'on' ? 1 : 0, JSON.stringify(rows));
      } finally {
        await database.close();
      }
    }
    await created.drop();
  });
});
