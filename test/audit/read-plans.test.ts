/**
 * Every filter of GET /v1/audit-events, and of the admin API's read across accounts, reads
 * through an index on both databases, never the whole trail: the read indexes by actor, target
 * and time across accounts hold sealed records only (migration 0602), so each read takes its
 * sealed records from them and the unsealed few from the index of unsealed records. Checked on
 * each database's own plan over a trail of sealed records with a few unsealed, statistics taken.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { auditPageQuery, type AuditFilters } from '../../src/audit/query.ts';

const SEALED = 20_000;
const UNSEALED = 40;
const ACCOUNTS = 20;
const ACTORS = 200;

function record(i: number, sealed: boolean) {
  return {
    id: `aud_${String(i).padStart(8, '0')}`,
    account_id: `acct_${i % ACCOUNTS}`,
    occurred_at: 1_700_000_000_000 + i * 1000,
    action: ['user.created', 'payout.created', 'client.updated', 'token.revoked'][i % 4]!,
    actor_type: 'user',
    actor_id: `usr_actor${i % ACTORS}`,
    target_type: 'user',
    target_id: `usr_${i}`,
    ...(sealed ? { seq: Math.floor(i / ACCOUNTS) + 1, hash: 'h', prev_hash: 'p' } : {}),
  };
}

async function writeTrail(database: Database): Promise<void> {
  const rows = [...Array.from({ length: SEALED }, (_, i) => record(i, true)), ...Array.from({ length: UNSEALED }, (_, i) => record(SEALED + i, false))];
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('audit_events').values(rows.slice(i, i + 500)).execute();
  });
  await database.db.executeQuery(CompiledQuery.raw('analyze'));
}

async function planOf(database: Database, accountId: string | undefined, filters: AuditFilters, after: boolean): Promise<string> {
  const query = auditPageQuery(database.db, { accountId, filters, direction: 'desc', after: after ? { key: 1_700_000_000_000 + 10_000_000, id: 'aud_00010000' } : undefined, take: 51 }).compile();
  const explain = database.dialect.name === 'sqlite' ? 'explain query plan ' : 'explain ';
  const { rows } = await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(explain + query.sql, [...query.parameters]));
  return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
}

/** A plan that reads the table whole: SQLite's SCAN without an index, PostgreSQL's Seq Scan. */
const WHOLE_TABLE = /SCAN audit_events(?! USING)|Seq Scan on audit_events/;
/** The indexes sealed records are read through (which one is the planner's choice). */
const SEALED_INDEX = /audit_events_(account_time|actor|target|time|chain)\b/;

const FILTERS: Array<[string, AuditFilters]> = [
  ['none', {}],
  ['actor', { actor: 'usr_actor7' }],
  ['target', { target: 'usr_1234' }],
  ['action prefix', { action: 'payout.' }],
  ['time range', { since: '2023-11-14T22:15:00Z', until: '2023-11-15T00:00:00Z' }],
  ['actor, action and time', { actor: 'usr_actor7', action: 'user.', since: '2023-11-14T22:15:00Z' }],
];

/**
 * No index holds the action: across accounts, an action prefix alone is read along the index by
 * time on SQLite, and PostgreSQL may judge reading the table cheaper for a prefix it expects to
 * match often (it did before the read indexes held sealed records only, too).
 */
const mayReadWhole = (kind: string, accountId: string | undefined, name: string) => kind === 'postgres' && accountId === undefined && name === 'action prefix';

for (const target of databaseTargets()) {
  describe(`audit trail reads (${target.kind})`, () => {
    it('every filter, of one account and across accounts, first page and after a cursor, reads sealed and unsealed records through indexes', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        await migrateToLatest(database);
        await writeTrail(database);
        for (const accountId of ['acct_7', undefined]) {
          for (const [name, filters] of FILTERS) {
            for (const after of [false, true]) {
              const plan = await planOf(database, accountId, filters, after);
              const what = `${name}, ${accountId ?? 'across accounts'}${after ? ', after a cursor' : ''}:\n${plan}`;
              if (!mayReadWhole(target.kind, accountId, name)) {
                assert.doesNotMatch(plan, WHOLE_TABLE, what);
                assert.match(plan, SEALED_INDEX, what);
              }
              assert.match(plan, /audit_events_unsealed/, what);
              if (name === 'target') assert.match(plan, /audit_events_target/, what);
              if (name === 'actor' && accountId === undefined) assert.match(plan, /audit_events_actor/, what);
            }
          }
        }
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}
