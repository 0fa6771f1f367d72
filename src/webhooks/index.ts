/**
 * Webhooks, assembled from one config: the endpoint and recovery services, the routes, and a
 * dispatcher (started by `serve` when in-process workers are on, and by `gatehouse worker`).
 * The collections page through the app's paging (its cursor keys and lifetime), given with the
 * routes: a worker serves no routes and needs no cursor keys.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { AccessTokens } from '../oauth/access-tokens.ts';
import type { WriteRunner } from '../idempotency/write-runner.ts';
import type { Paging } from '../paging/page.ts';
import { createSealer } from '../platform/secrets-key.ts';
import { createTargetPolicy, type Resolve, type TargetPolicy } from './target-policy.ts';
import { createEndpoints, type Endpoints } from './endpoints.ts';
import { createRecovery, type Recovery } from './recovery.ts';
import { createWebhookCollections } from './collections.ts';
import { createDispatcher, type Dispatcher } from './dispatcher.ts';
import { registerWebhookRoutes } from './routes.ts';
import { measureDeliveryQueue } from './queue-metrics.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';

export interface Webhooks {
  endpoints: Endpoints;
  recovery: Recovery;
  dispatcher: Dispatcher;
  /** Where Gatehouse may call out to (receivers, and OAuth's back-channel logout and jwks_uri). */
  policy: TargetPolicy;
  register(app: FastifyInstance, deps: { accessTokens: AccessTokens; writes: WriteRunner; paging: Paging }): void;
}

/** Production mode is an https issuer: then receivers must be https too. */
export function isProductionMode(config: Pick<Config, 'issuer'>): boolean {
  return config.issuer.startsWith('https:');
}

export async function createWebhooks(deps: {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The secrets key (loaded once by the process: platform/secrets-key.ts), which seals endpoint secrets. */
  secretsKey: Buffer;
  /** Name resolution for receiver hosts; the system resolver unless replaced. */
  resolve?: Resolve;
  /** Where attempts are counted and the delivery queue is measured at each scrape. */
  metrics?: MetricsRegistry;
}): Promise<Webhooks> {
  const { config, db, clock, log } = deps;
  const secretSealer = createSealer(deps.secretsKey, 'webhook secrets');
  const policy = createTargetPolicy({ allowNetworks: config.webhookAllowNetworks, requireHttps: isProductionMode(config), resolve: deps.resolve });
  const endpoints = createEndpoints({ db, clock, sealer: secretSealer, policy });
  const recovery = createRecovery({ db, clock });
  const dispatcher = createDispatcher({
    db,
    clock,
    log: log.child({ component: 'webhooks' }),
    sealer: secretSealer,
    policy,
    databaseUrl: config.databaseUrl,
    scheduleSeconds: config.webhookRetrySchedule,
    timeoutMs: config.webhookTimeout * 1000,
    disableAfterMs: config.webhookDisableAfter * 1000,
    perEndpoint: config.webhookConcurrency,
    metrics: deps.metrics,
  });
  if (deps.metrics) measureDeliveryQueue(deps.metrics, { db, clock });
  return {
    endpoints,
    recovery,
    dispatcher,
    policy,
    register: (app, { accessTokens, writes, paging }) =>
      registerWebhookRoutes(app, { accessTokens, writes, endpoints, recovery, clock, collections: createWebhookCollections({ db, clock, paging, sealer: secretSealer }) }),
  };
}
