/**
 * Payouts: money leaving an account's available balance for a destination. Created
 * `pending`; the payout processor later moves each to `paid` or `failed`.
 *
 * A payout larger than the available balance in its currency is refused with 422
 * `insufficient_funds`. The refusal is thrown inside the write transaction (rolling back
 * what the payout wrote) so that an idempotent retry replays it. Creating posts balance →
 * payouts_pending, records `payout.created` and debits the balance atomically (see
 * ledger.ts), all in the caller's transaction.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { eventRow, recordEvent } from '../events/outbox.ts';
import { changesOf, recordAudit, type AuditBy, type RecordAudit } from '../audit/record.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Paging } from '../paging/page.ts';
import { preparedInsert } from '../platform/db/prepared.ts';
import { collectionReads, type CreatedRange } from './collection-reads.ts';
import { debitBalance, post, postingEntries } from './ledger.ts';
import { writePayoutInOneStatement, type PayoutClaim } from './payout-statement.ts';
import type { PayoutRow, PayoutState, Unrendered } from './tables.ts';

export interface Payout {
  id: string;
  object: 'payout';
  amount: number;
  currency: string;
  destination: string;
  state: PayoutState;
  /** Why a failed payout failed; null otherwise. */
  failure_code: string | null;
  created_at: string;
  /** When it became paid or failed; null while pending. */
  processed_at: string | null;
}

export interface NewPayout {
  amount: number;
  currency: string;
  destination: string;
}

export function presentPayout(row: Unrendered<PayoutRow>): Payout {
  return {
    id: row.id,
    object: 'payout',
    amount: row.amount,
    currency: row.currency,
    destination: row.destination,
    state: row.state,
    failure_code: row.failure_code,
    created_at: toRfc3339(row.created_at),
    processed_at: row.processed_at === null ? null : toRfc3339(row.processed_at),
  };
}

const insertPayout = preparedInsert('payouts', [
  'id',
  'account_id',
  'amount',
  'currency',
  'destination',
  'state',
  'failure_code',
  'created_at',
  'due_at',
  'processed_at',
  'representation',
]);

/** What a read of the payouts may be narrowed to. */
export interface PayoutFilters extends CreatedRange {
  state?: PayoutState | undefined;
}

export const PAYOUTS_ORDER = 'payouts:created_at.desc,id.desc';

export function createPayouts(deps: { db: Db; clock: Clock; paging: Paging; delayMs: number; recordAudit?: RecordAudit }) {
  const { db, clock, delayMs } = deps;
  const audit = deps.recordAudit ?? recordAudit;
  const reads = collectionReads(deps, { table: 'payouts', orderName: PAYOUTS_ORDER, columns: ['state'] });
  return {
    /**
     * Creates a payout in `trx`. On PostgreSQL `claim`, the request's Idempotency-Key claim, is
     * completed by the payout's own statement (write-runner.ts `ClaimCompletion`).
     */
    async create(trx: Db, accountId: string, input: NewPayout, by?: AuditBy, claim?: PayoutClaim): Promise<Payout> {
      const now = clock.now();
      const money = { accountId, currency: input.currency, amount: input.amount, at: now };
      const row: Unrendered<PayoutRow> = {
        id: newTimeOrderedId('po', now),
        account_id: accountId,
        amount: input.amount,
        currency: input.currency,
        destination: input.destination,
        state: 'pending',
        failure_code: null,
        created_at: now,
        due_at: now + delayMs,
        processed_at: null,
      };
      const payout = presentPayout(row);
      const posting = { ...money, debit: 'balance', credit: 'payouts_pending', source: { object: 'payout', id: row.id } } as const;
      const event = { accountId, type: 'payout.created', object: 'payout', objectId: row.id, state: 'pending', data: payout, at: now };
      const entry = { accountId, action: 'payout.created', target: { type: 'payout', id: row.id }, changes: changesOf(null, { ...input, state: 'pending' }), at: now } as const;
      let covered: boolean;
      if (dialectOf(trx).writableCtes) {
        // One round trip: the debit, and the rows only if it took the money (payout-statement.ts).
        const rows = { payout: { ...row, representation: JSON.stringify(payout) }, entries: postingEntries(posting), event: eventRow(event), audit: audit.row(by, entry) };
        covered = await writePayoutInOneStatement(trx, rows, payout, claim);
      } else {
        await insertPayout.execute(trx, { ...row, representation: JSON.stringify(payout) });
        await post(trx, posting);
        await recordEvent(trx, event);
        await audit(trx, by, entry);
        // Last, so that concurrent payouts of one account queue on its balance row for as
        // short a time as possible; a refusal rolls back the rest.
        covered = await debitBalance(trx, money);
      }
      if (!covered) {
        throw problem('insufficient_funds', {
          detail: `The available ${input.currency} balance does not cover ${input.amount}`,
        });
      }
      return payout;
    },

    async get(accountId: string, id: string): Promise<Payout> {
      const row = await db.selectFrom('payouts').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (!row) throw problem('payout_not_found', { detail: `No payout ${id}` });
      return presentPayout(row);
    },

    /** A page of the account's payouts, narrowed by `filters`, as the JSON text of the response. */
    listJson: (request: { accountId: string; limit: number | undefined; after: string | undefined; filters: PayoutFilters }): Promise<string> => reads.listJson(request),
  };
}

export type Payouts = ReturnType<typeof createPayouts>;
