/**
 * A payout's writes on PostgreSQL as one statement, so that a payout costs the database one
 * round trip instead of six: the conditional debit of the available balance first, then, only
 * if it took the money, the payout row, its two ledger entries, the `payout.created` event and
 * the audit record, each a data-modifying WITH clause that reads the debit's result. The same
 * statement reads the account's enabled webhook endpoints, which the caller hands to the
 * event's fan-out (webhooks/fan-out.ts `fanOutTo`); an account without endpoints writes no more.
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
import { fanOutTo, type EnabledEndpoint } from '../webhooks/fan-out.ts';
import type { AuditEventRow } from '../audit/tables.ts';
import type { EventRow } from '../events/tables.ts';
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
  audit: string;
}

const writePayout = preparedQuery(
  (db, value: Placeholder<PayoutWrites>): Compilable<{ debited: boolean; endpoints: EnabledEndpoint[] }> => {
    const statement = sql<{ debited: boolean; endpoints: EnabledEndpoint[] }>`with debit as (
        update balances set available = available - ${value('amount')}::bigint, updated_at = ${value('at')}::bigint
        where account_id = ${value('accountId')}::text and currency = ${value('currency')}::text and available >= ${value('amount')}::bigint
        returning account_id
      ), payout as (
        insert into payouts select * from json_populate_record(null::payouts, ${value('payout')}::json) where exists (select from debit)
      ), entries as (
        insert into ledger_entries select * from json_populate_recordset(null::ledger_entries, ${value('entries')}::json) where exists (select from debit)
      ), event as (
        insert into events select * from json_populate_record(null::events, ${value('event')}::json) where exists (select from debit)
      ), audit as (
        insert into audit_events select * from json_populate_record(null::audit_events, ${value('audit')}::json) where exists (select from debit)
      )
      select exists (select from debit) as debited,
        coalesce((select json_agg(json_build_object('id', id, 'event_types', event_types)) from webhook_endpoints
          where account_id = ${value('accountId')}::text and enabled = 1 and exists (select from debit)), '[]'::json) as endpoints`;
    return { compile: () => statement.compile(db) };
  },
);

export interface PayoutRows {
  payout: PayoutRow;
  entries: [LedgerEntryRow, LedgerEntryRow];
  event: EventRow;
  audit: AuditEventRow;
}

/**
 * Writes `rows` in `trx` if the account's available balance covers the payout, and queues the
 * event's deliveries; false (and nothing written) when it does not.
 */
export async function writePayoutInOneStatement(trx: Db, rows: PayoutRows): Promise<boolean> {
  const { payout, event } = rows;
  const result = await writePayout.execute(trx, {
    accountId: payout.account_id,
    currency: payout.currency,
    amount: payout.amount,
    at: payout.created_at,
    payout: JSON.stringify(payout),
    entries: JSON.stringify(rows.entries),
    event: JSON.stringify(event),
    audit: JSON.stringify(rows.audit),
  });
  const { debited, endpoints } = result.rows[0]!;
  if (debited && endpoints.length > 0) await fanOutTo(trx, { eventId: event.id, accountId: event.account_id, type: event.type, at: event.created_at }, endpoints);
  return debited;
}
