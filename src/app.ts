/**
 * The composition root: builds every capability from one config and its dependencies and
 * wires them onto the two listeners. Nothing here is module state, so several instances can
 * run side by side in one process (the tests do).
 *
 * - public listener: OAuth endpoints and pages, /v1 business API, /scim/v2, health, docs
 * - admin listener (127.0.0.1 by default): /admin/v1, health, its own OpenAPI document
 *
 * Lifecycle: `listen` binds both listeners and only then starts the background work, so a node
 * that cannot bind one does nothing at all; `close` drains (readiness fails, responses close
 * their connections), closes the listeners without dropping a request, stops the background
 * work and closes the database, each step bounded by the shutdown timeout.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { settingEnv, type Config } from './config.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { openConfiguredDatabase, type Database } from './platform/db/database.ts';
import { createGroupCommit } from './platform/db/group-commit.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { warnOfClockSkew } from './platform/db/clock-check.ts';
import { createLogger, type LogDestination } from './platform/logging.ts';
import { createHttpServer, httpLimitsOf } from './platform/http/server.ts';
import { closeConnectionsWhileDraining, closeListener, createDrain, SETTLE_MS } from './platform/http/drain.ts';
import { listenOrExplain } from './platform/http/listen.ts';
import { settlesWithin } from './platform/deadline.ts';
import { createBackgroundServices, startBackgroundWork, stopBackgroundWork, type BackgroundWork } from './background.ts';
import { registerHealthRoutes } from './platform/http/health.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { publicSecuritySchemes } from './oauth/openapi.ts';
import { createAccountStore } from './accounts/store.ts';
import { registerLogoutDeliveryRoutes } from './oauth/logout-delivery-routes.ts';
import { createLogoutRecovery } from './oauth/logout-recovery.ts';
import { createAccounts, type Accounts } from './accounts/service.ts';
import { setUpAdminToken, type AdminTokenSetup } from './admin/admin-token.ts';
import { ADMIN_TOKEN_SCHEME, registerAdminApi } from './admin/routes.ts';
import { registerAccountRoutes } from './accounts/routes.ts';
import { createAccessTokens, type AccessTokens } from './oauth/access-tokens.ts';
import { createUserStore, type UserStore } from './users/store.ts';
import { MetricsRegistry } from './platform/metrics.ts';
import { registerMetricsRoute } from './platform/http/metrics-route.ts';
import { revokeUserAccess } from './oauth/user-access.ts';
import { signInDeviceKeyOf } from './oauth/sign-in-devices.ts';
import { createScim, type UserScopeBound } from './scim/index.ts';
import { createWriteRunner, type WriteHooks, type WriteRunner } from './idempotency/write-runner.ts';
import { fingerprintKeyOf } from './idempotency/fingerprint.ts';
import type { IdempotencyRetention } from './idempotency/retention.ts';
import { documentIdempotencyKeys } from './idempotency/openapi.ts';
import type { CursorKeyRing } from './paging/cursor.ts';
import { setUpCursorKeys } from './paging/cursor-keys.ts';
import { createKeyVault, createSealer, loadSecretsKey } from './platform/secrets-key.ts';
import { createPaging, type Paging } from './paging/page.ts';
import { createInvoices, type Invoices } from './payments/invoices.ts';
import { createPayouts, type Payouts } from './payments/payouts.ts';
import { createLedgerEntries, type LedgerEntries } from './payments/ledger-entries.ts';
import { createBalance } from './payments/balance.ts';
import type { PayoutProcessor } from './payments/payout-processor.ts';
import { registerPaymentRoutes } from './payments/routes.ts';
import { apiRequestLimits, createRateLimits, type RateLimits } from './platform/rate-limit.ts';
import { documentAnswers } from './platform/http/openapi-answers.ts';
import { refuseUnknownQueries } from './platform/http/schemas.ts';
import { emptyFormOnly } from './platform/http/json-body.ts';
import { createUsers, type Users } from './users/service.ts';
import { registerUserRoutes } from './users/routes.ts';
import { createUserLifecycle } from './users/lifecycle.ts';
import { createOAuth, type OAuth } from './oauth/service.ts';
import { registerClientRoutes } from './oauth/client-routes.ts';
import type { Webhooks } from './webhooks/index.ts';
import type { Resolve } from './webhooks/target-policy.ts';
import { pairwiseKeyOf } from './oauth/oidc-claims.ts';
import { createAudit, type Audit } from './audit/index.ts';
import type { RecordAudit } from './audit/record.ts';
import { registerAuditAdminRoutes, registerAuditRoutes } from './audit/routes.ts';

export interface GatehouseDeps {
  clock?: Clock;
  /** Where JSON logs go; standard output by default. */
  logDestination?: LogDestination;
  /** An already-open database (tests share one across app instances). */
  database?: Database;
  /**
   * Test-only: routes added to the public listener before it listens (e.g. a write that
   * exercises the idempotency runner before the business writes exist). Never set by `serve`
   * outside NODE_ENV=test.
   */
  extraRoutes?: (app: FastifyInstance, context: { services: Gatehouse['services']; database: Database; clock: Clock }) => void | Promise<void>;
  /** Test-only: hooks inside the write runner (see WriteHooks). */
  writeHooks?: WriteHooks;
  /** The scopes a user's roles allow (null: no bound); consulted at consent and every token. */
  userScopeBound?: UserScopeBound;
  /** Name resolution for webhook receiver hosts (tests resolve names to chosen addresses). */
  webhookResolve?: Resolve;
  /**
   * Benchmark-only: how create-payout and SCIM user writes are recorded in the audit trail
   * (`recordAudit` when unset). bench/audit-cost.ts passes one that writes nothing, for the
   * reference the trail's cost is measured against; no setting reaches it.
   */
  recordAudit?: RecordAudit;
}

export interface Gatehouse {
  config: Config;
  clock: Clock;
  database: Database;
  log: FastifyBaseLogger;
  publicServer: FastifyInstance;
  adminServer: FastifyInstance;
  adminToken: AdminTokenSetup;
  metrics: MetricsRegistry;
  services: {
    accounts: Accounts;
    accessTokens: AccessTokens;
    users: UserStore;
    writes: WriteRunner;
    userScopeBound: UserScopeBound;
    idempotency: IdempotencyRetention;
    cursorKeys: CursorKeyRing;
    paging: Paging;
    invoices: Invoices;
    payouts: Payouts;
    ledgerEntries: LedgerEntries;
    payoutProcessor: PayoutProcessor;
    rateLimits: RateLimits;
    userAccounts: Users;
    oauth: OAuth;
    webhooks: Webhooks;
    audit: Audit;
  };
  /**
   * Binds both listeners, then starts the background work; returns the listeners' URLs. A
   * listener that cannot be bound is a ListenError naming its setting, and nothing is started.
   */
  listen(): Promise<{ publicUrl: string; adminUrl: string }>;
  /**
   * Drains for `graceMs` (0 by default; `endGrace` cuts it short), closes the listeners and
   * lets requests in flight finish, stops the background work, closes the database; all that
   * follows the grace within `timeoutMs` (GATEHOUSE_SHUTDOWN_TIMEOUT by default).
   */
  close(options?: ShutdownOptions): Promise<void>;
}

export interface ShutdownOptions {
  graceMs?: number;
  endGrace?: AbortSignal;
  timeoutMs?: number;
}

/** Time the database and Redis get to close after the timeout has run out, before they are left to the exit. */
const CLOSE_MARGIN_MS = 1000;

export async function createGatehouse(config: Config, deps: GatehouseDeps = {}): Promise<Gatehouse> {
  const clock = deps.clock ?? systemClock;
  const log = createLogger({ level: config.logLevel, destination: deps.logDestination });
  const database = deps.database ?? (await openConfiguredDatabase(config));
  const ownsDatabase = deps.database === undefined;
  const closeOnFailure: Array<() => Promise<void>> = [];
  try {
    return await assemble(config, deps, { clock, log, database, ownsDatabase, closeOnFailure });
  } catch (error) {
    // A start refused on the way (a missing or wrong secrets key, say) must not leave the pool's
    // connections, or the Redis client, keeping the process alive after it has said why.
    for (const close of closeOnFailure.reverse()) await close().catch(() => undefined);
    if (ownsDatabase) await database.close().catch(() => undefined);
    throw error;
  }
}

async function assemble(
  config: Config,
  deps: GatehouseDeps,
  opened: {
    clock: Clock;
    log: FastifyBaseLogger;
    database: Database;
    ownsDatabase: boolean;
    /** What this start opened besides the database, closed if the start fails after. */
    closeOnFailure: Array<() => Promise<void>>;
  },
): Promise<Gatehouse> {
  const { clock, log, database, ownsDatabase } = opened;
  await migrateToLatest(database, {
    waiting: () => log.info('database migrations: another node holds the migration lock; waiting for it'),
    applying: (names) => log.info({ migrations: names }, `database migrations: applying ${names.length}`),
    applied: (name) => log.info({ migration: name }, `database migration applied: ${name}`),
  });
  await warnOfClockSkew(database, log);
  const { db } = database;
  // One registry per app: each capability counts into it, /metrics on the admin listener renders it.
  const metrics = new MetricsRegistry();

  const accounts = createAccounts({ store: createAccountStore(db), clock });
  // One secrets key seals what must be recovered: signing and MAC keys, the cursor key, webhook secrets.
  const secretsKey = await loadSecretsKey({ database, configured: config.secretsKey, log });
  const vault = createKeyVault(secretsKey);
  const accessTokens = createAccessTokens({ db, clock, vault });
  const users = createUserStore(db);
  // Writes that arrive together share a commit: all of them on SQLite's one writer (business
  // writes and SCIM's alike), those of one account on PostgreSQL (where they would
  // otherwise queue on its balance row).
  const groupCommit = createGroupCommit({ db });
  const scim = createScim({ db, dialect: database.dialect, clock, accessTokens, revokeUserAccess, issuer: config.issuer, maxPayloadSize: config.bodyLimit, recordAudit: deps.recordAudit, groupCommit });
  const background = await createBackgroundServices({ config, database, clock, log, metrics, secretsKey, resolve: deps.webhookResolve });
  const { idempotencyStore, idempotency, payoutProcessor, webhooks } = background;
  const writes = createWriteRunner({
    db,
    store: idempotencyStore,
    clock,
    retentionSeconds: config.idempotencyRetention,
    leaseMs: config.idempotencyLease * 1000,
    hooks: deps.writeHooks,
    groupCommit,
    metrics,
    // Stored answers that carry a secret (a webhook secret shown once) are kept sealed.
    sealer: createSealer(secretsKey, 'stored responses'),
    fingerprintKey: fingerprintKeyOf(secretsKey),
  });
  const cursorKeys = await setUpCursorKeys({ db, clock, vault, configured: config.cursorKeys });
  const paging = createPaging({ ring: cursorKeys, clock, cursorTtlMs: config.cursorTtl * 1000 });
  const invoices = createInvoices({ db, clock, paging });
  const payouts = createPayouts({ db, clock, paging, delayMs: config.payoutDelay * 1000, recordAudit: deps.recordAudit });
  const ledgerEntries = createLedgerEntries({ db, paging });
  const rateLimits = createRateLimits({
    enabled: config.rateLimits,
    redisUrl: config.redisUrl,
    redisTimeoutMs: config.redisTimeout,
    keyPrefix: config.redisKeyPrefix,
    limits: {
      api: config.rateLimitApi,
      api_failure_ip: config.rateLimitApiFailures,
      admin_failure_ip: config.rateLimitAdminFailures,
      token: config.rateLimitToken,
      signin: config.rateLimitSignIn,
      signin_device: config.rateLimitSignIn,
      signin_ip: config.rateLimitSignInAddress,
      token_failure_ip: config.rateLimitTokenFailures,
      token_failure_client: config.rateLimitTokenFailures,
    },
    log,
    metrics,
  });
  opened.closeOnFailure.push(() => rateLimits.close());
  await rateLimits.ready();
  const userAccounts = createUsers({ db, store: users, clock });
  const oauth = createOAuth({
    db,
    clock,
    config,
    accessTokens,
    vault,
    users: userAccounts,
    rateLimits,
    userScopeBound: deps.userScopeBound ?? scim.userScopeBound,
    metrics,
    pairwiseKey: pairwiseKeyOf(secretsKey),
    signInDeviceKey: signInDeviceKeyOf(secretsKey),
    outboundPolicy: webhooks.policy,
    log: log.child({ component: 'oidc' }),
    branding: accounts.branding,
  });
  const audit = createAudit({
    db,
    clock,
    paging,
    secretsKey,
    signer: oauth.keys,
    issuer: config.issuer,
    retentionDays: config.auditRetention,
    checkpointIntervalSeconds: config.auditCheckpointInterval,
  });
  const adminToken = await setUpAdminToken({ db, clock, configured: config.adminToken, dataDir: config.dataDir });

  const serverOptions = (listener: string, trustProxy: readonly string[]) => ({
    logger: log.child({ listener }),
    bodyLimit: config.bodyLimit,
    issuer: config.issuer,
    trustProxy,
    metrics: { registry: metrics, listener },
    limits: httpLimitsOf(config),
  });
  const publicServer = createHttpServer(serverOptions('public', config.trustedProxies));
  // The operator's listener believes no X-Forwarded-For: its failure limit is kept per connecting
  // address, which a process beside a trusted proxy could otherwise vary at will.
  const adminServer = createHttpServer(serverOptions('admin', []));
  const drain = createDrain();
  closeConnectionsWhileDraining(publicServer, drain);
  closeConnectionsWhileDraining(adminServer, drain);

  await registerOpenApi(publicServer, {
    title: 'Gatehouse API',
    description:
      'OAuth 2.0 authorization server, business API (/v1) with idempotent writes and cursor paging, SCIM 2.0 provisioning and signed webhooks.',
    serverUrl: config.issuer,
    securitySchemes: publicSecuritySchemes(config.issuer),
  });
  // Before any /v1 route exists, so that every POST under /v1 documents Idempotency-Key.
  documentIdempotencyKeys(publicServer);
  await registerOpenApi(adminServer, {
    title: 'Gatehouse admin API',
    description: 'Operator API on the admin listener: accounts, clients, users, SCIM tokens.',
    serverUrl: `http://${config.adminHost}:${config.adminPort}`,
    securitySchemes: { [ADMIN_TOKEN_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The operator admin token (GATEHOUSE_ADMIN_TOKEN, or generated on first start)' } },
  });

  const ready = () => database.ping();
  const draining = () => drain.draining;
  registerHealthRoutes(publicServer, { ready, draining });
  registerHealthRoutes(adminServer, { ready, draining });
  registerMetricsRoute(adminServer, { metrics, database });

  // Access and rate limits belong to routes, never to URL text: the admin API and the business
  // API are each an encapsulated plugin whose hooks cover every route registered inside it.
  await registerAdminApi(adminServer, {
    check: adminToken.check,
    limits: rateLimits,
    routes: [
      (admin) => registerAccountRoutes(admin, { accounts, paging, forgetClientsOf: oauth.clients.forgetAccount }),
      (admin) => registerClientRoutes(admin, { accounts, clients: oauth.clients, paging, keys: oauth.keys }),
      (admin) =>
        registerUserRoutes(admin, {
          accounts,
          users: userAccounts,
          lifecycle: createUserLifecycle({
            db,
            clock,
            paging,
            revokeUserAccess,
            updateUser: (accountId, userId, change, by) => scim.users.amend(accountId, userId, change, by),
            deleteUser: (accountId, userId, by) => scim.users.delete(accountId, userId, undefined, by, 'user.deleted'),
          }),
        }),
      (admin) => scim.registerAdmin(admin, { accounts, paging }),
      (admin) => registerLogoutDeliveryRoutes(admin, { accounts, recovery: createLogoutRecovery({ db, clock, paging }) }),
      (admin) => registerAuditAdminRoutes(admin, audit),
    ],
  });
  await oauth.register(publicServer);
  const services = {
    accounts,
    accessTokens,
    users,
    writes,
    idempotency,
    userScopeBound: deps.userScopeBound ?? scim.userScopeBound,
    cursorKeys,
    paging,
    invoices,
    payouts,
    ledgerEntries,
    payoutProcessor,
    rateLimits,
    userAccounts,
    oauth,
    webhooks,
    audit,
  };
  await publicServer.register(async function businessApi(api) {
    // Every answer here is one account's money, people or trail, errors included: no cache on the
    // way keeps it. First, so that a refusal by a later hook carries it too; a plain callback, no
    // promise, on every request.
    api.addHook('onRequest', (_request, reply, done) => {
      reply.header('cache-control', 'no-store');
      done();
    });
    if (rateLimits.enabled) {
      const limits = apiRequestLimits(rateLimits);
      api.addHook('onRequest', limits.onRequest);
      api.addHook('preParsing', limits.preParsing);
      api.addHook('onSend', limits.onSend);
    }
    refuseUnknownQueries(api);
    api.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, emptyFormOnly);
    documentAnswers(api, [429]);
    registerPaymentRoutes(api, { verifier: accessTokens, writes, invoices, payouts, ledgerEntries, balance: createBalance({ db }), metrics });
    webhooks.register(api, { accessTokens, writes, paging });
    await scim.registerPublic(api);
    registerAuditRoutes(api, { verifier: accessTokens, queries: audit.queries });
    await deps.extraRoutes?.(api, { services, database, clock });
  });

  let running: BackgroundWork[] = [];
  let closing: Promise<void> | undefined;

  async function shutDown(options: ShutdownOptions): Promise<void> {
    const timeoutMs = options.timeoutMs ?? config.shutdownTimeout * 1000;
    drain.begin();
    if (options.graceMs) await delay(options.graceMs, undefined, { signal: options.endGrace }).catch(() => undefined);
    const deadline = performance.now() + timeoutMs;
    const left = () => Math.max(0, deadline - performance.now());
    const settleMs = options.graceMs ? SETTLE_MS : 0;
    const cut = await Promise.all([publicServer, adminServer].map((server) => closeListener(server, { settleMs, timeoutMs })));
    const cutTotal = cut.reduce((a, b) => a + b, 0);
    if (cutTotal > 0) log.warn({ connections: cutTotal }, `shutdown timeout: closed ${cutTotal} connections with requests still in flight`);
    const abandoned = await stopBackgroundWork(running, left());
    if (abandoned.length > 0) log.warn({ abandoned }, `shutdown timeout: ${abandoned.join('; ')}`);
    await settlesWithin(Promise.all([oauth.remoteJwks.close(), oauth.backchannelLogout.close()]), left() + CLOSE_MARGIN_MS);
    await settlesWithin(rateLimits.close(), left() + CLOSE_MARGIN_MS);
    if (ownsDatabase && !(await settlesWithin(database.close(), left() + CLOSE_MARGIN_MS))) {
      log.warn('shutdown timeout: the database did not close in time; the exit closes its connections');
    }
  }

  return {
    config,
    clock,
    database,
    log,
    publicServer,
    adminServer,
    adminToken,
    metrics,
    services,
    async listen() {
      await listenOrExplain(publicServer, { host: config.host, port: config.port, hostSetting: settingEnv('host'), portSetting: settingEnv('port') });
      await listenOrExplain(adminServer, {
        host: config.adminHost,
        port: config.adminPort,
        hostSetting: settingEnv('adminHost'),
        portSetting: settingEnv('adminPort'),
      });
      running = await startBackgroundWork({ db, clock, log, services: background, audit, backchannelLogout: oauth.backchannelLogout, signingKeys: oauth.keys }, { workers: config.inProcessWorkers });
      return { publicUrl: urlOf(publicServer), adminUrl: urlOf(adminServer) };
    },
    close(options = {}) {
      closing ??= shutDown(options);
      return closing;
    },
  };
}

function urlOf(server: FastifyInstance): string {
  const address = server.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`;
}
