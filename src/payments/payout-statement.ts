/**
 * A payout's writes on PostgreSQL as one statement, so that a payout costs the database one
 * round trip instead of eight: the conditional debit of the available balance first, then, only
 * if it took the money, the payout row, its two ledger entries, the `payout.created` event, the
 * audit record and its Idempotency-Key with the stored answer (the claim completed, or the key
 * inserted: `payoutStatement`), each a data-modifying WITH clause that reads the debit's result,
 * and the event's fan-out to the
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
import { KEY_COLUMNS, type ClaimCompletionValues, type KeyInsertValues } from '../idempotency/store.ts';
import type { IdempotencyRow } from '../idempotency/tables.ts';
import { statementBatchOf } from '../platform/db/statement-batch.ts';
import { payoutBatch } from './payout-batch-statement.ts';
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
  /** The claim was still this request's, or its key inserted by this statement (always true without one). */
  claimed: boolean;
  debited: boolean;
  /** Inserting the key: the key's row as it stood before, if it had one (JSON of its columns). */
  seen?: IdempotencyRow | null;
}

/** How the statement deals with the request's Idempotency-Key. */
type KeyMode = 'none' | 'completing' | 'inserting';

/** The key's row as the statement reads it before inserting it, every column by name. */
const SEEN_COLUMNS = sql.join(KEY_COLUMNS.map((column) => sql.ref(column)));

/**
 * The statement, without the Idempotency-Key (`none`), completing its claim (`completing`) or
 * inserting it (`inserting`).
 *
 * Completing: the claim row is locked first (re-read under the lock, so a takeover that
 * changed its lease token is seen), the debit runs only if the claim is still this request's,
 * and the claim is completed with the stored answer only if the debit took the money: a
 * refusal is stored apart.
 *
 * Inserting (no claim was taken before): the balance row is locked and read first, then the
 * key inserted already done with the answer only if the key had no row and the balance covers
 * the payout, and the debit and the rows only if the key went in. The key goes in before the
 * debit, so that a key another transaction inserted meanwhile (its unique entry waited for,
 * then nothing inserted) stops the payout instead of following it; the balance is read under
 * the lock the debit then takes, so the debit never fails after the key went in. Whatever
 * stops it (a key seen, a balance short), the statement writes nothing and returns the row it
 * saw, for the runner to judge (write-runner.ts).
 */
function payoutStatement(mode: KeyMode) {
  return preparedQuery((db, value: Placeholder<PayoutWrites & KeyInsertValues>): Compilable<PayoutResult> => {
    const covered = sql`account_id = ${value('accountId')}::text and currency = ${value('currency')}::text and available >= ${value('amount')}::bigint`;
    const claim =
      mode === 'completing'
        ? sql`select id from idempotency_keys where id = ${value('id')}::text and lease_token = ${value('leaseToken')}::text and state = 'running' for no key update`
        : mode === 'inserting'
          ? sql`insert into idempotency_keys (id, account_id, client_id, idempotency_key, fingerprint, state, lease_token, locked_until,
                response_status, response_headers, response_body, created_at, completed_at, expires_at)
              select ${value('id')}::text, ${value('accountId')}::text, ${value('clientId')}::text, ${value('key')}::text, ${value('fingerprint')}::text,
                'done', ${value('leaseToken')}::text, ${value('now')}::bigint, ${value('status')}::int, ${value('headers')}::text, ${value('body')}::text,
                ${value('now')}::bigint, ${value('now')}::bigint, ${value('expiresAt')}::bigint
              where exists (select from covers)
              on conflict (account_id, client_id, idempotency_key) do nothing
              returning id`
          : sql`select null`;
    const before =
      mode === 'inserting'
        ? sql`seen as (
            select ${SEEN_COLUMNS} from idempotency_keys
            where account_id = ${value('accountId')}::text and client_id = ${value('clientId')}::text and idempotency_key = ${value('key')}::text
          ), covers as (
            select from balances where ${covered} and not exists (select from seen) for no key update of balances
          ), `
        : sql``;
    const done =
      mode === 'completing'
        ? sql`update idempotency_keys set state = 'done', locked_until = ${value('now')}::bigint, response_status = ${value('status')}::int,
          response_headers = ${value('headers')}::text, response_body = ${value('body')}::text, completed_at = ${value('now')}::bigint
          where id in (select id from claim) and exists (select from debit)`
        : sql`select`;
    const seen = mode === 'inserting' ? sql`, (select row_to_json(seen) from seen) as seen` : sql``;
    const statement = sql<PayoutResult>`with ${before}claim as (
        ${claim}
      ), debit as (
        update balances set available = available - ${value('amount')}::bigint, updated_at = ${value('at')}::bigint
        where ${covered} and exists (select from claim)
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
      select exists (select from claim) as claimed, exists (select from debit) as debited, (select count(*) from woken) as woken${seen}`;
    return { compile: () => statement.compile(db) };
  });
}

const writePayout = payoutStatement('none');
const writePayoutCompletingClaim = payoutStatement('completing');
const writePayoutInsertingKey = payoutStatement('inserting');

/**
 * The Idempotency-Key of the request a payout performs, written by the payout's own statement:
 * its claim completed, or (`inserting`) the key inserted done.
 */
export interface PayoutClaim {
  inserting: boolean;
  valuesFor(payout: Payout): ClaimCompletionValues | KeyInsertValues;
  /** The statement wrote nothing for the key: its claim was lost, or (inserting) the key had a row (`seen`) or the balance fell short. */
  lost(seen?: IdempotencyRow): never;
}

export interface PayoutRows {
  payout: PayoutRow;
  entries: [LedgerEntryRow, LedgerEntryRow];
  event: EventRow;
  /** Null when the trail is left out (the audit-cost benchmark's reference). */
  audit: AuditRow | null;
}

/**
 * Writes `rows` in `trx` if the account's available balance covers the payout (writing
 * `claim`'s key with it), and queues the event's deliveries; false (and nothing written) when the
 * balance does not cover it.
 */
export async function writePayoutInOneStatement(trx: Db, rows: PayoutRows, answer: Payout, claim?: PayoutClaim): Promise<boolean> {
  const { payout, event } = rows;
  const batch = claim?.inserting ? statementBatchOf(trx) : undefined;
  if (batch !== undefined) {
    // With the other payouts of its batch (its account's, or several accounts'), in one statement (payout-batch-statement.ts).
    const values = { accountId: payout.account_id, currency: payout.currency, amount: payout.amount, at: payout.created_at, payout, entries: rows.entries, event, audit: rows.audit, eventId: event.id, eventType: event.type, deliveryIdPrefix: deliveryIdPrefix(event.created_at) };
    const result = await batch.combine(payoutBatch, { ...values, ...(claim!.valuesFor(answer) as KeyInsertValues) });
    if (!result.claimed) claim!.lost(result.seen ?? undefined);
    return result.debited;
  }
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
  const statement = claim === undefined ? writePayout : claim.inserting ? writePayoutInsertingKey : writePayoutCompletingClaim;
  const keyValues = claim?.valuesFor(answer);
  const result = await statement.execute(trx, { ...writes, ...keyValues } as PayoutWrites & KeyInsertValues);
  const { claimed, debited, seen } = result.rows[0]!;
  if (!claimed) claim?.lost(seen ?? undefined);
  return debited;
}
