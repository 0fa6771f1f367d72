/**
 * The background work of a process (webhook dispatcher, back-channel logout delivery, payout
 * processor, audit sealing, sweeps of expired OAuth state and idempotency records), as `serve`
 * and `gatehouse worker` run it: the capabilities it needs built from one configuration
 * (`createBackgroundServices`: `serve` builds them with the rest of the app and serves their
 * routes, `worker` builds only them), then started only once every listener of the process is
 * bound, so a process that cannot start does no work, and stopped within the shutdown timeout. Work still running at the timeout is
 * abandoned, never waited for; each part says what that leaves behind, and nothing it leaves
 * is lost (a payout batch's transaction rolls back, a webhook lease expires and the delivery
 * is attempted again).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Clock } from './platform/clock.ts';
import type { Database, Db } from './platform/db/database.ts';
import type { MetricsRegistry } from './platform/metrics.ts';
import { settlesWithin } from './platform/deadline.ts';
import { createPayoutProcessor, startPayoutProcessor, type PayoutProcessor } from './payments/payout-processor.ts';
import { startOAuthSweeper } from './oauth/sweeper.ts';
import type { SigningKeys } from './oauth/keys.ts';
import { createIdempotencyStore, type IdempotencyStore } from './idempotency/store.ts';
import { createIdempotencyRetention, type IdempotencyRetention } from './idempotency/retention.ts';
import type { Dispatcher } from './webhooks/dispatcher.ts';
import { createWebhooks, type Webhooks } from './webhooks/index.ts';
import type { Resolve } from './webhooks/target-policy.ts';
import type { Audit } from './audit/index.ts';
import type { BackchannelLogout } from './oauth/backchannel-logout.ts';

export interface BackgroundWork {
  name: string;
  /** Stops within `timeoutMs`; resolves with what had to be abandoned, said for the log, if anything. */
  stop(timeoutMs: number): Promise<string | undefined>;
}

/** The capabilities whose work runs in the background. */
export interface BackgroundServices {
  payoutProcessor: PayoutProcessor;
  idempotencyStore: IdempotencyStore;
  idempotency: IdempotencyRetention;
  webhooks: Webhooks;
}

/**
 * Builds the capabilities the background work runs, from `config` and the process's
 * dependencies: the same for `serve` and `gatehouse worker`.
 */
export async function createBackgroundServices(deps: {
  config: Config;
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  metrics: MetricsRegistry;
  /** The process's secrets key, loaded once (platform/secrets-key.ts). */
  secretsKey: Buffer;
  /** Name resolution for webhook receiver hosts; the system resolver unless replaced. */
  resolve?: Resolve | undefined;
}): Promise<BackgroundServices> {
  const { config, database, clock, log, metrics, secretsKey } = deps;
  const { db, dialect } = database;
  const idempotencyStore = createIdempotencyStore({ db, dialect });
  return {
    payoutProcessor: createPayoutProcessor({ db, clock, dialect, metrics }),
    idempotencyStore,
    idempotency: createIdempotencyRetention({ store: idempotencyStore, clock }),
    webhooks: await createWebhooks({ config, db, clock, log, secretsKey, resolve: deps.resolve, metrics }),
  };
}

export interface BackgroundDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  services: Pick<BackgroundServices, 'payoutProcessor' | 'idempotency' | 'webhooks'>;
  /** The audit trail's sealer (every process) and retention sweep (with the workers). */
  audit?: Audit;
  /** Sends the logout tokens OpenID Connect sign-outs queued (with the workers). */
  backchannelLogout?: BackchannelLogout;
  /** The server's keys, whose retired secrets the OAuth sweep drops (with the workers). */
  signingKeys: Pick<SigningKeys, 'expireRetired'>;
}

/**
 * Starts the idempotency sweep and the audit sealer and, with `workers`, the payout processor,
 * the OAuth sweep, the audit retention sweep, back-channel logout delivery and the webhook
 * dispatcher: what is sent to other parties goes out from the processes that run the workers.
 * The dispatcher's stop is always among the parts returned: it also closes the connections of
 * attempts made on demand (`runDue`).
 */
export async function startBackgroundWork(deps: BackgroundDeps, options: { workers: boolean }): Promise<BackgroundWork[]> {
  const { db, clock, log } = deps;
  const { payoutProcessor, idempotency, webhooks } = deps.services;
  const { dispatcher } = webhooks;
  const work: BackgroundWork[] = [
    stopsWithin(
      'idempotency sweep',
      idempotency.start({
        intervalMs: 60_000,
        onError: (error) => log.warn({ err: error }, 'idempotency sweep failed; retrying on the next tick'),
      }),
      'a sweep still running was abandoned (its deletes are repeated by the next sweep)',
    ),
  ];
  if (deps.audit) {
    // Every node seals: sealers of one account take turns on its chain head (audit/sealer.ts).
    work.push(
      stopsWithin(
        'audit sealer',
        deps.audit.sealer.start({ intervalMs: 1000, onError: (error) => log.warn({ err: error }, 'audit sealing failed; retrying on the next tick') }),
        'a round still running was abandoned (its transaction rolls back; the records are sealed by the next round)',
      ),
    );
  }
  if (options.workers) {
    work.push(
      stopsWithin(
        'payout processor',
        startPayoutProcessor({ processor: payoutProcessor, intervalMs: 1000, log: log.child({ worker: 'payouts' }) }),
        'a batch still running was abandoned (its transaction commits or rolls back whole; what it did not pay stays pending)',
      ),
      stopsWithin('OAuth sweep', startOAuthSweeper({ db, keys: deps.signingKeys, clock, log }), 'a sweep still running was abandoned (the next sweep repeats it)'),
    );
    if (deps.backchannelLogout) {
      // Rows are claimed with a lease, so any number of processes may send; none sends one twice at once.
      work.push(
        stopsWithin('back-channel logout', deps.backchannelLogout.start(), 'a run still sending was abandoned (its lease expires and it is sent again)'),
      );
    }
    if (deps.audit) {
      work.push(
        stopsWithin(
          'audit retention sweep',
          deps.audit.retention.start({ intervalMs: 3600_000, onError: (error) => log.warn({ err: error }, 'audit retention sweep failed; retrying on the next tick') }),
          'a sweep still running was abandoned (its batch rolls back whole; the next sweep repeats it)',
        ),
      );
    }
    try {
      await dispatcher.start();
    } catch (error) {
      // A start that fails leaves nothing running.
      await stopBackgroundWork(work, 0);
      throw error;
    }
  }
  work.push(dispatcherWork(dispatcher));
  return work;
}

/** Stops every part at once; resolves with what was abandoned. A part whose stop fails counts as abandoned. */
export async function stopBackgroundWork(work: readonly BackgroundWork[], timeoutMs: number): Promise<string[]> {
  const results = await Promise.all(
    work.map((part) =>
      part.stop(Math.max(0, timeoutMs)).catch((error: unknown) => `${part.name}: stopping failed (${error instanceof Error ? error.message : String(error)})`),
    ),
  );
  return results.filter((r): r is string => r !== undefined);
}

/** Work whose stop waits for what it is doing: waited for until the timeout, then abandoned as `leftBehind` says. */
function stopsWithin(name: string, stop: () => Promise<void>, leftBehind: string): BackgroundWork {
  return {
    name,
    async stop(timeoutMs) {
      return (await settlesWithin(stop(), timeoutMs)) ? undefined : `${name}: ${leftBehind}`;
    },
  };
}

function dispatcherWork(dispatcher: Dispatcher): BackgroundWork {
  return {
    name: 'webhook dispatcher',
    async stop(timeoutMs) {
      const { abandoned } = await dispatcher.stop({ timeoutMs });
      return abandoned === 0
        ? undefined
        : `webhook dispatcher: ${abandoned} attempts in flight were abandoned unrecorded (their leases expire and they are attempted again)`;
    },
  };
}
