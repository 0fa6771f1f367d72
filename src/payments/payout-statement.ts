/**
 * A payout's writes on PostgreSQL as one statement, so that a payout costs the database one
 * round trip instead of eight: the conditional debit of the available balance first, then, only
 * if it took the money, the payout row, its two ledger entries, the `payout.created` event, the
 * audit record and the completion of its Idempotency-Key's claim with the stored answer, each a
 * data-modifying WITH clause that reads the debit's result, and the event's fan-out to the
 * account's subscribed webhook endpoints with its wake-up (events/outbox.ts `deliveryClauses`).
 * A payout is thus the whole of its transaction, which the write runner lets it run without
 * BEGIN and COMMIT when it commits alone (route config `writesInOneStatement`).
 *
 * Every row comes from the function its owner writes it with on the other path (`postingEntries`,
 * `eventRow`, `auditRow`), passed as JSON and expanded by `json_populate_record` into the
 * table's own row type, so the statement names no column its owners add: a column they add
 * is in their rows (a column without a value there would be written NULL, not its default,
 * which the tables here do not use). The check-and-debit keeps its guarantee: the UPDATE
 * re-reads the balance row under its lock, so concurrent payouts never take it below zero.
 */
import { sql, type Compilable } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { deliveryClauses, deliveryIdPrefix } from '../events/outbox.ts';
import type { AuditRow } from '../audit/record.ts';
import type { EventRow } from '../events/tables.ts';
import type { ClaimCompletionValues } from '../idempotency/store.ts';
import type { Payout } from './payouts.ts';
import type { LedgerEntryRow, PayoutRow } from './tables.ts';

interface PayoutWrites {
  accountId: string;
  currency: string;
  amount: number;
  at: number;
  /** JSON of each row written. */
  payout: string;
  entries: string;
  event: string;
  audit: string | null;
  /** The event's id and type, and the time part of its deliveries' ids, for its fan-out. */
  eventId: string;
  eventType: string;
  deliveryIdPrefix: string;
}

interface PayoutResult {
  /** The claim was still this request's (always, without one). */
  claimed: boolean;
  debited: boolean;
}

/**
 * The statement, with the Idempotency-Key's claim (`completing`) or without. With it, the claim
 * row is locked first (re-read under the lock, so a takeover that changed its lease token is
 * seen), the debit runs only if the claim is still this request's, and the claim is completed
 * with the stored answer only if the debit took the money: a refusal is stored apart.
 */
function payoutStatement(completing: boolean) {
  return preparedQuery((db, value: Placeholder<PayoutWrites & ClaimCompletionValues>): Compilable<PayoutResult> => {
    const claim = completing
      ? sql`select id from idempotency_keys where id = ${value('id')}::text and lease_token = ${value('leaseToken')}::text and state = 'running' for no key update`
      : sql`select null`;
    const done = completing
      ? sql`update idempotency_keys set state = 'done', locked_until = ${value('now')}::bigint, response_status = ${value('status')}::int,
          response_headers = ${value('headers')}::text, response_body = ${value('body')}::text, completed_at = ${value('now')}::bigint
          where id in (select id from claim) and exists (select from debit)`
      : sql`select`;
    const statement = sql<PayoutResult>`with claim as (
        ${claim}
      ), debit as (
        update balances set available = available - ${value('amount')}::bigint, updated_at = ${value('at')}::bigint
        where account_id = ${value('accountId')}::text and currency = ${value('currency')}::text and available >= ${value('amount')}::bigint
          and exists (select from claim)
        returning account_id
      ), payout as (
        insert into payouts select * from json_populate_record(null::payouts, ${value('payout')}::json) where exists (select from debit)
      ), entries as (
        insert into ledger_entries select * from json_populate_recordset(null::ledger_entries, ${value('entries')}::json) where exists (select from debit)
      ), event as (
        insert into events select * from json_populate_record(null::events, ${value('event')}::json) where exists (select from debit)
      ), audit as (
        insert into audit_events select * from json_populate_record(null::audit_events, ${value('audit')}::json) where exists (select from debit) and ${value('audit')}::json is not null
      ), done as (
        ${done}
      ), ${deliveryClauses({
        accountId: value('accountId'),
        eventId: value('eventId'),
        type: value('eventType'),
        at: value('at'),
        deliveryIdPrefix: value('deliveryIdPrefix'),
        when: sql`exists (select from debit)`,
      })}
      select exists (select from claim) as claimed, exists (select from debit) as debited, (select count(*) from woken) as woken`;
    return { compile: () => statement.compile(db) };
  });
}

const writePayout = payoutStatement(false);
const writePayoutCompletingClaim = payoutStatement(true);

/** The claim of the request a payout performs, completed by the payout's own statement. */
export interface PayoutClaim {
  valuesFor(payout: Payout): ClaimCompletionValues;
  lost(): never;
}

export interface PayoutRows {
  payout: PayoutRow;
  entries: [LedgerEntryRow, LedgerEntryRow];
  event: EventRow;
  /** Null when the trail is left out (the audit-cost benchmark's reference). */
  audit: AuditRow | null;
}

/**
 * Writes `rows` in `trx` if the account's available balance covers the payout (completing
 * `claim` with it), and queues the event's deliveries; false (and nothing written) when the
 * balance does not cover it.
 */
export async function writePayoutInOneStatement(trx: Db, rows: PayoutRows, answer: Payout, claim?: PayoutClaim): Promise<boolean> {
  const { payout, event } = rows;
  const writes = {
    accountId: payout.account_id,
    currency: payout.currency,
    amount: payout.amount,
    at: payout.created_at,
    payout: JSON.stringify(payout),
    entries: JSON.stringify(rows.entries),
    event: JSON.stringify(event),
    audit: rows.audit === null ? null : JSON.stringify(rows.audit),
    eventId: event.id,
    eventType: event.type,
    deliveryIdPrefix: deliveryIdPrefix(event.created_at),
  };
  const result = claim
    ? await writePayoutCompletingClaim.execute(trx, { ...writes, ...claim.valuesFor(answer) })
    : await writePayout.execute(trx, writes as PayoutWrites & ClaimCompletionValues);
  const { claimed, debited } = result.rows[0]!;
  if (!claimed) claim?.lost();
  return debited;
}
