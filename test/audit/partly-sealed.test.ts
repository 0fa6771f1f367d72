/**
 * The read indexes by actor, target and time across accounts hold sealed records only
 * (migration 0602): a read takes sealed records from them and the unsealed ones from the index
 * of unsealed records, merged. Here a trail partly sealed, with no background sealer running, is
 * read whole and in order by every filter, per account and across accounts, page by page; a
 * record sealed between two pages is read once; detaching a person reaches records of both kinds.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { databaseTargets } from '../helpers/databases.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { createTestClock } from '../../src/platform/clock.ts';
import { createPaging } from '../../src/paging/page.ts';
import { createKeyRing } from '../../src/paging/cursor.ts';
import { createAuditQueries, type AuditFilters } from '../../src/audit/query.ts';
import { createAuditSealer } from '../../src/audit/sealer.ts';
import { recordAudit, type AuditBy } from '../../src/audit/record.ts';
import { detachPerson } from '../../src/audit/detach.ts';

const byAlice: AuditBy = { actor: { type: 'client', id: 'cli_alice' } };
const byBob: AuditBy = { actor: { type: 'client', id: 'cli_bob' } };

for (const target of databaseTargets()) {
  describe(`a trail partly sealed (${target.kind})`, () => {
    it('reads whole and in order by every filter, per account and across accounts, page by page; detaching reaches unsealed records', async () => {
      const created = await target.create();
      const database = await openDatabase({ databaseUrl: created.url });
      try {
        await migrateToLatest(database);
        const { db } = database;
        const clock = createTestClock();
        const queries = createAuditQueries({ db, paging: createPaging({ ring: createKeyRing([{ id: 'k', key: randomBytes(32) }]), clock, cursorTtlMs: 60_000 }) });
        const sealer = createAuditSealer({ db, clock, macKey: randomBytes(32), signer: { sign: async () => 'unsigned' }, issuer: 'test', checkpointIntervalMs: 3600_000 });
        const write = async (accountId: string, by: AuditBy, targetId: string, action: 'invoice.created' | 'invoice.settled' | 'user.password_reset' = 'invoice.created') => {
          clock.advance(1);
          return recordAudit(db, by, { accountId, action, target: { type: targetId.startsWith('usr_') ? 'user' : 'invoice', id: targetId }, changes: { email: { after: 'ada@example.com' } }, at: clock.now() });
        };
        // Oldest first; the first six sealed, the rest not.
        const written = [
          ['acct_a', byAlice, 'inv_1'],
          ['acct_b', byBob, 'inv_2'],
          ['acct_a', byBob, 'usr_ada'],
          ['acct_a', byAlice, 'inv_1'],
          ['acct_b', byAlice, 'inv_3'],
          ['acct_a', byAlice, 'inv_4'],
          ['acct_a', byBob, 'inv_1'],
          ['acct_b', byAlice, 'inv_2'],
          ['acct_a', byAlice, 'usr_ada'],
          ['acct_a', byAlice, 'inv_4'],
        ] as const;
        const ids: string[] = [];
        for (const [i, [accountId, by, targetId]] of written.entries()) {
          ids.push(await write(accountId, by, targetId, targetId.startsWith('usr_') ? 'user.password_reset' : i % 2 === 0 ? 'invoice.created' : 'invoice.settled'));
          if (i === 5) assert.equal(await sealer.sealPending(), 6);
        }
        const sealedNow = await db.selectFrom('audit_events').select('id').where('seq', 'is', null).execute();
        assert.equal(sealedNow.length, 4, 'four unsealed');

        const expected = (accountId: string | undefined, where: (w: (typeof written)[number], i: number) => boolean) =>
          written.flatMap((w, i) => ((accountId === undefined || w[0] === accountId) && where(w, i) ? [ids[i]!] : [])).reverse();
        const readAll = async (accountId: string | undefined, filters: AuditFilters, limit: number) => {
          const seen: string[] = [];
          let after: string | undefined;
          do {
            const page = await queries.list({ accountId, limit, after, filters });
            seen.push(...page.data.map((r) => r.id));
            after = page.next_cursor ?? undefined;
          } while (after !== undefined);
          return seen;
        };
        const cases: Array<[AuditFilters, (w: (typeof written)[number], i: number) => boolean]> = [
          [{}, () => true],
          [{ actor: 'cli_alice' }, (w) => w[1] === byAlice],
          [{ target: 'inv_1' }, (w) => w[2] === 'inv_1'],
          [{ action: 'invoice.settled' }, (_w, i) => i % 2 === 1 && !written[i]![2].startsWith('usr_')],
          [{ since: new Date(clock.now() - 6).toISOString(), until: new Date(clock.now() - 1).toISOString() }, (_w, i) => i >= 3 && i < 8],
        ];
        for (const accountId of ['acct_a', undefined]) {
          for (const [filters, where] of cases) {
            for (const limit of [1, 3, 100]) {
              assert.deepEqual(await readAll(accountId, filters, limit), expected(accountId, where), `${accountId ?? 'across accounts'} ${JSON.stringify(filters)} by ${limit}`);
            }
            assert.equal(await queries.count({ accountId, filters }), expected(accountId, where).length);
            const streamed: string[] = [];
            for await (const record of queries.stream({ accountId, filters, batchSize: 2 })) streamed.push(record.id);
            assert.deepEqual(streamed, expected(accountId, where).reverse());
          }
        }

        // A record sealed between two pages is read once, where it stands.
        const first = await queries.list({ accountId: undefined, limit: 2, after: undefined, filters: {} });
        assert.deepEqual(first.data.map((r) => [r.id, r.seq]), [[ids[9], null], [ids[8], null]]);
        assert.equal(await sealer.sealPending(), 4);
        const second = await queries.list({ accountId: undefined, limit: 2, after: first.next_cursor!, filters: {} });
        assert.deepEqual(second.data.map((r) => r.id), [ids[7], ids[6]]);
        assert.ok(second.data.every((r) => r.seq !== null));

        // Ada's records, one sealed and one not, are both detached.
        await write('acct_a', byBob, 'usr_ada', 'user.password_reset');
        const detached = await db.transaction().execute((trx) => detachPerson(trx, 'acct_a', 'usr_ada', clock.now()));
        assert.equal(detached, 3);
        const aboutAda = await queries.list({ accountId: 'acct_a', limit: 10, after: undefined, filters: { target: 'usr_ada' } });
        assert.deepEqual(aboutAda.data.map((r) => [r.seq === null, r.changes, r.detached]), [[true, null, true], [false, null, true], [false, null, true]]);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  });
}
