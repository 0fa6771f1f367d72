/**
 * The payout processor: moves each pending payout whose delay has passed (by the injected
 * clock) to `paid`, or to `failed` for the test destination, posts the ledger entries and
 * records `payout.paid` / `payout.failed` in the same transaction.
 *
 * Each payout is processed exactly once, however many processes run this against one
 * database: on PostgreSQL a batch is claimed with `FOR UPDATE SKIP LOCKED`, so concurrent
 * processors take disjoint batches; on SQLite every transaction begins IMMEDIATE, so
 * processors take turns. The state change is also conditional on `pending` as a second guard.
 *
 * There is no bank behind Gatehouse: a payout to a destination starting with `test_fail`
 * fails with `destination_rejected`; every other destination is paid.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { SqlDialect } from '../platform/db/dialect.ts';
import { recordEvent } from '../events/outbox.ts';
import { recordAudit, systemActor } from '../audit/record.ts';
import { creditBalance, post } from './ledger.ts';
import { presentPayout } from './payouts.ts';
import type { PayoutRow, PayoutState } from './tables.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';
import { runInRounds } from '../platform/rounds.ts';

export const FAILING_DESTINATION_PREFIX = 'test_fail';
export const FAILURE_CODE = 'destination_rejected';

export interface ProcessedPayouts {
  paid: number;
  failed: number;
}

const PROCESSOR = systemActor('payout_processor');

export function createPayoutProcessor(deps: { db: Db; clock: Clock; dialect: SqlDialect; batchSize?: number; metrics?: MetricsRegistry }) {
  const { db, clock, dialect } = deps;
  const transitions = deps.metrics?.counter('gatehouse_payouts_transitions_total', 'Payout state transitions, by from and to state', ['from', 'to']);
  // Exported at 0 from the start: "created, and nothing processed" is an alert on a rate of 0,
  // which a series that does not exist yet would never show.
  for (const to of ['paid', 'failed'] as const) transitions?.inc({ from: 'pending', to }, 0);
  const batchSize = deps.batchSize ?? 100;

  async function complete(trx: Db, payout: PayoutRow, now: number): Promise<Exclude<PayoutState, 'pending'> | undefined> {
    const fails = payout.destination.startsWith(FAILING_DESTINATION_PREFIX);
    const state: PayoutState = fails ? 'failed' : 'paid';
    const processed = { ...payout, state, processed_at: now, failure_code: fails ? FAILURE_CODE : null };
    const presented = presentPayout(processed);
    const changed = await trx
      .updateTable('payouts')
      .set({ state, processed_at: now, failure_code: processed.failure_code, representation: JSON.stringify(presented) })
      .where('id', '=', payout.id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) return undefined;
    const money = { accountId: payout.account_id, currency: payout.currency, amount: payout.amount, at: now };
    const source = { object: 'payout' as const, id: payout.id };
    if (fails) {
      await post(trx, { ...money, debit: 'payouts_pending', credit: 'balance', source });
      await creditBalance(trx, money);
    } else {
      await post(trx, { ...money, debit: 'payouts_pending', credit: 'cash', source });
    }
    await recordEvent(trx, { accountId: payout.account_id, type: `payout.${state}`, object: 'payout', objectId: payout.id, state, data: presented, at: now });
    await recordAudit(trx, PROCESSOR, {
      accountId: payout.account_id,
      action: state === 'paid' ? 'payout.paid' : 'payout.failed',
      target: { type: 'payout', id: payout.id },
      changes: { state: { before: 'pending', after: state }, ...(fails ? { failure_code: { before: null, after: FAILURE_CODE } } : {}) },
      at: now,
    });
    return state;
  }

  return {
    /** Processes every payout due now, batch by batch; returns how many were paid and failed. */
    async processDuePayouts(): Promise<ProcessedPayouts> {
      const totals: ProcessedPayouts = { paid: 0, failed: 0 };
      for (;;) {
        const now = clock.now();
        const batch: ProcessedPayouts = { paid: 0, failed: 0 };
        const claimed = await db.transaction().execute(async (trx) => {
          const due = await dialect
            .skipLocked(trx.selectFrom('payouts').selectAll().where('state', '=', 'pending').where('due_at', '<=', now).orderBy('due_at').limit(batchSize))
            .execute();
          // Balances are credited in (account, currency) order, the order payout batches lock
          // them in (payout-batch-statement.ts), so that neither waits for the other in a cycle.
          for (const payout of due.sort(byBalance)) {
            const outcome = await complete(trx, payout, now);
            if (outcome) batch[outcome] += 1;
          }
          return due.length;
        });
        // Counted once committed: a rolled-back batch is retried, not paid.
        for (const state of ['paid', 'failed'] as const) {
          totals[state] += batch[state];
          if (batch[state] > 0) transitions?.inc({ from: 'pending', to: state }, batch[state]);
        }
        if (claimed < batchSize) return totals;
      }
    },
  };
}

function byBalance(a: PayoutRow, b: PayoutRow): number {
  return a.account_id < b.account_id ? -1 : a.account_id > b.account_id ? 1 : a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0;
}

export type PayoutProcessor = ReturnType<typeof createPayoutProcessor>;

/**
 * Runs `processDuePayouts` every `intervalMs` until stopped. A failing run is logged and
 * retried on the next tick. `stop` waits for a run in progress to finish.
 */
export function startPayoutProcessor(deps: { processor: PayoutProcessor; intervalMs: number; log: FastifyBaseLogger }): () => Promise<void> {
  const { processor, intervalMs, log } = deps;
  const round = async () => {
    const done = await processor.processDuePayouts();
    if (done.paid + done.failed > 0) log.info(done, 'payouts processed');
  };
  return runInRounds(round, { intervalMs, onError: (error) => log.error({ err: error }, 'payout processing failed') }).stop;
}
