/**
 * The delivery queue as gauges, computed at each scrape from the database (so every node and
 * worker reports the same shared queue): pending deliveries, those already due, and parked
 * ones. Pending and due are counted in the queue, parked over the index of parked deliveries
 * (migration 0505): none of them reads an acknowledged delivery.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';

const count = sql<number | string>`count(*)`;

function queued(eb: ExpressionBuilder<Tables, never>) {
  return eb.selectFrom('webhook_queue').select(count.as('n'));
}

/** Over the partial index of parked deliveries, which the condition lets the database choose. */
function parked(eb: ExpressionBuilder<Tables, never>) {
  return eb.selectFrom('webhook_deliveries').select(count.as('n')).where('parked_at', 'is not', null);
}

export function measureDeliveryQueue(metrics: MetricsRegistry, deps: { db: Db; clock: Clock }): void {
  const { db, clock } = deps;
  metrics.gauge('gatehouse_webhook_deliveries', 'Webhook deliveries waiting, by state: pending (all), due (pending and due now), parked', ['state'], async (depth) => {
    const now = clock.now();
    const row = await db
      .selectNoFrom((eb) => [
        queued(eb).as('pending'),
        queued(eb).where('next_attempt_at', '<=', now).as('due'),
        parked(eb).as('parked'),
      ])
      .executeTakeFirstOrThrow();
    depth.set({ state: 'pending' }, Number(row.pending));
    depth.set({ state: 'due' }, Number(row.due));
    depth.set({ state: 'parked' }, Number(row.parked));
  });
}
