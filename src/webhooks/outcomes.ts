/**
 * Recording what attempts came to, many at a time in one transaction (the hot path commits
 * once per batch, not once per delivery). The interface's state table, per delivery:
 * sent + 2xx → acknowledged; sent + no 2xx → resent (same Event-Id, new Delivery-Id) on the
 * schedule; schedule exhausted → parked. A 410 Gone disables the endpoint; an endpoint whose
 * failures have gone on unbroken for the configured time is disabled too.
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { AttemptResult } from './attempt.ts';
import type { ClaimedDelivery } from './claims.ts';
import { disableEndpoint } from './lifecycle.ts';
import { nextStep, parseRetryAfter } from './schedule.ts';

export interface Outcome {
  delivery: ClaimedDelivery;
  attemptId: string;
  attemptedAt: number;
  result: AttemptResult;
}

export interface OutcomePolicy {
  scheduleSeconds: readonly number[];
  disableAfterMs: number;
  now: () => number;
}

export async function recordOutcomes(db: Db, outcomes: readonly Outcome[], policy: OutcomePolicy): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const now = policy.now();
    await trx
      .insertInto('webhook_attempts')
      .values(
        outcomes.map((o) => ({
          id: o.attemptId,
          account_id: o.delivery.accountId,
          delivery_id: o.delivery.id,
          endpoint_id: o.delivery.endpointId,
          event_id: o.delivery.eventId,
          event_type: o.delivery.eventType,
          outcome: o.result.ok ? ('succeeded' as const) : ('failed' as const),
          response_status: o.result.status,
          response_body: o.result.excerpt,
          error: o.result.error,
          latency_ms: o.result.latencyMs,
          attempted_at: o.attemptedAt,
        })),
      )
      .execute();

    const acknowledged = outcomes.filter((o) => o.result.ok);
    if (acknowledged.length > 0) {
      // An acknowledgement counts even if the lease ran out meanwhile: the receiver has the event.
      await trx
        .updateTable('webhook_deliveries')
        .set({
          state: 'acknowledged',
          attempt_count: sql<number>`attempt_count + 1`,
          last_attempt_at: now,
          parked_at: null,
          lease_owner: null,
          lease_until: null,
          updated_at: now,
        })
        .where('id', 'in', acknowledged.map((o) => o.delivery.id))
        // Parked meanwhile (the endpoint was disabled mid-attempt) still counts: the receiver has it.
        // Written as "not acknowledged": SQLite runs `state in (…)` beside `id in (…)` as a scan.
        .where('state', '!=', 'acknowledged')
        .execute();
      await trx
        .updateTable('webhook_endpoints')
        .set({ failing_since: null })
        .where('id', 'in', [...new Set(acknowledged.map((o) => o.delivery.endpointId))])
        .where('failing_since', 'is not', null)
        .execute();
    }
    for (const o of outcomes) if (!o.result.ok) await recordFailure(trx, o, policy, now);
  });
}

async function recordFailure(trx: Transaction<Tables>, o: Outcome, policy: OutcomePolicy, now: number): Promise<void> {
  const { delivery, result } = o;
  const failures = delivery.cycleFailures + 1;
  const retryAfterMs = result.status === 429 || result.status === 503 ? parseRetryAfter(result.retryAfter, now) : undefined;
  const step = nextStep({ failures, scheduleSeconds: policy.scheduleSeconds, now, retryAfterMs });
  // Only the holder of the lease moves the delivery on; a stale worker's failure is just logged.
  await trx
    .updateTable('webhook_deliveries')
    .set({
      state: step.kind === 'park' ? 'parked' : 'pending',
      cycle_failures: failures,
      attempt_count: sql<number>`attempt_count + 1`,
      next_attempt_at: step.kind === 'retry' ? step.at : now,
      parked_at: step.kind === 'park' ? now : null,
      last_attempt_at: now,
      lease_owner: null,
      lease_until: null,
      updated_at: now,
    })
    .where('id', '=', delivery.id)
    .where('state', '=', 'pending')
    .where('lease_owner', '=', delivery.claim)
    .execute();

  await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: o.attemptedAt })
    .where('id', '=', delivery.endpointId)
    .where('failing_since', 'is', null)
    .execute();
  const endpoint = await trx
    .selectFrom('webhook_endpoints')
    .select(['failing_since', 'enabled'])
    .where('id', '=', delivery.endpointId)
    .executeTakeFirst();
  if (!endpoint || endpoint.enabled !== 1) return;
  const failingTooLong = endpoint.failing_since !== null && now - endpoint.failing_since >= policy.disableAfterMs;
  if (result.status === 410 || failingTooLong) {
    await disableEndpoint(trx, {
      accountId: delivery.accountId,
      endpointId: delivery.endpointId,
      reason: result.status === 410 ? 'gone' : 'failing',
      now,
    });
  }
}
