/**
 * `gatehouse worker`: the background work of a deployment as a process of its own, for scale:
 * the webhook dispatcher, the payout processor and the sweepers of expired OAuth state and
 * idempotency records. Any number of workers (and `serve` nodes with in-process workers) may
 * share one database: webhook claims are leases, so each due delivery is attempted by one
 * worker at a time and a worker that dies leaves only leases that expire; payouts are claimed
 * with FOR UPDATE SKIP LOCKED and change state only from `pending`, so each is processed once;
 * the sweeps are idempotent deletes. Stops on SIGTERM/SIGINT after recording work in flight.
 *
 * With GATEHOUSE_WORKER_METRICS_PORT set it serves /metrics, /healthz and /readyz on the admin
 * host, like the admin listener of `serve` (attempt counts exist only in the process that
 * made the attempts).
 */
import { loadConfig } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { openDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { createLogger } from '../platform/logging.ts';
import { MetricsRegistry } from '../platform/metrics.ts';
import { createHttpServer, httpLimitsOf } from '../platform/http/server.ts';
import { registerHealthRoutes } from '../platform/http/health.ts';
import { registerMetricsRoute } from '../platform/http/metrics-route.ts';
import { createWebhooks } from '../webhooks/index.ts';
import { createPayoutProcessor, startPayoutProcessor } from '../payments/payout-processor.ts';
import { startOAuthSweeper } from '../oauth/sweeper.ts';
import { createIdempotencyStore } from '../idempotency/store.ts';
import { createIdempotencyRetention } from '../idempotency/retention.ts';
import type { CommandContext } from './commands.ts';

export async function worker({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const log = createLogger({ level: config.logLevel });
  const clock = systemClock;
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    poolSize: config.databasePoolSize,
    statementTimeoutMs: config.databaseStatementTimeout,
    acquireTimeoutMs: config.databaseAcquireTimeout,
  });
  await migrateToLatest(database);
  const { db } = database;
  const metrics = new MetricsRegistry();
  const webhooks = await createWebhooks({ config, db, clock, log, metrics });
  const payoutProcessor = createPayoutProcessor({ db, clock, kind: database.kind, metrics });
  const idempotency = createIdempotencyRetention({ store: createIdempotencyStore({ db, kind: database.kind }), clock });

  const stops: Array<() => Promise<void>> = [
    startPayoutProcessor({ processor: payoutProcessor, intervalMs: 1000, log: log.child({ worker: 'payouts' }) }),
    startOAuthSweeper({ db, clock, log }),
    idempotency.start({
      intervalMs: 60_000,
      onError: (error) => log.warn({ err: error }, 'idempotency sweep failed; retrying on the next tick'),
    }),
  ];
  await webhooks.dispatcher.start();
  stops.push(() => webhooks.dispatcher.stop());

  let metricsUrl: string | undefined;
  const server = config.workerMetricsPort === undefined ? undefined : createHttpServer({
    logger: log.child({ listener: 'worker' }),
    bodyLimit: config.bodyLimit,
    issuer: config.issuer,
    metrics: { registry: metrics, listener: 'worker' },
    limits: httpLimitsOf(config),
  });
  if (server) {
    registerHealthRoutes(server, { ready: () => database.ping() });
    registerMetricsRoute(server, { metrics, database });
    metricsUrl = await server.listen({ host: config.adminHost, port: config.workerMetricsPort });
  }
  log.info(
    { database: database.kind, databaseLocation: database.location, metrics: metricsUrl },
    `gatehouse worker delivering webhooks and processing payouts from ${database.kind} at ${database.location}`,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'worker stopping: finishing work in flight');
      Promise.resolve(server?.close())
        .then(() => Promise.all(stops.map((s) => s())))
        .then(() => database.close())
        .then(() => resolve(0))
        .catch((error: unknown) => {
          log.error({ err: error }, 'worker shutdown failed');
          resolve(1);
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
