/**
 * The audit trail on each database: a record per change with its actor, target and changes;
 * none for an Idempotency-Key replay or a refused write; tenant isolation; filters and cursors;
 * the chain and its checkpoints; verify naming an edited, deleted and swapped record; retention.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, newTenant, readAll } from '../payments/api.ts';
import { mintAccessToken, testClientOf } from '../helpers/fixtures.ts';
import { sweepExpiredOAuthState } from '../../src/oauth/sweeper.ts';

const AUDIT = ['audit:read'];
const DAY = 24 * 3600 * 1000;

for (const target of databaseTargets()) {
  describe(`audit trail (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_PAYOUT_DELAY: '30' } });
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    const audit = () => t.gatehouse.services.audit;
    // Every account's trail starts with its creation by the operator; these tests are about what follows.
    const recordsOf = (accountId: string) =>
      db().selectFrom('audit_events').selectAll().where('account_id', '=', accountId).where('action', '!=', 'account.created').orderBy('occurred_at').orderBy('id').execute();

    /** Creates and settles an invoice, a millisecond apart, so that newest-first order is theirs. */
    async function fund(_t: TestApp, token: string, amount: number): Promise<string> {
      const created = await api(t, token, 'POST', '/v1/invoices', { amount, currency: 'EUR' });
      assert.equal(created.status, 201);
      t.clock.advance(1);
      const settled = await api(t, token, 'POST', `/v1/invoices/${created.body.id}/settle`);
      assert.equal(settled.status, 200);
      t.clock.advance(1);
      return created.body.id as string;
    }

    async function tenant() {
      const { accountId, token } = await newTenant(t);
      // Its creation's record sorts first, however the ids of one millisecond fall.
      t.clock.advance(1);
      return { accountId, token, reader: await mintAccessToken(t, { accountId, scopes: AUDIT }) };
    }

    it('a payout writes payout.created in its transaction: actor, target, changes, request id and Idempotency-Key', async () => {
      const { accountId, token, reader } = await tenant();
      await fund(t, token, 10_000);
      const key = randomUUID();
      const response = await fetch(`${t.publicUrl}/v1/payouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key, 'user-agent': 'audit-test/1', 'x-request-id': 'req-audit-1' },
        body: JSON.stringify({ amount: 2_500, currency: 'EUR', destination: 'iban:DE89370400440532013000' }),
      });
      assert.equal(response.status, 201);
      const payout = (await response.json()) as { id: string };
      const page = await api(t, reader, 'GET', `/v1/audit-events?target=${payout.id}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.data.length, 1);
      const record = page.body.data[0];
      assert.equal(record.action, 'payout.created');
      assert.equal(record.account, accountId);
      assert.deepEqual(record.actor, { type: 'client', id: testClientOf(accountId), display: null });
      assert.deepEqual(record.target, { type: 'payout', id: payout.id });
      assert.deepEqual(record.changes, {
        amount: { after: 2500 },
        currency: { after: 'EUR' },
        destination: { after: 'iban:DE89370400440532013000' },
        state: { after: 'pending' },
      });
      assert.equal(record.request_id, 'req-audit-1');
      assert.equal(record.idempotency_key, key);
      assert.equal(record.source.user_agent, 'audit-test/1');
      assert.equal(record.source.address, '127.0.0.1');

      // A replay of the key answers the same and writes no second record.
      const replay = await fetch(`${t.publicUrl}/v1/payouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ amount: 2_500, currency: 'EUR', destination: 'iban:DE89370400440532013000' }),
      });
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replay'), 'true');
      const after = await db().selectFrom('audit_events').select('id').where('target_id', '=', payout.id).execute();
      assert.equal(after.length, 1);
    });

    it('a person acting through a client is recorded with both', async () => {
      const { accountId, token } = await tenant();
      await fund(t, token, 1_000);
      const user = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName: 'ada@example.com', password: 'correct horse battery staple' });
      assert.equal(user.status, 201);
      const userId = user.body.id as string;
      const personal = await mintAccessToken(t, { accountId, scopes: ['payouts:write'], userId, clientId: 'cli_mobile' });
      const created = await api(t, personal, 'POST', '/v1/payouts', { amount: 100, currency: 'EUR', destination: 'acct-1' });
      assert.equal(created.status, 201);
      const [row] = await db().selectFrom('audit_events').selectAll().where('target_id', '=', created.body.id).execute();
      assert.equal(row!.actor_type, 'user');
      assert.equal(row!.actor_id, userId);
      assert.equal(row!.actor_client_id, 'cli_mobile');
    });

    it('a refused write (422, rolled back) leaves no record; neither does a failure inside the transaction', async () => {
      const { accountId, token } = await tenant();
      const before = (await recordsOf(accountId)).length;
      const refused = await api(t, token, 'POST', '/v1/payouts', { amount: 1, currency: 'EUR', destination: 'acct-1' });
      assert.equal(refused.status, 422);
      assert.equal((await recordsOf(accountId)).length, before);
      // The record is written with the change or not at all.
      await assert.rejects(
        db().transaction().execute(async (trx) => {
          await t.gatehouse.services.invoices.create(trx, accountId, { amount: 5, currency: 'EUR' });
          throw new Error('crash before commit');
        }),
      );
      assert.equal((await recordsOf(accountId)).length, before);
    });

    it('invoices and the payout processor: invoice.created, invoice.settled, payout.paid by the system', async () => {
      const { accountId, token, reader } = await tenant();
      const invoiceId = await fund(t, token, 500);
      const payout = await api(t, token, 'POST', '/v1/payouts', { amount: 200, currency: 'EUR', destination: 'acct-1' });
      t.clock.advance(31_000);
      void accountId;
      await t.gatehouse.services.payoutProcessor.processDuePayouts();
      const rows = (await readAll(t, reader, '/v1/audit-events', 2)).rows.filter((r) => r.action !== 'account.created');
      assert.deepEqual(
        rows.map((r) => [r.action, r.target.id, r.actor.type]),
        [
          ['payout.paid', payout.body.id, 'system'],
          ['payout.created', payout.body.id, 'client'],
          ['invoice.settled', invoiceId, 'client'],
          ['invoice.created', invoiceId, 'client'],
        ],
      );
      assert.deepEqual(rows[0].changes, { state: { before: 'pending', after: 'paid' } });
      assert.equal(rows[0].actor.display, 'payout_processor');
      const settled = (await recordsOf(accountId)).find((r) => r.action === 'invoice.settled');
      assert.deepEqual(JSON.parse(settled!.changes!), { state: { before: 'open', after: 'settled' } });
    });

    it('tenant isolation: a token reads its own account only; the admin API reads across accounts', async () => {
      const a = await tenant();
      const b = await tenant();
      await fund(t, a.token, 100);
      await fund(t, b.token, 100);
      const pageA = await api(t, a.reader, 'GET', '/v1/audit-events');
      assert.ok(pageA.body.data.length >= 2);
      assert.ok(pageA.body.data.every((r: { account: string }) => r.account === a.accountId));
      const byB = await api(t, b.reader, 'GET', `/v1/audit-events?target=${pageA.body.data[0].target.id}`);
      assert.deepEqual(byB.body.data, []);
      // A cursor of one account is refused for another.
      const first = await api(t, a.reader, 'GET', '/v1/audit-events?limit=1');
      const foreign = await api(t, b.reader, 'GET', `/v1/audit-events?limit=1&after=${encodeURIComponent(first.body.next_cursor)}`);
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, 'cursor_foreign');
      // Without the scope: 403.
      const noScope = await api(t, a.token, 'GET', '/v1/audit-events');
      assert.equal(noScope.status, 403);
      const all = await t.admin('GET', '/admin/v1/audit-events?action=invoice.&limit=100');
      assert.equal(all.status, 200);
      const accounts = new Set(all.body.data.map((r: { account: string }) => r.account));
      assert.ok(accounts.has(a.accountId) && accounts.has(b.accountId));
      const onlyB = await t.admin('GET', `/admin/v1/audit-events?account=${b.accountId}`);
      assert.ok(onlyB.body.data.every((r: { account: string }) => r.account === b.accountId));
    });

    it('filters: actor, action prefix, target, time range; a bad instant is 400', async () => {
      const { token, reader } = await tenant();
      const from = new Date(t.clock.now()).toISOString();
      await fund(t, token, 100);
      t.clock.advance(60_000);
      const mid = new Date(t.clock.now()).toISOString();
      await api(t, token, 'POST', '/v1/payouts', { amount: 10, currency: 'EUR', destination: 'acct-1' });
      const invoices = await api(t, reader, 'GET', '/v1/audit-events?action=invoice.');
      assert.deepEqual(invoices.body.data.map((r: { action: string }) => r.action), ['invoice.settled', 'invoice.created']);
      const early = await api(t, reader, 'GET', `/v1/audit-events?since=${from}&until=${mid}&action=invoice`);
      assert.equal(early.body.data.length, 2);
      const late = await api(t, reader, 'GET', `/v1/audit-events?since=${mid}`);
      assert.deepEqual(late.body.data.map((r: { action: string }) => r.action), ['payout.created']);
      const byActor = await api(t, reader, 'GET', '/v1/audit-events?actor=nobody');
      assert.deepEqual(byActor.body.data, []);
      const bad = await api(t, reader, 'GET', '/v1/audit-events?since=yesterday');
      assert.equal(bad.status, 400);
      const swapped = await api(t, reader, 'GET', `/v1/audit-events?since=${mid}&until=${from}`);
      assert.equal(swapped.status, 400, 'an empty range is a mistake, not an empty answer');
      assert.equal(swapped.body.detail, 'since must be before until');
      assert.match(bad.headers.get('content-type') ?? '', /problem\+json/);
      // A day that does not exist is no instant (Date.parse would read it as 2 March).
      for (const day of ['2026-02-30T00:00:00Z', '2025-02-29T12:00:00Z', '2026-04-31T00:00:00Z']) {
        const impossible = await api(t, reader, 'GET', `/v1/audit-events?until=${encodeURIComponent(day)}`);
        assert.equal(impossible.status, 400, day);
        assert.equal(impossible.body.code, 'validation_failed');
      }
    });

    it('sealing chains each account in order and signs a checkpoint; verify passes', async () => {
      const { accountId, token } = await tenant();
      await fund(t, token, 300);
      await audit().sealer.sealPending({ forceCheckpoint: true });
      const rows = await db().selectFrom('audit_events').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();
      assert.deepEqual(rows.map((r) => [Number(r.seq), r.action]), [[1, 'account.created'], [2, 'invoice.created'], [3, 'invoice.settled']]);
      assert.equal(rows[1]!.prev_hash, rows[0]!.hash);
      assert.equal(rows[2]!.prev_hash, rows[1]!.hash);
      const checkpoints = await db().selectFrom('audit_checkpoints').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();
      assert.ok(checkpoints.length >= 1);
      assert.equal(Number(checkpoints.at(-1)!.seq), 3);
      const report = await audit().verifier.verify(accountId);
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.equal(report.chains[0]!.records, 3);
      assert.equal(report.chains[0]!.checkpoints.verified, checkpoints.length);
      const viaAdmin = await t.admin('GET', `/admin/v1/audit-verification?account=${accountId}`);
      assert.equal(viaAdmin.status, 200);
      assert.equal(viaAdmin.body.ok, true);
      // An anchor kept outside the database: the chain must still pass through it.
      const anchored = await t.admin('GET', `/admin/v1/audit-verification?account=${accountId}&anchor=2:${rows[1]!.hash}`);
      assert.equal(anchored.body.ok, true, JSON.stringify(anchored.body));
      const beyond = await t.admin('GET', `/admin/v1/audit-verification?account=${accountId}&anchor=9:${rows[1]!.hash}`);
      assert.equal(beyond.status, 200);
      assert.equal(beyond.body.ok, false);
      assert.deepEqual(beyond.body.chains[0].problem, { kind: 'removed', seq: 4, id: null, detail: 'the chain ends at 3, before the anchored record 9: records were cut off with their checkpoints' });
      for (const query of [`account=${accountId}&anchor=2:abc`, `anchor=2:${rows[1]!.hash}`]) {
        const refused = await t.admin('GET', `/admin/v1/audit-verification?${query}`);
        assert.equal(refused.status, 400, query);
        assert.equal(refused.body.code, 'validation_failed');
      }
      // A mistyped account is not a verified chain.
      const unknown = await t.admin('GET', '/admin/v1/audit-verification?account=acct_mistyped');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.code, 'account_not_found');
      assert.equal(unknown.body.detail, 'No account acct_mistyped, and no audit records of one');
      // Nor is it an account with no history, on the list either.
      const unlisted = await t.admin('GET', '/admin/v1/audit-events?account=acct_mistyped');
      assert.equal(unlisted.status, 404);
      assert.equal(unlisted.body.code, 'account_not_found');
      const filteredToNothing = await t.admin('GET', `/admin/v1/audit-events?account=${accountId}&action=nothing.like.this`);
      assert.equal(filteredToNothing.status, 200, 'a known account whose filter matches nothing is an empty page');
      assert.deepEqual(filteredToNothing.body.data, []);
      // The operator's own trail is always known, before its first record as after.
      const platform = await t.admin('GET', '/admin/v1/audit-events?account=platform&action=nothing.like.this');
      assert.equal(platform.status, 200, JSON.stringify(platform.body));
      assert.deepEqual(platform.body.data, []);
      const platformChain = await t.admin('GET', '/admin/v1/audit-verification?account=platform');
      assert.equal(platformChain.status, 200, JSON.stringify(platformChain.body));
      assert.equal(platformChain.body.ok, true);
    });

    /** An account with `n` sealed, checkpointed records. */
    async function sealedChain(n: number) {
      const { accountId, token } = await tenant();
      for (let i = 0; i < n; i++) await api(t, token, 'POST', '/v1/invoices', { amount: 10 + i, currency: 'EUR' });
      await audit().sealer.sealPending({ forceCheckpoint: true });
      // rows[0] is the account's creation, rows[i] the i-th invoice: row i sits at seq i + 1.
      const rows = await db().selectFrom('audit_events').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();
      return { accountId, rows };
    }

    it('verify names an edited record (content and changes)', async () => {
      const { accountId, rows } = await sealedChain(4);
      await db().updateTable('audit_events').set({ actor_id: 'someone-else' }).where('id', '=', rows[1]!.id).execute();
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.ok, false);
      assert.deepEqual([report.problem!.kind, report.problem!.seq, report.problem!.id], ['altered', 2, rows[1]!.id]);

      const second = await sealedChain(3);
      await db().updateTable('audit_events').set({ changes: '{"amount":{"after":1}}' }).where('id', '=', second.rows[2]!.id).execute();
      const changed = (await audit().verifier.verify(second.accountId)).chains[0]!;
      assert.deepEqual([changed.problem!.kind, changed.problem!.seq], ['altered', 3]);
    });

    it('a checkpoint whose header was altered is reported as a checkpoint that does not verify, by the API too, not answered 500', async () => {
      for (const header of ['null', '{"kid":', '{"alg":"ES256"}']) {
        const { accountId } = await sealedChain(2);
        const checkpoint = await db().selectFrom('audit_checkpoints').selectAll().where('account_id', '=', accountId).orderBy('seq', 'desc').executeTakeFirstOrThrow();
        const altered = [Buffer.from(header).toString('base64url'), ...checkpoint.jws.split('.').slice(1)].join('.');
        await db().updateTable('audit_checkpoints').set({ jws: altered }).where('account_id', '=', accountId).where('seq', '=', checkpoint.seq).execute();
        const report = (await audit().verifier.verify(accountId)).chains[0]!;
        assert.equal(report.ok, false, header);
        assert.deepEqual([report.problem!.kind, report.problem!.seq], ['checkpoint', Number(checkpoint.seq)], header);
        const viaAdmin = await t.admin('GET', `/admin/v1/audit-verification?account=${accountId}`);
        assert.equal(viaAdmin.status, 200, JSON.stringify(viaAdmin.body));
        assert.equal(viaAdmin.body.ok, false);
        assert.equal(viaAdmin.body.chains[0].problem.kind, 'checkpoint');
      }
    });

    it('a record whose changes were made unreadable is listed with changes null, the rest as stored, and verify names it', async () => {
      const { accountId, token } = await tenant();
      await api(t, token, 'POST', '/v1/invoices', { amount: 10, currency: 'EUR' });
      await audit().sealer.sealPending({ forceCheckpoint: true });
      const rows = await db().selectFrom('audit_events').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();
      await db().updateTable('audit_events').set({ changes: '{"amount":' }).where('id', '=', rows[1]!.id).execute();
      const reader = await mintAccessToken(t, { accountId, scopes: AUDIT });
      const listed = await api(t, reader, 'GET', '/v1/audit-events');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(
        listed.body.data.map((r: { id: string; changes: unknown }) => [r.id, r.changes === null]),
        [
          [rows[1]!.id, true],
          [rows[0]!.id, false],
        ],
      );
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.deepEqual([report.ok, report.problem!.kind, report.problem!.id], [false, 'altered', rows[1]!.id]);
    });

    it('verify names a record passed off as detached: changes rewritten, or detached without being about a person', async () => {
      const { accountId, rows } = await sealedChain(3);
      // Detaching empties `changes`; a detached record that still has them was written after.
      await db().updateTable('audit_events').set({ changes: '{"amount":{"after":1}}', detached_at: t.clock.now() }).where('id', '=', rows[2]!.id).execute();
      const rewritten = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(rewritten.ok, false);
      assert.deepEqual([rewritten.problem!.kind, rewritten.problem!.seq, rewritten.problem!.id], ['altered', 3, rows[2]!.id]);

      // Only the records about a person are ever detached: emptying an invoice's changes is tampering.
      const second = await sealedChain(3);
      await db().updateTable('audit_events').set({ changes: null, detached_at: t.clock.now() }).where('id', '=', second.rows[1]!.id).execute();
      const emptied = (await audit().verifier.verify(second.accountId)).chains[0]!;
      assert.equal(emptied.ok, false);
      assert.deepEqual([emptied.problem!.kind, emptied.problem!.seq, emptied.problem!.id], ['altered', 2, second.rows[1]!.id]);
      const stored = await db().selectFrom('audit_events').select(['changes', 'detached_at']).where('id', '=', second.rows[1]!.id).executeTakeFirstOrThrow();
      assert.equal(stored.changes, null);

      // Nor are the records about a person who was never deleted.
      const third = await tenant();
      const person = await t.admin('POST', `/admin/v1/accounts/${third.accountId}/users`, { userName: 'living', password: 'correct horse battery' });
      assert.equal(person.status, 201, JSON.stringify(person.body));
      await audit().sealer.sealPending({ forceCheckpoint: true });
      const aboutThem = await db().selectFrom('audit_events').select(['id', 'seq']).where('account_id', '=', third.accountId).where('target_id', '=', person.body.id).executeTakeFirstOrThrow();
      await db().updateTable('audit_events').set({ changes: null, detached_at: t.clock.now() }).where('id', '=', aboutThem.id).execute();
      const living = (await audit().verifier.verify(third.accountId)).chains[0]!;
      assert.deepEqual([living.ok, living.problem?.kind, living.problem?.id], [false, 'altered', aboutThem.id]);
      assert.match(living.problem!.detail, /the person it is about was never deleted/);
    });

    it('verify names a deleted record, in the middle and at the end', async () => {
      const middle = await sealedChain(4);
      await db().deleteFrom('audit_events').where('id', '=', middle.rows[1]!.id).execute();
      const report = (await audit().verifier.verify(middle.accountId)).chains[0]!;
      assert.deepEqual([report.problem!.kind, report.problem!.seq], ['removed', 2]);

      const tail = await sealedChain(3);
      await db().deleteFrom('audit_events').where('id', '=', tail.rows[3]!.id).execute();
      const cut = (await audit().verifier.verify(tail.accountId)).chains[0]!;
      assert.deepEqual([cut.problem!.kind, cut.problem!.seq], ['removed', 4]);
    });

    it('verify names swapped records', async () => {
      const { accountId, rows } = await sealedChain(4);
      // Swap the places of records 2 and 3.
      await db().updateTable('audit_events').set({ seq: -2 }).where('id', '=', rows[1]!.id).execute();
      await db().updateTable('audit_events').set({ seq: 2 }).where('id', '=', rows[2]!.id).execute();
      await db().updateTable('audit_events').set({ seq: 3 }).where('id', '=', rows[1]!.id).execute();
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.deepEqual([report.problem!.kind, report.problem!.seq, report.problem!.id], ['reordered', 2, rows[2]!.id]);
    });

    it('verify names a chain whose head was deleted, for that account and among all chains', async () => {
      const { accountId, rows } = await sealedChain(2);
      await db().deleteFrom('audit_chains').where('account_id', '=', accountId).execute();
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.ok, false);
      assert.deepEqual([report.problem!.kind, report.problem!.seq, report.problem!.id], ['removed', 1, rows[0]!.id]);
      const all = await audit().verifier.verify();
      assert.equal(all.ok, false);
      assert.equal(all.chains.find((c) => c.account === accountId)?.problem?.kind, 'removed', 'listed although it has no head any more');

      // The records gone with it: the signed checkpoints still say there was a chain.
      const wiped = await sealedChain(1);
      await db().deleteFrom('audit_events').where('account_id', '=', wiped.accountId).execute();
      await db().deleteFrom('audit_chains').where('account_id', '=', wiped.accountId).execute();
      const checkpoints = await db().selectFrom('audit_checkpoints').select('seq').where('account_id', '=', wiped.accountId).orderBy('seq').execute();
      const gone = (await audit().verifier.verify(wiped.accountId)).chains[0]!;
      assert.deepEqual([gone.ok, gone.problem?.kind, gone.problem?.seq], [false, 'removed', Number(checkpoints[0]!.seq)]);
    });

    it('verify names a chain whose oldest records were deleted and the rest renumbered from 1, by the API too', async () => {
      const { accountId, rows } = await sealedChain(7);
      // Records 1..5 gone, record 6 moved to 1 and the chain told it starts there: no retention signed it.
      await sql`DELETE FROM audit_events WHERE account_id = ${accountId} AND seq <= 5`.execute(db());
      await sql`UPDATE audit_chains SET first_prev_hash = (SELECT prev_hash FROM audit_events WHERE account_id = ${accountId} AND seq = 6), head_seq = head_seq - 5 WHERE account_id = ${accountId}`.execute(db());
      await sql`UPDATE audit_events SET seq = seq - 5 WHERE account_id = ${accountId} AND seq IS NOT NULL`.execute(db());
      await sql`DELETE FROM audit_checkpoints WHERE account_id = ${accountId}`.execute(db());
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.deepEqual([report.ok, report.problem?.kind, report.problem?.seq], [false, 'removed', 1]);
      assert.match(report.problem!.detail, /does not start from the account’s genesis/);
      const viaAdmin = await t.admin('GET', `/admin/v1/audit-verification?account=${accountId}`);
      assert.equal(viaAdmin.status, 200);
      assert.equal(viaAdmin.body.ok, false);
      assert.deepEqual([viaAdmin.body.chains[0].problem.kind, viaAdmin.body.chains[0].problem.seq], ['removed', 1]);
      // Stored as edited: verify only reads.
      const left = await db().selectFrom('audit_events').select(['id', 'seq']).where('account_id', '=', accountId).orderBy('seq').execute();
      assert.deepEqual(left.map((r) => [r.id, Number(r.seq)]), rows.slice(5).map((r, i) => [r.id, i + 1]));
    });

    it('verify names an account whose whole trail was deleted, head and records, by the API too; the platform’s own trail may be empty', async () => {
      const { accountId } = await sealedChain(1);
      await db().deleteFrom('audit_events').where('account_id', '=', accountId).execute();
      await db().deleteFrom('audit_checkpoints').where('account_id', '=', accountId).execute();
      await db().deleteFrom('audit_chains').where('account_id', '=', accountId).execute();
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.deepEqual([report.ok, report.records, report.problem?.kind, report.problem?.seq], [false, 0, 'removed', 1]);
      assert.match(report.problem!.detail, /every account’s trail starts with its creation/);
      const viaAdmin = await t.admin('GET', `/admin/v1/audit-verification?account=${accountId}`);
      assert.equal(viaAdmin.status, 200);
      assert.equal(viaAdmin.body.ok, false);
      assert.equal(viaAdmin.body.chains[0].problem.kind, 'removed');

      // Its head left behind, emptied and moved back to the start: the same.
      const emptied = await sealedChain(1);
      await db().deleteFrom('audit_events').where('account_id', '=', emptied.accountId).execute();
      await db().deleteFrom('audit_checkpoints').where('account_id', '=', emptied.accountId).execute();
      await db().updateTable('audit_chains').set({ head_seq: 0, head_hash: emptied.rows[0]!.prev_hash! }).where('account_id', '=', emptied.accountId).execute();
      const moved = (await audit().verifier.verify(emptied.accountId)).chains[0]!;
      assert.deepEqual([moved.ok, moved.problem?.kind, moved.problem?.seq], [false, 'removed', 1]);

      // The operator's trail has no creation record: empty, it is simply not started.
      const platform = (await audit().verifier.verify('platform')).chains[0]!;
      assert.equal(platform.ok, true, JSON.stringify(platform));
    });

    it('verify names a record added beyond the recorded head, even with a hash that links', async () => {
      const { accountId, rows } = await sealedChain(2);
      const { recordHash } = await import('../../src/audit/chain.ts');
      const last = rows.at(-1)!;
      const forged = { ...last, id: `${last.id.slice(0, -4)}zzzz`, target_id: 'inv_forged', seq: Number(last.seq) + 1, prev_hash: last.hash };
      await db().insertInto('audit_events').values({ ...forged, hash: recordHash(last.hash!, forged) }).execute();
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.ok, false);
      assert.deepEqual([report.problem!.kind, report.problem!.seq, report.problem!.id], ['altered', forged.seq, forged.id]);
      assert.equal(report.records, rows.length, 'the records up to the head were walked');
      // Stored unchanged: verify only reads.
      assert.equal((await db().selectFrom('audit_events').select('id').where('account_id', '=', accountId).execute()).length, rows.length + 1);
    });

    it('verify catches a chain rewritten from scratch: the signed checkpoint no longer matches', async () => {
      const { accountId, rows } = await sealedChain(3);
      // Rewrite record 2 and every hash after it, as someone with the database but not the signing key could.
      const { recordHash } = await import('../../src/audit/chain.ts');
      let prev = rows[0]!.hash!;
      for (const row of rows.slice(1)) {
        const edited = { ...row, target_id: row === rows[1] ? 'inv_forged' : row.target_id, prev_hash: prev };
        const hash = recordHash(prev, edited);
        await db().updateTable('audit_events').set({ target_id: edited.target_id, prev_hash: prev, hash }).where('id', '=', row.id).execute();
        prev = hash;
      }
      await db().updateTable('audit_chains').set({ head_hash: prev }).where('account_id', '=', accountId).execute();
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.problem?.kind, 'checkpoint');
    });

    it('a rewritten chain whose checkpoints name a missing key, or a key planted in the database, is named at the checkpoint', async () => {
      const { generateKeyPair, exportJWK, CompactSign } = await import('jose');
      const { recordHash } = await import('../../src/audit/chain.ts');
      const { CHECKPOINT_TYPE } = await import('../../src/audit/sealer.ts');
      const { accountId, rows } = await sealedChain(3);
      let prev = rows[0]!.hash!;
      for (const row of rows.slice(1)) {
        const edited = { ...row, actor_id: row === rows[1] ? 'cli_someone_else' : row.actor_id, prev_hash: prev };
        const hash = recordHash(prev, edited);
        await db().updateTable('audit_events').set({ actor_id: edited.actor_id, prev_hash: prev, hash }).where('id', '=', row.id).execute();
        prev = hash;
      }
      await db().updateTable('audit_chains').set({ head_hash: prev }).where('account_id', '=', accountId).execute();
      const checkpoints = await db().selectFrom('audit_checkpoints').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();
      // 1. The checkpoints' headers renamed to a key that is not there (a dropped key, it would seem).
      for (const cp of checkpoints) {
        const [, payload, signature] = cp.jws.split('.');
        const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'key_dropped_long_ago', typ: CHECKPOINT_TYPE })).toString('base64url');
        await db().updateTable('audit_checkpoints').set({ jws: `${header}.${payload}.${signature}` }).where('account_id', '=', accountId).where('seq', '=', cp.seq).execute();
      }
      let report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.ok, false);
      assert.equal(report.problem?.kind, 'checkpoint');
      assert.match(report.problem!.detail, /names a signing key \(key_dropped_long_ago\) this server did not make/);
      // 2. A key of the forger's own, written into the key table, signing checkpoints over the rewritten chain.
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const publicJwk = { ...(await exportJWK(publicKey)), kid: 'key_planted', alg: 'ES256', use: 'sig' };
      await db().insertInto('oauth_signing_keys').values({ kid: 'key_planted', alg: 'ES256', public_jwk: JSON.stringify(publicJwk), private_jwk: JSON.stringify(await exportJWK(privateKey)), created_at: 1, retired_at: 1, publish_until: 1 }).execute();
      const hashAt = new Map((await db().selectFrom('audit_events').select(['seq', 'hash']).where('account_id', '=', accountId).execute()).map((r) => [Number(r.seq), r.hash!]));
      for (const cp of checkpoints) {
        const claims = { iss: t.config.issuer, sub: accountId, seq: Number(cp.seq), hash: hashAt.get(Number(cp.seq)) };
        const jws = await new CompactSign(Buffer.from(JSON.stringify(claims))).setProtectedHeader({ alg: 'ES256', kid: 'key_planted', typ: CHECKPOINT_TYPE }).sign(privateKey);
        await db().updateTable('audit_checkpoints').set({ jws, hash: claims.hash! }).where('account_id', '=', accountId).where('seq', '=', cp.seq).execute();
      }
      report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.problem?.kind, 'checkpoint');
      assert.match(report.problem!.detail, /key_planted/);
      await db().deleteFrom('oauth_signing_keys').where('kid', '=', 'key_planted').execute();
    });

    it('checkpoints stay verifiable after their key leaves the JWKS and the OAuth sweep runs: the key keeps its public part, sealed', async () => {
      const { accountId } = await sealedChain(2);
      const keys = t.gatehouse.services.oauth.keys;
      const signer = (await db().selectFrom('audit_checkpoints').select('jws').where('account_id', '=', accountId).executeTakeFirstOrThrow()).jws;
      const kid = (JSON.parse(Buffer.from(signer.split('.')[0]!, 'base64url').toString('utf8')) as { kid: string }).kid;
      const before = await db().selectFrom('oauth_signing_keys').select('private_jwk').where('kid', '=', kid).executeTakeFirstOrThrow();
      await keys.rotate();
      t.clock.advance(2 * 24 * 3600 * 1000);
      // The workers' sweep, as it runs every ten minutes: no second rotation needed.
      await sweepExpiredOAuthState({ db: db(), keys }, t.clock.now());
      assert.ok(!(await keys.jwks()).keys.some((k) => k.kid === kid), 'no longer published');
      const kept = await db().selectFrom('oauth_signing_keys').select(['private_jwk', 'public_jwk']).where('kid', '=', kid).executeTakeFirstOrThrow();
      assert.equal((JSON.parse(kept.public_jwk) as { kid: string }).kid, kid);
      assert.ok(kept.private_jwk.length < before.private_jwk.length, 'what stays sealed is the public part alone, shorter than the private key it replaced');
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.ok(report.checkpoints.verified >= 1);
    });

    it('retention prunes old records in batches and the chain still verifies from the oldest kept', async () => {
      const { accountId, token } = await tenant();
      await api(t, token, 'POST', '/v1/invoices', { amount: 1, currency: 'EUR' });
      await api(t, token, 'POST', '/v1/invoices', { amount: 2, currency: 'EUR' });
      await audit().sealer.sealPending({ forceCheckpoint: true });
      t.clock.advance(300 * DAY);
      const later = await mintAccessToken(t, { accountId, scopes: ['invoices:write'] });
      assert.equal((await api(t, later, 'POST', '/v1/invoices', { amount: 3, currency: 'EUR' })).status, 201);
      await audit().sealer.sealPending({ forceCheckpoint: true });
      assert.ok((await db().selectFrom('audit_checkpoints').select('seq').where('account_id', '=', accountId).execute()).length >= 2);
      t.clock.advance(150 * DAY);
      // Every account's chain of the suite is past retention by now: enough batches for all of them.
      const pruned = await audit().retention.sweep({ batchSize: 1, maxBatches: 10_000 });
      assert.ok(pruned >= 2);
      const left = await recordsOf(accountId);
      assert.deepEqual(left.map((r) => Number(r.seq)), [4]);
      const report = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.equal(report.first_seq, 4);
      assert.equal(report.checkpoints.verified, 1, 'the checkpoint into the pruned part went with it');

      // Someone deletes the next record and moves the start past it by hand, as pruning would:
      // the statement retention signed names the start it cut at, not this one.
      const kept = left[0]!;
      const stored = await db().selectFrom('audit_chains').select(['first_jws']).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assert.ok(stored.first_jws, 'retention signed where it cut');
      const more = await mintAccessToken(t, { accountId, scopes: ['invoices:write'] });
      assert.equal((await api(t, more, 'POST', '/v1/invoices', { amount: 4, currency: 'EUR' })).status, 201);
      await audit().sealer.sealPending({ forceCheckpoint: true });
      await db().deleteFrom('audit_events').where('id', '=', kept.id).execute();
      await db().updateTable('audit_chains').set({ first_seq: 5, first_prev_hash: kept.hash! }).where('account_id', '=', accountId).execute();
      const moved = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.deepEqual([moved.ok, moved.problem?.kind, moved.problem?.seq], [false, 'removed', 4]);
      assert.match(moved.problem!.detail, /retention signed another start than the one recorded/);
      // Nor does dropping the statement help: a start past the first record needs one.
      await db().updateTable('audit_chains').set({ first_jws: null }).where('account_id', '=', accountId).execute();
      const unsigned = (await audit().verifier.verify(accountId)).chains[0]!;
      assert.match(unsigned.problem!.detail, /no signed statement of retention says it pruned them/);
    });

    it('the export stream reads a range oldest first', async () => {
      const { accountId, token } = await tenant();
      await fund(t, token, 100);
      const seen: string[] = [];
      for await (const record of audit().queries.stream({ accountId, filters: { action: 'invoice.' }, batchSize: 1 })) seen.push(record.action);
      assert.deepEqual(seen, ['invoice.created', 'invoice.settled']);
      assert.equal(await audit().queries.count({ accountId, filters: {} }), 3);
    });

    it('the chain stays well defined under concurrent writes and sealers', async () => {
      const { accountId, token } = await tenant();
      await Promise.all(Array.from({ length: 20 }, (_, i) => api(t, token, 'POST', '/v1/invoices', { amount: i + 1, currency: 'EUR' })));
      await Promise.all([audit().sealer.sealPending(), audit().sealer.sealPending(), audit().sealer.sealPending()]);
      const seqs = (await db().selectFrom('audit_events').select('seq').where('account_id', '=', accountId).orderBy('seq').execute()).map((r) => Number(r.seq));
      assert.deepEqual(seqs, Array.from({ length: 21 }, (_, i) => i + 1));
      assert.equal((await audit().verifier.verify(accountId)).ok, true);
      void sql;
    });
  });
}
