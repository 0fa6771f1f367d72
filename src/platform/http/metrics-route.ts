/**
 * GET /metrics on the admin listener (and a worker's metrics port): Prometheus text format. Like
 * /healthz it needs no admin token (scrapers rarely carry one); the admin listener is bound to
 * loopback unless configured. Besides what the capabilities count, a scrape reports the process
 * (runtime metrics, build info), whether the database answers, and the connection pool as it
 * was when the scrape arrived: the scrape's own queries are not load, and counting them made an
 * idle process report a connection waiting on every scrape.
 */
import type { FastifyInstance } from 'fastify';
import { measureProcess, releaseVersion, type MetricsRegistry } from '../metrics.ts';
import type { Database } from '../db/database.ts';
import { documentedOnly } from './openapi.ts';

const SCRAPE_EXAMPLE = '# HELP gatehouse_db_up 1 when the database answered the last scrape\n# TYPE gatehouse_db_up gauge\ngatehouse_db_up 1\n';

export function registerMetricsRoute(app: FastifyInstance, deps: { metrics: MetricsRegistry; database: Database }): void {
  const { metrics, database } = deps;
  measureProcess(metrics, { version: releaseVersion(), database: database.dialect.name });
  const samplePool = measurePool(metrics, database);
  metrics.gauge('gatehouse_db_up', '1 when the database answered the last scrape', [], async (up) => {
    try {
      await database.ping();
      up.set(1);
    } catch {
      up.set(0);
    }
  });
  const documented = documentedOnly({
    response: { 200: { description: 'Prometheus text exposition (docs/OPERATIONS.md lists the series)', content: { [metrics.contentType]: { schema: { type: 'string' }, example: SCRAPE_EXAMPLE } } } },
  });
  app.get('/metrics', { config: documented, schema: { tags: ['health'], operationId: 'getMetrics', summary: 'Metrics for Prometheus: requests, the database pool, payouts, webhooks, the process' } }, async (_request, reply) => {
    // Before any gauge of this scrape queries the database, so that its checkouts are not counted.
    samplePool();
    reply.type(metrics.contentType);
    return metrics.render();
  });
}

/** The pool gauge and the function that samples it (PostgreSQL; SQLite has one connection). */
function measurePool(metrics: MetricsRegistry, database: Database): () => void {
  const pool = metrics.gauge('gatehouse_db_pool_connections', 'Database pool connections by state', ['state']);
  return () => {
    const stats = database.poolStats();
    if (!stats) return;
    pool.set({ state: 'busy' }, stats.total - stats.idle);
    pool.set({ state: 'idle' }, stats.idle);
    pool.set({ state: 'waiting' }, stats.waiting);
  };
}
