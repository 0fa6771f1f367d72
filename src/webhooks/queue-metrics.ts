/**
 * The delivery queue as gauges, computed at each scrape from the database (so every node and
 * worker reports the same shared queue): pending deliveries, those already due, and parked
 * ones. Pending and due are counted over the index of pending deliveries, parked over that of
 * parked ones (migration 0503): neither reads an acknowledged delivery.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';

/** The count of deliveries in `state`, over that state's partial index (the literal lets the database choose it). */
function inState(eb: ExpressionBuilder<Tables, never>, state: 'pending' | 'parked') {
  return eb.selectFrom('webhook_deliveries').select(sql<number | string>`count(*)`.as('n')).where('state', '=', sql.lit(state));
}

export function measureDeliveryQueue(metrics: MetricsRegistry, deps: { db: Db; clock: Clock }): void {
  const { db, clock } = deps;
  const depth = metrics.gauge('gatehouse_webhook_deliveries', 'Webhook deliveries waiting, by state: pending (all), due (pending and due now), parked');
  metrics.collect(async () => {
    const now = clock.now();
    const row = await db
      .selectNoFrom((eb) => [
        inState(eb, 'pending').as('pending'),
        inState(eb, 'pending').where('next_attempt_at', '<=', now).as('due'),
        inState(eb, 'parked').as('parked'),
      ])
      .executeTakeFirstOrThrow();
    depth.set(Number(row.pending), { state: 'pending' });
    depth.set(Number(row.due), { state: 'due' });
    depth.set(Number(row.parked), { state: 'parked' });
  });
}
