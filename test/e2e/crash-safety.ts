/**
 * Crash safety: a real `gatehouse serve` under a write workload (keyed payouts, invoice
 * settlements, SCIM creates and updates) is killed with SIGKILL at seeded random moments and
 * restarted on the same database, while its clients retry every unanswered request with the
 * same key. Afterwards (docs/DECISIONS.md, "Idempotency" and "Webhooks"; the outbox rule):
 *
 * - every write acknowledged with a 2xx is stored, and a retried key performed its write once;
 * - the ledger balances (each posting and each currency sum to zero) and the available balance
 *   equals what the postings imply and never went below zero;
 * - every committed change has exactly its events, one delivery each, all delivered; nothing
 *   exists for work that rolled back with a dead process.
 *
 * GATEHOUSE_CRASH_SEED replays a run (the seed is in the test's name). Each database has a
 * test file of its own (crash-safety-*.test.ts), so each gets the whole per-file time budget.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DatabaseKind } from '../../src/config.ts';
import { describeOnDatabase } from '../helpers/databases.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import type { SpawnedGatehouse } from '../helpers/processes.ts';
import { standbyGatehouse, type StandbyGatehouse } from './standby.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { newJournal, runClient, seededRandom, untilAnswered, type Cluster, type Journal } from './crash-workload.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { until } from '../helpers/until.ts';

const SEED = Number(process.env.GATEHOUSE_CRASH_SEED ?? 90210);
const KILLS = 4;
const CLIENTS = 6;
const OPERATIONS = 30;
const PAYMENT_SCOPES = ['invoices:read', 'invoices:write', 'payouts:read', 'payouts:write', 'ledger:read'];

const NODE_ENV = {
  GATEHOUSE_IN_PROCESS_WORKERS: 'on',
  GATEHOUSE_PAYOUT_DELAY: '0',
  // A dead node's claims are taken over after 2 s instead of 30 s, so the test stays short.
  GATEHOUSE_IDEMPOTENCY_LEASE: '2',
  GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
  GATEHOUSE_WEBHOOK_TIMEOUT: '1',
  GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
};

async function unfinished(db: Db, accountId: string): Promise<number> {
  const payouts = await db.selectFrom('payouts').select('id').where('account_id', '=', accountId).where('state', '=', 'pending').execute();
  const deliveries = await db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', accountId).where('state', '!=', 'acknowledged').execute();
  return payouts.length + deliveries.length;
}

export function describeCrashSafety(kind: DatabaseKind): void {
  describeOnDatabase(kind, `crash safety under SIGKILL (${kind})`, (target) => {
    it(`${KILLS} kill -9s during keyed payouts, settlements and SCIM writes (seed ${SEED}) → every acknowledged write stored once, the ledger balanced, every event recorded and delivered once`, { timeout: 180_000 }, async (test) => {
      const began = Date.now();
      const mark = (what: string) => test.diagnostic(`${what} at ${((Date.now() - began) / 1000).toFixed(1)} s`);
      const deadline = Date.now() + 150_000;
      const t = await startTestApp(target, { env: { GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
      const receiver = await startReceiver();
      let node: SpawnedGatehouse | undefined;
      let standbys: Array<Promise<StandbyGatehouse>> = [];
      try {
        const db = t.gatehouse.database.db;
        const accountId = await createAccount(t, 'Crash workload');
        const payments = await mintAccessToken(t, { accountId, scopes: PAYMENT_SCOPES });
        const scimToken = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'IdP' });
        assert.equal(scimToken.status, 201);
        const hooks = await mintAccessToken(t, { accountId, scopes: ['webhooks:manage'] });
        const endpoint = await fetch(`${t.publicUrl}/v1/webhook_endpoints`, {
          method: 'POST',
          headers: { authorization: `Bearer ${hooks}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
          body: JSON.stringify({ url: receiver.url, event_types: ['invoice.settled', 'payout.created', 'payout.paid', 'payout.failed'] }),
        });
        assert.equal(endpoint.status, 201);
        receiver.secrets = [((await endpoint.json()) as { secret: string }).secret];

        // Every node is a process loaded in advance (all at once, at the start) and started on
        // the database only once the previous node is dead: the test's time goes to work and
        // recovery, not to loading modules on a busy machine.
        standbys = Array.from({ length: KILLS + 1 }, () => standbyGatehouse({ databaseUrl: t.config.databaseUrl, env: NODE_ENV }));
        node = await (await standbys[0]!).activate();
        mark('first node ready');
        const cluster: Cluster = { url: () => node!.url, acknowledged: 0 };
        const journal = newJournal();
        const tokens = { payments, scim: scimToken.body.token as string };
        let finished = false;
        const clients = Promise.all(
          Array.from({ length: CLIENTS }, (_, i) =>
            runClient(cluster, journal, tokens, { name: `c${i}`, random: seededRandom(SEED + i + 1), operations: OPERATIONS, deadline }),
          ),
        ).finally(() => (finished = true));

        const killAt = seededRandom(SEED);
        for (let kill = 0; kill < KILLS; kill++) {
          const threshold = cluster.acknowledged + 15 + Math.floor(killAt() * 30);
          await until(async () => cluster.acknowledged >= threshold || finished, deadline - Date.now(), `${threshold} acknowledged writes`);
          assert.equal(finished, false, `the workload ended before kill ${kill + 1}; make it longer`);
          // A random moment between two acknowledgements, with requests of every kind in flight.
          await new Promise((r) => setTimeout(r, Math.floor(killAt() * 20)));
          node.child.kill('SIGKILL');
          assert.deepEqual(await node.exited, { code: null, signal: 'SIGKILL' });
          mark(`kill ${kill + 1} (${cluster.acknowledged} acknowledged)`);
          node = await (await standbys[kill + 1]!).activate();
          mark(`node ${kill + 2} ready`);
        }
        await clients;
        mark(`workload done (${cluster.acknowledged} acknowledged, ${journal.unanswered} sends unanswered)`);
        assert.ok(journal.unanswered > 0, 'some requests were cut off by the kills and retried');

        // The restarted node finishes the work the dead ones left: payouts processed, events delivered.
        await until(
          async () => (await unfinished(db, accountId)) === 0,
          deadline - Date.now(),
          'every payout processed and every delivery acknowledged',
        );
        mark('drained');
        await node.stop();

        await checkWrites(db, accountId, journal);
        await checkReplays(t.publicUrl, payments, journal, deadline);
        await checkLedger(db, accountId, journal);
        await checkEvents(db, accountId, journal, receiver.received);
        mark('checked');
      } finally {
        await node?.stop();
        for (const standby of standbys) await (await standby.catch(() => undefined))?.discard();
        await receiver.close();
        await t.close();
      }
    });
  });
}

/** Every acknowledged write is stored, exactly once, with what was sent. */
async function checkWrites(db: Db, accountId: string, journal: Journal): Promise<void> {
  const invoices = await db.selectFrom('invoices').selectAll().where('account_id', '=', accountId).execute();
  assert.deepEqual(invoices.map((i) => i.id).sort(), [...journal.invoices.keys()].sort(), 'one invoice per acknowledged create, no more');
  for (const invoice of invoices) {
    const sent = journal.invoices.get(invoice.id)!;
    assert.deepEqual([invoice.amount, invoice.currency, invoice.state], [sent.amount, sent.currency, 'settled']);
  }

  const created = [...journal.payouts.values()].filter((p) => p.status === 201);
  const payouts = await db.selectFrom('payouts').selectAll().where('account_id', '=', accountId).execute();
  assert.equal(payouts.length, created.length, 'exactly one payout per key answered 201; none for keys answered 422');
  const byId = new Map(payouts.map((p) => [p.id, p]));
  for (const { body, request } of created) {
    const row = byId.get(body.id);
    assert.ok(row, `acknowledged payout ${body.id} is stored`);
    assert.deepEqual([row.amount, row.currency, row.destination], [request.amount, request.currency, request.destination]);
    assert.equal(row.state, request.destination.startsWith('test_fail') ? 'failed' : 'paid');
  }

  const keys = await db.selectFrom('idempotency_keys').select(['state']).where('account_id', '=', accountId).execute();
  assert.equal(keys.length, journal.invoices.size * 2 + journal.payouts.size + 1, 'one record per key (plus the endpoint registration)');
  assert.ok(keys.every((k) => k.state === 'done'), 'no claim was left behind by a dead node');

  const users = await db.selectFrom('users').selectAll().where('account_id', '=', accountId).execute();
  assert.equal(users.length, journal.users.size, 'one user per create, retries included');
  for (const user of users) {
    const sent = journal.users.get(user.user_name);
    assert.ok(sent, `${user.user_name} was created by the workload`);
    assert.deepEqual([user.id, user.given_name, Number(user.active)], [sent.id, sent.givenName, sent.active ? 1 : 0]);
  }
}

/** A key retried after the crashes still replays the answer it was acknowledged with. */
async function checkReplays(url: string, token: string, journal: Journal, deadline: number): Promise<void> {
  const cluster: Cluster = { url: () => url, acknowledged: 0 };
  for (const [key, { status, body, request }] of journal.payouts) {
    const again = await untilAnswered(cluster, journal, { method: 'POST', path: '/v1/payouts', token, key, body: request }, deadline);
    assert.equal(again.status, status);
    assert.equal(again.replayed, true);
    assert.deepEqual(again.body, body);
  }
}

async function checkLedger(db: Db, accountId: string, journal: Journal): Promise<void> {
  const entries = await db.selectFrom('ledger_entries').selectAll().where('account_id', '=', accountId).execute();
  const sums = (key: (e: (typeof entries)[number]) => string) => {
    const out = new Map<string, number>();
    for (const e of entries) out.set(key(e), (out.get(key(e)) ?? 0) + e.amount);
    return out;
  };
  for (const [transaction, sum] of sums((e) => e.transaction_id)) assert.equal(sum, 0, `posting ${transaction} balances`);
  for (const [currency, sum] of sums((e) => e.currency)) assert.equal(sum, 0, `the ${currency} ledger sums to zero`);
  const postings = new Map<string, Set<string>>();
  for (const e of entries) postings.set(e.source_id, (postings.get(e.source_id) ?? new Set()).add(e.transaction_id));
  for (const id of journal.invoices.keys()) assert.equal(postings.get(id)?.size, 1, `invoice ${id} posted once`);
  for (const p of journal.payouts.values()) if (p.status === 201) assert.equal(postings.get(p.body.id)?.size, 2, `payout ${p.body.id} posted at creation and at completion`);
  assert.equal(postings.size, journal.invoices.size + [...journal.payouts.values()].filter((p) => p.status === 201).length, 'no posting for rolled-back work');

  const balances = await db.selectFrom('balances').selectAll().where('account_id', '=', accountId).execute();
  const owed = sums((e) => (e.ledger_account === 'balance' ? e.currency : 'other'));
  for (const balance of balances) {
    assert.ok(balance.available >= 0, `${balance.currency} balance never negative`);
    assert.equal(balance.available, -(owed.get(balance.currency) ?? 0), `${balance.currency} available equals its postings`);
    const settled = [...journal.invoices.values()].filter((i) => i.currency === balance.currency).reduce((s, i) => s + i.amount, 0);
    const paidOut = [...journal.payouts.values()]
      .filter((p) => p.status === 201 && p.request.currency === balance.currency && !p.request.destination.startsWith('test_fail'))
      .reduce((s, p) => s + p.request.amount, 0);
    assert.equal(balance.available, settled - paidOut, `${balance.currency}: settled minus payouts not failed`);
  }
}

/** Exactly the events of committed changes, each once, each with one delivery that arrived. */
async function checkEvents(db: Db, accountId: string, journal: Journal, received: Array<{ headers: Record<string, unknown>; octokitValid: boolean }>): Promise<void> {
  const expected: string[] = [];
  for (const id of journal.invoices.keys()) expected.push(`invoice.settled ${id}`);
  for (const p of journal.payouts.values()) {
    if (p.status !== 201) continue;
    expected.push(`payout.created ${p.body.id}`, `payout.${p.request.destination.startsWith('test_fail') ? 'failed' : 'paid'} ${p.body.id}`);
  }
  const events = await db.selectFrom('events').select(['id', 'type', 'object_id']).where('account_id', '=', accountId).execute();
  assert.deepEqual(events.map((e) => `${e.type} ${e.object_id}`).sort(), expected.sort(), 'one event per committed change; none lost, none for rolled-back work');

  const deliveries = await db.selectFrom('webhook_deliveries').select(['event_id', 'state']).where('account_id', '=', accountId).execute();
  assert.deepEqual(deliveries.map((d) => d.event_id).sort(), events.map((e) => e.id).sort(), 'one delivery per event');
  const arrived = new Set(received.map((r) => String(r.headers['event-id'])));
  assert.deepEqual([...arrived].sort(), events.map((e) => e.id).sort(), 'every event reached the receiver');
  assert.ok(received.every((r) => r.octokitValid), 'every arrival was signed with the endpoint secret');
}
