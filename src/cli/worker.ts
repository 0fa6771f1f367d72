/**
 * `gatehouse worker`: the background work of a deployment as a process of its own, for scale:
 * the webhook dispatcher, back-channel logout delivery, the payout processor, audit sealing and
 * the sweepers of expired OAuth state, idempotency records and old audit records. Any number of
 * workers (and `serve` nodes with in-process workers) may share one database: webhook claims
 * and logout deliveries are leases, so each due delivery is attempted by one
 * worker at a time and a worker that dies leaves only leases that expire; payouts are claimed
 * with FOR UPDATE SKIP LOCKED and change state only from `pending`, so each is processed once;
 * the sweeps are idempotent deletes.
 *
 * With GATEHOUSE_WORKER_METRICS_PORT set it serves /metrics, /healthz and /readyz on the admin
 * host, like the admin listener of `serve` (attempt counts exist only in the process that
 * made the attempts). That port is bound before any work starts: a worker that cannot bind it
 * exits 1 naming the setting, having done nothing.
 *
 * On SIGTERM/SIGINT it stops within GATEHOUSE_SHUTDOWN_TIMEOUT: claimed deliveries not yet
 * attempted are released, attempts in flight are recorded, and what is still running at the
 * timeout (a receiver that never answers) is abandoned and logged; then it exits 0.
 */
import { loadConfig, settingEnv } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { loadSecretsKey } from '../platform/secrets-key.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { warnOfClockSkew } from '../platform/db/clock-check.ts';
import { createLogger } from '../platform/logging.ts';
import { MetricsRegistry } from '../platform/metrics.ts';
import { createHttpServer, httpLimitsOf } from '../platform/http/server.ts';
import { registerHealthRoutes } from '../platform/http/health.ts';
import { registerMetricsRoute } from '../platform/http/metrics-route.ts';
import { listenOrExplain } from '../platform/http/listen.ts';
import { settlesWithin } from '../platform/deadline.ts';
import { createBackgroundServices, startBackgroundWork, stopBackgroundWork, type BackgroundWork } from '../background.ts';
import { openAudit } from '../audit/standalone.ts';
import { createLogoutDelivery } from '../oauth/standalone.ts';
import { exitAfterStop, stopSignal } from './signals.ts';
import type { CommandContext } from './commands.ts';

/** Time the metrics listener and the database get to close once the work has stopped. */
const CLOSE_MARGIN_MS = 1000;

export async function worker({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const log = createLogger({ level: config.logLevel });
  const clock = systemClock;
  const database = await openConfiguredDatabase(config);
  const signal = stopSignal();
  const metrics = new MetricsRegistry();
  const server = config.workerMetricsPort === undefined ? undefined : createHttpServer({
    logger: log.child({ listener: 'worker' }),
    bodyLimit: config.bodyLimit,
    issuer: config.issuer,
    metrics: { registry: metrics, listener: 'worker' },
    limits: httpLimitsOf(config),
  });
  const close = async () => {
    await server?.close();
    await database.close();
  };
  let background: BackgroundWork[];
  let metricsUrl: string | undefined;
  try {
    await migrateToLatest(database, {
      waiting: () => log.info('database migrations: another process holds the migration lock; waiting for it'),
      applying: (names) => log.info({ migrations: names }, `database migrations: applying ${names.length}`),
      applied: (name) => log.info({ migration: name }, `database migration applied: ${name}`),
    });
    await warnOfClockSkew(database, log);
    const { db } = database;
    const secretsKey = await loadSecretsKey({ database, configured: config.secretsKey, log });
    const services = await createBackgroundServices({ config, database, clock, log, metrics, secretsKey });
    if (server) {
      registerHealthRoutes(server, { ready: () => database.ping(), draining: () => signal.received });
      registerMetricsRoute(server, { metrics, database });
      metricsUrl = await listenOrExplain(server, {
        host: config.adminHost,
        port: config.workerMetricsPort!,
        hostSetting: settingEnv('adminHost'),
        portSetting: settingEnv('workerMetricsPort'),
      });
    }
    // Only now, with its one listener bound (or none configured), does the worker start any work.
    const { keys, backchannelLogout } = await createLogoutDelivery({ db, clock, config, secretsKey, policy: services.webhooks.policy, log });
    const audit = await openAudit(database, config, clock, { secretsKey, signer: keys });
    background = await startBackgroundWork({ db, clock, log, services, audit, backchannelLogout, signingKeys: keys }, { workers: true });
  } catch (error) {
    signal.dispose();
    await close();
    exitAfterStop(1);
    throw error;
  }
  log.info(
    { database: database.dialect.name, databaseLocation: database.location, metrics: metricsUrl },
    `gatehouse worker delivering webhooks and processing payouts from ${database.dialect.name} at ${database.location}`,
  );

  const received = await signal.first;
  const timeoutMs = config.shutdownTimeout * 1000;
  log.info({ signal: received, timeoutSeconds: config.shutdownTimeout }, `worker stopping: finishing work in flight (at most ${config.shutdownTimeout} s)`);
  const abandoned = await stopBackgroundWork(background, timeoutMs);
  if (abandoned.length > 0) log.warn({ abandoned }, `shutdown timeout: ${abandoned.join('; ')}`);
  signal.dispose();
  if (!(await settlesWithin(close(), CLOSE_MARGIN_MS))) log.warn('shutdown timeout: the database did not close in time; the exit closes its connections');
  log.info({ abandoned: abandoned.length }, 'worker stopped');
  exitAfterStop(0);
  return 0;
}
