/**
 * The dispatcher: claims due deliveries with a lease, signs the exact stored bytes, POSTs
 * them, and records the outcomes in batches. It runs inside `serve` (in-process workers) or
 * in `gatehouse worker`; any number may share a database.
 *
 * It wakes on commit (see wake.ts), on the next due time, when a slot frees up, and on a
 * slow fallback poll (which also picks up leases left by dead workers). Concurrency is
 * bounded per worker and per endpoint, so one slow receiver cannot take every slot.
 *
 * Stopping is bounded: claimed deliveries not yet attempted are released at once (any worker
 * may take them), attempts in flight are waited for and recorded until the stop's timeout, and
 * those still unanswered then are abandoned unrecorded. Those keep their leases, since their
 * receivers may still be handling them; once a lease expires the delivery is attempted again.
 */
import { Agent } from 'undici';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, type Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { newTimeOrderedId, randomBase62 } from '../platform/ids.ts';
import type { Sealer } from './secrets.ts';
import type { TargetPolicy } from './target-policy.ts';
import { signatureHeaders, signingKey, type SigningKey } from './signer.ts';
import { createTargets, postOnce } from './attempt.ts';
import { openHeaders, type EndpointHeaders } from './endpoint-headers.ts';
import { claimDue, type ClaimedDelivery } from './claims.ts';
import { recordOutcomes, type Outcome, type OutcomeNotice } from './outcomes.ts';
import { listenForDeliveries } from './wake.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';
import { logEvent } from '../platform/log-events.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { settlesWithin } from '../platform/deadline.ts';

const CLAIM_BATCH = 256;
/** Rounds of an endpoint's attempts a claimed delivery's lease covers before its own. */
const LEASE_ROUNDS = 16;
/**
 * Rounds of an endpoint's attempts held in hand. Deeper than the lease covers when every
 * attempt times out: only then does a delivery wait that long, and the guard in `pump` lets it go
 * unattempted rather than start it after its lease could run out.
 */
const PREFETCH = 32;
/** Time the lease keeps beyond an attempt's timeout, for its outcome to be recorded. */
const RECORD_MARGIN_MS = 1000;
const SATURATED_RECHECK_MS = 100;
const RECORD_BATCH = 256;
const RECORD_DELAY_MS = 25;
/** Wait before writing again outcomes the database could not take (it is away or restarting). */
const RECORD_RETRY_MS = 500;

export interface DispatcherOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  sealer: Sealer;
  policy: TargetPolicy;
  databaseUrl: string;
  scheduleSeconds: readonly number[];
  timeoutMs: number;
  disableAfterMs: number;
  maxInFlight?: number;
  perEndpoint?: number;
  pollMs?: number;
  /** Where attempts are counted by outcome. */
  metrics?: MetricsRegistry;
}

export interface DispatcherStopped {
  /** Claimed deliveries released unattempted. */
  released: number;
  /** Attempts in flight (or awaiting their record) given up at the timeout. */
  abandoned: number;
}

export interface Dispatcher {
  /** Starts the loop; resolves once it listens for commits. */
  start(): Promise<void>;
  /**
   * Stops claiming, releases claimed deliveries not yet attempted, lets attempts in flight
   * finish and records them; with `timeoutMs`, gives up on what is still running by then.
   */
  stop(options?: { timeoutMs?: number }): Promise<DispatcherStopped>;
  /** Delivers everything due now and records it; returns the number of attempts made. */
  runDue(): Promise<number>;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, clock, log, sealer, policy } = options;
  const maxInFlight = options.maxInFlight ?? 512;
  const perEndpoint = options.perEndpoint ?? 16;
  const pollMs = options.pollMs ?? 1000;
  // Long enough for the attempt and the recording of its outcome, after waiting behind up to
  // LEASE_ROUNDS rounds of the endpoint's other attempts; short enough to recover fast.
  const leaseMs = (LEASE_ROUNDS + 1) * options.timeoutMs + RECORD_MARGIN_MS;
  const topUpBelow = (PREFETCH * perEndpoint) / 2;
  const worker = `wkr_${randomBase62(12)}`;
  const attempts = options.metrics?.counter('gatehouse_webhook_attempts_total', 'Webhook delivery attempts recorded by this process, by outcome', ['outcome']);
  const agent = new Agent({
    connect: { lookup: policy.guardedLookup, timeout: options.timeoutMs },
    connections: perEndpoint,
    keepAliveTimeout: 10_000,
  });
  const targets = createTargets(policy);

  // Claimed deliveries not yet finished (queued or being sent), in total and per endpoint.
  let claimedCount = 0;
  const endpointLoad = new Map<string, number>();
  // Claimed deliveries wait here until their endpoint has a free slot.
  const waiting = new Map<string, ClaimedDelivery[]>();
  const sending = new Map<string, number>();
  // Attempts started whose outcome is not yet written, and who waits for there to be none.
  let unrecorded = 0;
  let allRecorded: Array<() => void> = [];
  const queue: Outcome[] = [];
  let flushing: Promise<void> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  // Until when recording waits, after the database could not take a batch.
  let recordAgainAt = 0;
  let claims = 0;

  let running = false;
  let stopping = false;
  // Set once a stop has given up on the attempts in flight: their outcomes are no longer recorded.
  let abandoned = false;
  let claiming: Promise<void> | undefined;
  let stopped: Promise<DispatcherStopped> | undefined;
  let filling = false;
  let saturated = false;
  let lastScanPastFull = -Infinity;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  /**
   * Claims up to PREFETCH times an endpoint's bound, so the next attempts are ready when a
   * slot frees; an endpoint is topped up once half of that has drained: one claim per batch of
   * attempts, not one per attempt, and large claims, since on PostgreSQL each claim is planned
   * afresh; the half still in hand outlasts a claim's round trip. Looking past full endpoints means reading their
   * backlog, so that is done at most every SATURATED_RECHECK_MS.
   */
  async function fill(): Promise<{ claimed: number; room: number; skipped: number }> {
    const room = Math.min(maxInFlight - claimedCount, CLAIM_BATCH);
    const full = [...endpointLoad].filter(([, n]) => n >= topUpBelow).map(([id]) => id);
    if (room <= 0) return { claimed: 0, room: 0, skipped: full.length };
    if (full.length > 0) {
      if (performance.now() - lastScanPastFull < SATURATED_RECHECK_MS) return { claimed: 0, room, skipped: full.length };
      lastScanPastFull = performance.now();
    }
    const claimed = await claimDue(db, {
      claim: `${worker}.${++claims}`,
      now: clock.now(),
      leaseMs,
      max: room,
      room: { of: new Map([...endpointLoad].map(([id, n]) => [id, PREFETCH * perEndpoint - n])), otherwise: PREFETCH * perEndpoint },
      skipEndpoints: full,
    });
    for (const delivery of claimed) begin(delivery);
    return { claimed: claimed.length, room, skipped: full.length };
  }

  function begin(delivery: ClaimedDelivery): void {
    claimedCount++;
    endpointLoad.set(delivery.endpointId, (endpointLoad.get(delivery.endpointId) ?? 0) + 1);
    const list = waiting.get(delivery.endpointId) ?? [];
    list.push(delivery);
    waiting.set(delivery.endpointId, list);
    pump(delivery.endpointId);
  }

  /**
   * Starts waiting attempts of one endpoint while it has free slots. A delivery whose lease could
   * run out before its attempt is over and recorded is let go unattempted: once the lease expires
   * it is claimed again (by any worker), never attempted by two at once.
   */
  function pump(endpointId: string): void {
    // A stopping worker starts nothing more; what it holds unattempted is released (stop).
    if (stopping) return;
    const list = waiting.get(endpointId);
    while (list && list.length > 0 && (sending.get(endpointId) ?? 0) < perEndpoint) {
      const delivery = list.shift()!;
      if (delivery.leaseUntil - clock.now() < options.timeoutMs + RECORD_MARGIN_MS) {
        letGo(endpointId);
        continue;
      }
      sending.set(endpointId, (sending.get(endpointId) ?? 0) + 1);
      unrecorded++;
      void attempt(delivery).then(
        (outcome) => {
          finish(endpointId);
          enqueue(outcome);
        },
        (error: unknown) => {
          finish(endpointId);
          recorded(1);
          log.error({ err: error, delivery: delivery.id }, 'webhook attempt failed unexpectedly; the lease will expire');
        },
      );
    }
    if (list && list.length === 0) waiting.delete(endpointId);
  }

  function finish(endpointId: string): void {
    const active = (sending.get(endpointId) ?? 1) - 1;
    if (active <= 0) sending.delete(endpointId);
    else sending.set(endpointId, active);
    letGo(endpointId);
    pump(endpointId);
  }

  /** A claimed delivery of the endpoint is no longer in hand (attempted, or let go unattempted). */
  function letGo(endpointId: string): void {
    claimedCount--;
    const load = (endpointLoad.get(endpointId) ?? 1) - 1;
    if (load <= 0) endpointLoad.delete(endpointId);
    else endpointLoad.set(endpointId, load);
    if (load < topUpBelow) kick('release');
  }

  async function attempt(delivery: ClaimedDelivery): Promise<Outcome> {
    const attemptedAt = clock.now();
    // Attempt ids sort by time: the attempt log is written at the rate of deliveries.
    const attemptId = newTimeOrderedId('dlv', attemptedAt);
    const body = Buffer.from(delivery.payload);
    const signed = signatureHeaders({
      eventId: delivery.eventId,
      deliveryId: attemptId,
      eventType: delivery.eventType,
      body,
      raisedAt: delivery.raisedAt,
      attemptAt: attemptedAt,
      keys: keysOf(delivery, attemptedAt),
    });
    const own = ownHeadersOf(delivery);
    // The endpoint's own headers never share a name with a signed one (endpoint-headers.ts).
    const headers = own === undefined ? signed : { ...own, ...signed };
    const result = await postOnce({ agent, targets, url: delivery.url, headers, body, timeoutMs: options.timeoutMs });
    return { delivery, attemptId, attemptedAt, result };
  }

  // Each endpoint's own headers, opened once per sealed form (an update changes it).
  const ownHeaders = new Map<string, { sealed: string; headers: EndpointHeaders | undefined }>();
  function ownHeadersOf(delivery: ClaimedDelivery): EndpointHeaders | undefined {
    if (delivery.headersSealed === null) return undefined;
    let known = ownHeaders.get(delivery.endpointId);
    if (known?.sealed !== delivery.headersSealed) {
      if (ownHeaders.size >= 1000) ownHeaders.clear();
      known = { sealed: delivery.headersSealed, headers: openHeaders(sealer, delivery.endpointId, delivery.headersSealed) };
      ownHeaders.set(delivery.endpointId, known);
    }
    if (known.headers === undefined) throw new Error(`headers of ${delivery.endpointId} cannot be opened with the secrets key`);
    return known.headers;
  }

  // Signing keys per endpoint (opened and prepared once), each beside the sealed secret it
  // came from: a rotation changes the sealed form, so a replaced secret is never used again.
  const keys = new Map<string, Array<{ sealed: string; key: SigningKey | undefined }>>();
  function keyOf(sealed: string, endpointId: string): SigningKey | undefined {
    let known = keys.get(endpointId);
    const hit = known?.find((k) => k.sealed === sealed);
    if (hit) return hit.key;
    if (known === undefined) {
      if (keys.size >= 1000) keys.clear();
      known = [];
      keys.set(endpointId, known);
    }
    const secret = sealer.open(sealed, endpointId);
    const entry = { sealed, key: secret === undefined ? undefined : signingKey(secret) };
    // The current secret and, during a rotation's overlap, the previous one.
    known.unshift(entry);
    known.length = Math.min(known.length, 2);
    return entry.key;
  }

  function keysOf(delivery: ClaimedDelivery, now: number): SigningKey[] {
    const current = keyOf(delivery.secretSealed, delivery.endpointId);
    if (current === undefined) throw new Error(`secret of ${delivery.endpointId} cannot be opened with the secrets key`);
    const previous =
      delivery.previousSecretSealed && (delivery.previousSecretExpiresAt ?? 0) > now ? keyOf(delivery.previousSecretSealed, delivery.endpointId) : undefined;
    return previous ? [current, previous] : [current];
  }

  /**
   * Outcomes are recorded in batches: when a batch is full, when nothing else is in hand, or
   * RECORD_DELAY_MS after the oldest unrecorded one; outcomes finishing while a batch is being
   * written make up the next. The attempt's slot is free meanwhile (the receiver has answered),
   * and its lease still holds the delivery: a worker dying before the batch is written loses
   * only the record, and the delivery is attempted again once the lease runs out.
   */
  function enqueue(outcome: Outcome): void {
    if (abandoned) {
      recorded(1);
      return;
    }
    queue.push(outcome);
    scheduleFlush();
  }

  function scheduleFlush(): void {
    if (flushing) return;
    const backOff = recordAgainAt - performance.now();
    if (backOff > 0) flushTimer ??= setTimeout(startFlush, backOff);
    else if (queue.length >= RECORD_BATCH || claimedCount === 0) startFlush();
    else flushTimer ??= setTimeout(startFlush, RECORD_DELAY_MS);
  }

  function startFlush(): void {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    if (flushing) return;
    flushing = flush().finally(() => {
      flushing = undefined;
      // What finished while the batch was being written makes up the next one.
      if (queue.length > 0) scheduleFlush();
    });
  }

  async function flush(): Promise<void> {
    const batch = queue.splice(0, RECORD_BATCH);
    try {
      const notices = await recordOutcomes(db, batch, { scheduleSeconds: options.scheduleSeconds, disableAfterMs: options.disableAfterMs, now: () => clock.now() });
      logNotices(log, notices);
      const succeeded = batch.filter((outcome) => outcome.result.ok).length;
      if (succeeded > 0) attempts?.inc({ outcome: 'succeeded' }, succeeded);
      if (succeeded < batch.length) attempts?.inc({ outcome: 'failed' }, batch.length - succeeded);
      recorded(batch.length);
    } catch (error) {
      const kept = keptForRetry(batch, error);
      log.error(
        { err: error, attempts: batch.length, retrying: kept.length },
        kept.length > 0
          ? 'recording webhook attempts failed; writing them again shortly while their leases last'
          : 'recording webhook attempts failed; their leases will expire and they will be retried',
      );
      recorded(batch.length - kept.length);
      if (kept.length > 0) {
        queue.unshift(...kept);
        recordAgainAt = performance.now() + RECORD_RETRY_MS;
      }
    }
  }

  /**
   * Outcomes the database could not take because it is unavailable are written again once it
   * is back, while their leases hold them, rather than attempted again when the lease runs out
   * (a duplicate the receiver would see minutes later). Any other failure, or a lease too near
   * its end, gives them up: the delivery is attempted again, by any worker, after its lease.
   */
  function keptForRetry(batch: Outcome[], error: unknown): Outcome[] {
    if (abandoned || !isDatabaseUnavailable(error)) return [];
    const writableUntil = clock.now() + RECORD_RETRY_MS + RECORD_MARGIN_MS;
    return batch.filter((outcome) => outcome.delivery.leaseUntil > writableUntil);
  }

  /** `n` attempts are over: their outcomes written, or given up on (their leases will expire). */
  function recorded(n: number): void {
    unrecorded -= n;
    if (unrecorded > 0) return;
    const waiting = allRecorded;
    allRecorded = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Claims while there is room. Wake-ups coalesce: a kick during a claim only asks for one
   * more round. When every endpoint with due work is at its bound the worker is saturated:
   * commit signals are then ignored (a finishing attempt kicks anyway, and a short timer
   * looks for other endpoints' work), so a backlog is not rescanned on every commit.
   */
  function kick(reason: 'wake' | 'release' | 'timer' = 'timer'): void {
    if (!running) return;
    if (reason === 'release') saturated = false;
    if (reason === 'wake' && saturated) return;
    if (filling) {
      again = true;
      return;
    }
    filling = true;
    claiming = (async () => {
      try {
        do {
          again = false;
          const { claimed, room, skipped } = await fill();
          if (claimed === room && claimed > 0) again = true;
          saturated = claimed === 0 && skipped > 0;
        } while (again && running);
      } catch (error) {
        log.error({ err: error }, 'claiming webhook deliveries failed; retrying shortly');
      } finally {
        filling = false;
        if (running) await armTimer();
      }
    })();
  }

  /** Sleeps until the next delivery is due, at most `pollMs` (which also finds expired leases). */
  async function armTimer(): Promise<void> {
    let wait = pollMs;
    if (saturated) wait = SATURATED_RECHECK_MS;
    else if (claimedCount === 0) {
      try {
        const next = await db
          .selectFrom('webhook_queue')
          .select((eb) => eb.fn.min('next_attempt_at').as('due'))
          .where('lease_until', 'is', null)
          .executeTakeFirst();
        // Due but not claimed (another worker holds it): look again shortly, not in a loop.
        if (next?.due != null) wait = Math.min(pollMs, Math.max(SATURATED_RECHECK_MS, Number(next.due) - clock.now()));
      } catch {
        /* the poll will try again */
      }
    }
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => kick('timer'), wait);
  }

  /**
   * Hands back every claimed delivery not yet attempted: its lease is cleared (if still this
   * worker's), so any worker claims it at once instead of once the lease expires.
   */
  async function releaseWaiting(): Promise<number> {
    const held = [...waiting.values()].flat();
    waiting.clear();
    for (const delivery of held) letGo(delivery.endpointId);
    if (held.length === 0) return 0;
    try {
      const result = await db
        .updateTable('webhook_queue')
        .set({ lease_owner: null, lease_until: null })
        .where('delivery_id', 'in', held.map((d) => d.id))
        .where('lease_owner', 'in', [...new Set(held.map((d) => d.claim))])
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    } catch (error) {
      log.warn({ err: error, deliveries: held.length }, 'releasing claimed webhook deliveries failed; their leases will expire');
      return 0;
    }
  }

  async function settle(): Promise<void> {
    while (unrecorded > 0 || flushing) {
      if (unrecorded > 0) await new Promise<void>((resolve) => allRecorded.push(resolve));
      if (flushing) await flushing;
    }
  }

  async function stopWithin(timeoutMs: number | undefined): Promise<DispatcherStopped> {
    const deadline = performance.now() + (timeoutMs ?? 0);
    // Without a timeout, everything in flight is waited for.
    const within = (work: Promise<unknown>) => (timeoutMs === undefined ? work.then(() => true) : settlesWithin(work, deadline - performance.now()));
    stopping = true;
    running = false;
    clearTimeout(timer);
    // A claim under way hands what it took to `waiting`, to be released with the rest.
    await within(claiming ?? Promise.resolve());
    const released = await releaseWaiting();
    await unlisten?.();
    if (await within(settle())) {
      await agent.close();
      if (released > 0) log.info({ released }, `released ${released} claimed webhook deliveries not yet attempted`);
      return { released, abandoned: 0 };
    }
    const given = unrecorded;
    abandoned = true;
    // Ends the attempts still waiting for their receivers; their outcomes are not recorded.
    void agent.destroy().catch(() => {});
    log.warn(
      { released, abandoned: given },
      `abandoned ${given} webhook attempts still in flight at the shutdown timeout, unrecorded: their leases expire and they are attempted again`,
    );
    return { released, abandoned: given };
  }

  return {
    async start() {
      running = true;
      unlisten = await listenForDeliveries(db, {
        databaseUrl: options.databaseUrl,
        onWake: () => kick('wake'),
        onError: (error) => log.warn({ err: error }, 'webhook wake-up channel failed; polling until it is re-established'),
        onRestored: () => log.info('webhook wake-up channel re-established'),
      });
      kick('timer');
    },
    stop(options = {}) {
      stopped ??= stopWithin(options.timeoutMs);
      return stopped;
    },
    async runDue() {
      let total = 0;
      for (;;) {
        const { claimed } = await fill();
        await settle();
        total += claimed;
        if (claimed === 0) return total;
      }
    },
  };
}

/**
 * One line per failed attempt that moved its delivery on and per endpoint disabled, written
 * once the batch is committed. Ids, status and error only: the receiver's URL may carry
 * credentials and its answer is its own, so neither is logged (the attempt log keeps the answer).
 */
function logNotices(log: FastifyBaseLogger, notices: readonly OutcomeNotice[]): void {
  for (const notice of notices) {
    const { delivery, attemptId, result } = notice.outcome;
    const endpoint = { account_id: delivery.accountId, endpoint_id: delivery.endpointId };
    if (notice.kind === 'endpoint_disabled') {
      logEvent(
        log,
        'webhook.endpoint_disabled',
        { ...endpoint, reason: notice.reason, status: result.status, failing_since: notice.failingSince === null ? null : toRfc3339(notice.failingSince), parked: notice.parked },
        notice.reason === 'gone' ? 'webhook endpoint disabled: the receiver answered 410 Gone' : 'webhook endpoint disabled: its deliveries have failed for too long',
      );
      continue;
    }
    const attempt = {
      ...endpoint,
      event_id: delivery.eventId,
      event_type: delivery.eventType,
      delivery_id: delivery.id,
      attempt_id: attemptId,
      status: result.status,
      error: result.error,
      failures: notice.failures,
    };
    if (notice.kind === 'retrying') {
      logEvent(log, 'webhook.delivery_failed', { ...attempt, retry_at: toRfc3339(notice.retryAt) }, 'webhook delivery failed; it will be retried');
    } else {
      logEvent(log, 'webhook.delivery_parked', { ...attempt, reason: notice.reason }, 'webhook delivery parked; it is sent again only when recovered or redelivered');
    }
  }
}
