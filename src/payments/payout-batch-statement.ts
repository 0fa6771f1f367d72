/**
 * PostgreSQL: the payouts that share a group-commit batch (of one account, or of several that
 * arrived together, group-commit.ts) written by one statement (platform/db/statement-batch.ts),
 * instead of one payout statement each (payout-statement.ts, whose `inserting` form this is
 * for many: each payout's Idempotency-Key inserted done with its answer, its row, two ledger
 * entries, event, audit record and deliveries, and one debit per balance).
 *
 * Each payout is judged as its own statement would have judged it, in arrival order:
 * - a key that has a row (committed before the batch) writes nothing and returns that row, for
 *   the write runner to judge (replay, reused, in use);
 * - a key already sent by an earlier payout of the batch writes nothing and returns no row: the
 *   runner then takes the claimed way, which finds the earlier payout's key once it is committed;
 * - the others walk their balance (account and currency), in arrival order: a payout is
 *   accepted when what the accepted ones before it left covers it, else refused (nothing written; the runner stores
 *   the refusal the claimed way, as for a lone payout).
 * Every balance the batch touches is locked first, in (account, currency) order, the one order
 * every batch locks in, so that batches of overlapping accounts on other connections or nodes
 * queue rather than deadlock. The accepted keys go in before anything else is written. If one of them met a key inserted
 * meanwhile by another transaction (its unique entry waited for, then nothing inserted), the
 * walk no longer says what happened, so the statement fails and the batch runs again one
 * payout at a time.
 */
import { sql, type Compilable } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import type { Combinable } from '../platform/db/statement-batch.ts';
import { deliveryClausesForMany } from '../events/outbox.ts';
import { KEY_COLUMNS, type KeyInsertValues } from '../idempotency/store.ts';
import type { IdempotencyRow } from '../idempotency/tables.ts';

/** One payout of the batch, as its own statement would have taken its values. */
export interface BatchedPayout extends KeyInsertValues {
  accountId: string;
  currency: string;
  amount: number;
  at: number;
  /** Each row written, as its owner's function makes it. */
  payout: object;
  entries: object;
  event: object;
  audit: object | null;
  eventId: string;
  eventType: string;
  deliveryIdPrefix: string;
}

/** What the statement did for one payout: as payout-statement.ts's result. */
export interface BatchedPayoutResult {
  claimed: boolean;
  debited: boolean;
  seen?: IdempotencyRow | null;
}

interface BatchRow {
  ord: number;
  inserted: boolean;
  seen: IdempotencyRow | null;
  keys_inserted: boolean;
}

const SEEN_COLUMNS = sql.join(KEY_COLUMNS.map((column) => sql.ref(`k.${column}`)));

// Each key of the batch is read by its own probe of the unique index (a LATERAL subquery with
// LIMIT, which the planner cannot flatten into a join). As a join, the generic plan estimated an
// account's keys from the average account and hashed all of a busy account's keys for every batch:
// tens of thousands of rows, growing with every payout, spilled to temporary files.
// Each stored row is expanded in FROM (`cross join lateral json_populate_record(…)`), never as
// `(json_populate_record(…)).*` in a select list: PostgreSQL evaluates that once per column, so an
// audit record's JSON was parsed twenty times (40 µs against 3 per row, measured on 20,000 rows).
const writePayouts = preparedQuery((db, value: Placeholder<{ payouts: string }>): Compilable<BatchRow> => {
  const statement = sql<BatchRow>`with recursive input as (
      select * from json_to_recordset(${value('payouts')}::json) as i(ord int, account_id text, id text, client_id text, key text, fingerprint text,
        lease_token text, now bigint, status int, headers text, body text, expires_at bigint, currency text, amount bigint, at bigint,
        payout json, entries json, event json, audit json, event_id text, event_type text, delivery_id_prefix text)
    ), seen as (
      select i.ord, (select row_to_json(r) from (select ${SEEN_COLUMNS}) as r) as row
      from input as i cross join lateral (
        select * from idempotency_keys as k where k.account_id = i.account_id and k.client_id = i.client_id and k.idempotency_key = i.key limit 1
      ) as k
    ), firsts as (
      select i.ord, i.account_id, i.currency, i.amount, row_number() over (partition by i.account_id, i.currency order by i.ord) as n from input as i
      where not exists (select from seen where seen.ord = i.ord)
        and not exists (select from input as earlier where earlier.account_id = i.account_id and earlier.client_id = i.client_id and earlier.key = i.key and earlier.ord < i.ord)
    ), locked as (
      select account_id, currency, available from balances
      where (account_id, currency) in (select account_id, currency from firsts)
      order by account_id, currency for no key update
    ), walk (account_id, currency, n, ord, remaining, taken) as (
      select account_id, currency, 0::bigint, null::int, available, false from locked
      union all
      select walk.account_id, walk.currency, f.n, f.ord, case when f.amount <= walk.remaining then walk.remaining - f.amount else walk.remaining end, f.amount <= walk.remaining
      from walk join firsts as f on f.account_id = walk.account_id and f.currency = walk.currency and f.n = walk.n + 1
    ), accepted as (
      select i.* from input as i join walk on walk.ord = i.ord and walk.taken
    ), keys as (
      insert into idempotency_keys (id, account_id, client_id, idempotency_key, fingerprint, state, lease_token, locked_until,
        response_status, response_headers, response_body, created_at, completed_at, expires_at)
      select id, account_id, client_id, key, fingerprint, 'done', lease_token, now, status, headers, body, now, now, expires_at from accepted
      on conflict (account_id, client_id, idempotency_key) do nothing
      returning id
    ), all_keys as (
      select (select count(*) from keys) = (select count(*) from accepted) as inserted
    ), debit as (
      update balances set available = available - total.amount, updated_at = total.at
      from (select account_id, currency, sum(amount) as amount, max(at) as at from accepted group by account_id, currency) as total
      where balances.account_id = total.account_id and balances.currency = total.currency and (select inserted from all_keys)
      returning balances.currency
    ), written as (
      select accepted.* from accepted where (select inserted from all_keys)
    ), payout as (
      insert into payouts select payout.* from written cross join lateral json_populate_record(null::payouts, written.payout) as payout
    ), entries as (
      insert into ledger_entries select entry.* from written cross join lateral json_populate_recordset(null::ledger_entries, written.entries) as entry
    ), event as (
      insert into events select event.* from written cross join lateral json_populate_record(null::events, written.event) as event
    ), audit as (
      insert into audit_events select audit.* from written cross join lateral json_populate_record(null::audit_events, written.audit) as audit
      where written.audit is not null
    ), ${deliveryClausesForMany(sql`written`)}
    select i.ord, exists (select from accepted where accepted.ord = i.ord) as inserted, (select row from seen where seen.ord = i.ord) as seen,
      (select inserted from all_keys) as keys_inserted, (select count(*) from woken) as woken, (select count(*) from debit) as debits
    from input as i order by i.ord`;
  return { compile: () => statement.compile(db) };
});

/** The payouts of a batch, in arrival order, in one statement. */
export const payoutBatch: Combinable<BatchedPayout, BatchedPayoutResult> = {
  async send(executor: Db, payouts: readonly BatchedPayout[]): Promise<BatchedPayoutResult[]> {
    const { rows } = await writePayouts.execute(executor, { payouts: JSON.stringify(payouts.map(asInputRow)) });
    if (rows.some((row) => !row.keys_inserted)) throw new KeyRaced();
    return rows.map((row) => ({ claimed: row.inserted, debited: row.inserted, seen: row.seen }));
  },
};

/** An accepted payout's key was inserted meanwhile by another transaction. */
class KeyRaced extends Error {
  constructor() {
    super("a batched payout's Idempotency-Key was inserted meanwhile by another transaction");
  }
}

function asInputRow(p: BatchedPayout, ord: number) {
  return {
    ord,
    account_id: p.accountId,
    id: p.id,
    client_id: p.clientId,
    key: p.key,
    fingerprint: p.fingerprint,
    lease_token: p.leaseToken,
    now: p.now,
    status: p.status,
    headers: p.headers,
    body: p.body,
    expires_at: p.expiresAt,
    currency: p.currency,
    amount: p.amount,
    at: p.at,
    payout: p.payout,
    entries: p.entries,
    event: p.event,
    audit: p.audit,
    event_id: p.eventId,
    event_type: p.eventType,
    delivery_id_prefix: p.deliveryIdPrefix,
  };
}
