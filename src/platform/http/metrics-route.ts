/**
 * GET /metrics on the admin listener (and a worker's metrics port): Prometheus text format. Like
 * /healthz it needs no admin token (scrapers rarely carry one); the admin listener is bound to
 * loopback unless configured. Besides what the capabilities count, a scrape reports the process
 * (runtime metrics, build info), whether the database answers, and the connection pool.
 */
import type { FastifyInstance } from 'fastify';
import { measureProcess, releaseVersion, type MetricsRegistry } from '../metrics.ts';
import type { Database } from '../db/database.ts';

export function registerMetricsRoute(app: FastifyInstance, deps: { metrics: MetricsRegistry; database: Database }): void {
  const { metrics, database } = deps;
  measureProcess(metrics, { version: releaseVersion(), database: database.kind });
  metrics.gauge('gatehouse_db_pool_connections', 'Database pool connections by state', ['state'], (pool) => {
    const stats = database.poolStats();
    if (!stats) return;
    pool.set({ state: 'busy' }, stats.total - stats.idle);
    pool.set({ state: 'idle' }, stats.idle);
    pool.set({ state: 'waiting' }, stats.waiting);
  });
  metrics.gauge('gatehouse_db_up', '1 when the database answered the last scrape', [], async (up) => {
    try {
      await database.ping();
      up.set(1);
    } catch {
      up.set(0);
    }
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.contentType);
    return metrics.render();
  });
}
