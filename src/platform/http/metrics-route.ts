/**
 * GET /metrics on the admin listener: Prometheus text format. Like /healthz it needs no admin
 * token (scrapers rarely carry one); the admin listener is bound to loopback unless configured.
 */
import type { FastifyInstance } from 'fastify';
import type { MetricsRegistry } from '../metrics.ts';
import type { Database } from '../db/database.ts';

export function registerMetricsRoute(app: FastifyInstance, deps: { metrics: MetricsRegistry; database: Database }): void {
  const { metrics, database } = deps;
  const pool = metrics.gauge('gatehouse_db_pool_connections', 'Database pool connections by state');
  const up = metrics.gauge('gatehouse_db_up', '1 when the database answered the last scrape');
  metrics.collect(async () => {
    const stats = database.poolStats();
    if (stats) {
      pool.set(stats.total - stats.idle, { state: 'busy' });
      pool.set(stats.idle, { state: 'idle' });
      pool.set(stats.waiting, { state: 'waiting' });
    }
    try {
      await database.ping();
      up.set(1);
    } catch {
      up.set(0);
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/plain; version=0.0.4; charset=utf-8');
    return metrics.render();
  });
}
