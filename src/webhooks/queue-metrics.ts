/**
 * The delivery queue as gauges, computed at each scrape from the database (so every node and
 * worker reports the same shared queue): pending deliveries, those already due, and parked
 * ones. Each is one count over the `(state, next_attempt_at)` index.
 */
import { sql } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';

export function measureDeliveryQueue(metrics: MetricsRegistry, deps: { db: Db; clock: Clock }): void {
  const { db, clock } = deps;
  const depth = metrics.gauge('gatehouse_webhook_deliveries', 'Webhook deliveries waiting, by state: pending (all), due (pending and due now), parked');
  metrics.collect(async () => {
    const now = clock.now();
    const row = await db
      .selectFrom('webhook_deliveries')
      .select([
        sql<number | string>`count(*) filter (where state = 'pending')`.as('pending'),
        sql<number | string>`count(*) filter (where state = 'pending' and next_attempt_at <= ${now})`.as('due'),
        sql<number | string>`count(*) filter (where state = 'parked')`.as('parked'),
      ])
      .where('state', 'in', ['pending', 'parked'])
      .executeTakeFirstOrThrow();
    depth.set(Number(row.pending), { state: 'pending' });
    depth.set(Number(row.due), { state: 'due' });
    depth.set(Number(row.parked), { state: 'parked' });
  });
}
