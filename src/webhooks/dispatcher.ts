/**
 * The dispatcher: claims due deliveries with a lease, signs the exact stored bytes, POSTs
 * them, and records the outcomes in batches. It runs inside `serve` (in-process workers) or
 * in `gatehouse worker`; any number may share a database.
 *
 * It wakes on commit (see wake.ts), on the next due time, when a slot frees up, and on a
 * slow fallback poll (which also picks up leases left by dead workers). Concurrency is
 * bounded per worker and per endpoint (endpoint-slots.ts), so one slow receiver cannot take
 * every slot. Its parts: the queue (queue.ts: claim, release, next due), the slots, the
 * endpoints' opened credentials (credentials.ts), and the recorder of outcomes
 * (outcome-recorder.ts); what is here is the loop that drives them.
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
import { signatureHeaders } from './signer.ts';
import { createTargets, credentialsSent, postOnce, withoutEchoes } from './attempt.ts';
import { claimDue, nextDueAt, releaseClaims, type ClaimedDelivery } from './queue.ts';
import type { Outcome } from './outcomes.ts';
import { createEndpointSlots } from './endpoint-slots.ts';
import { createCredentials } from './credentials.ts';
import { createOutcomeRecorder, outcomeWriter, RECORD_MARGIN_MS } from './outcome-recorder.ts';
import { listenForDeliveries } from './wake.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';
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
const SATURATED_RECHECK_MS = 100;

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
  const { db, clock, log, policy } = options;
  const maxInFlight = options.maxInFlight ?? 512;
  const perEndpoint = options.perEndpoint ?? 16;
  const pollMs = options.pollMs ?? 1000;
  // Long enough for the attempt and the recording of its outcome, after waiting behind up to
  // LEASE_ROUNDS rounds of the endpoint's other attempts; short enough to recover fast.
  const leaseMs = (LEASE_ROUNDS + 1) * options.timeoutMs + RECORD_MARGIN_MS;
  const worker = `wkr_${randomBase62(12)}`;
  const agent = new Agent({
    connect: { lookup: policy.guardedLookup, timeout: options.timeoutMs },
    connections: perEndpoint,
    keepAliveTimeout: 10_000,
  });
  const targets = createTargets(policy);
  const credentials = createCredentials(options.sealer);
  const slots = createEndpointSlots<ClaimedDelivery>({ perEndpoint, prefetch: PREFETCH });
  const recorder = createOutcomeRecorder<Outcome>({
    write: outcomeWriter({
      db,
      log,
      policy: { scheduleSeconds: options.scheduleSeconds, disableAfterMs: options.disableAfterMs, now: () => clock.now() },
      attempts: options.metrics?.counter('gatehouse_webhook_attempts_total', 'Webhook delivery attempts recorded by this process, by outcome', ['outcome']),
    }),
    retryable: isDatabaseUnavailable,
    now: () => clock.now(),
    idle: () => slots.held === 0,
    log,
  });

  let claims = 0;
  let running = false;
  let stopping = false;
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
    const room = Math.min(maxInFlight - slots.held, CLAIM_BATCH);
    const full = slots.full();
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
      room: slots.room(),
      skipEndpoints: full,
    });
    for (const delivery of claimed) {
      slots.hold(delivery);
      pump(delivery.endpointId);
    }
    return { claimed: claimed.length, room, skipped: full.length };
  }

  /**
   * Starts waiting attempts of one endpoint while it has free slots. A delivery whose lease could
   * run out before its attempt is over and recorded is let go unattempted: once the lease expires
   * it is claimed again (by any worker), never attempted by two at once.
   */
  function pump(endpointId: string): void {
    // A stopping worker starts nothing more; what it holds unattempted is released (stop).
    if (stopping) return;
    for (let delivery = slots.next(endpointId); delivery !== undefined; delivery = slots.next(endpointId)) {
      if (delivery.leaseUntil - clock.now() < options.timeoutMs + RECORD_MARGIN_MS) {
        letGo(endpointId);
        continue;
      }
      slots.started(endpointId);
      recorder.expect();
      const claimed = delivery;
      void attempt(claimed).then(
        (outcome) => {
          finish(endpointId);
          recorder.add(outcome);
        },
        (error: unknown) => {
          finish(endpointId);
          recorder.lost();
          log.error({ err: error, delivery: claimed.id }, 'webhook attempt failed unexpectedly; the lease will expire');
        },
      );
    }
  }

  function finish(endpointId: string): void {
    slots.finished(endpointId);
    toppedUp(endpointId);
    pump(endpointId);
  }

  /** A claimed delivery of the endpoint is no longer in hand (let go unattempted). */
  function letGo(endpointId: string): void {
    slots.letGo(endpointId);
    toppedUp(endpointId);
  }

  /** An endpoint drained below its top-up mark is claimed for again. */
  function toppedUp(endpointId: string): void {
    if (slots.wantsMore(endpointId)) kick('release');
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
      keys: credentials.keysOf(delivery, attemptedAt),
    });
    const own = credentials.headersOf(delivery);
    // The endpoint's own headers never share a name with a signed one (endpoint-headers.ts).
    const headers = own === undefined ? signed : { ...own, ...signed };
    const result = await postOnce({ agent, targets, url: delivery.url, headers, body, timeoutMs: options.timeoutMs });
    if (result.excerpt !== null) result.excerpt = withoutEchoes(result.excerpt, credentialsSent(delivery.url, own));
    return { delivery, attemptId, attemptedAt, result };
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
    else if (slots.held === 0) {
      try {
        const due = await nextDueAt(db);
        // Due but not claimed (another worker holds it): look again shortly, not in a loop.
        if (due !== undefined) wait = Math.min(pollMs, Math.max(SATURATED_RECHECK_MS, due - clock.now()));
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
    const held = slots.takeWaiting();
    if (held.length === 0) return 0;
    try {
      return await releaseClaims(db, held);
    } catch (error) {
      log.warn({ err: error, deliveries: held.length }, 'releasing claimed webhook deliveries failed; their leases will expire');
      return 0;
    }
  }

  async function stopWithin(timeoutMs: number | undefined): Promise<DispatcherStopped> {
    const deadline = performance.now() + (timeoutMs ?? 0);
    // Without a timeout, everything in flight is waited for.
    const within = (work: Promise<unknown>) => (timeoutMs === undefined ? work.then(() => true) : settlesWithin(work, deadline - performance.now()));
    stopping = true;
    running = false;
    clearTimeout(timer);
    // A claim under way hands what it took to the slots, to be released with the rest.
    await within(claiming ?? Promise.resolve());
    const released = await releaseWaiting();
    await unlisten?.();
    if (await within(recorder.settle())) {
      await agent.close();
      if (released > 0) log.info({ released }, `released ${released} claimed webhook deliveries not yet attempted`);
      return { released, abandoned: 0 };
    }
    const given = recorder.abandon();
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
        onSignal: () => kick('wake'),
        onError: (error) => log.warn({ err: error }, 'webhook wake-up channel failed; polling until it is re-established'),
        onRestored: () => log.info('webhook wake-up channel re-established'),
      });
      kick('timer');
    },
    stop({ timeoutMs } = {}) {
      stopped ??= stopWithin(timeoutMs);
      return stopped;
    },
    async runDue() {
      let total = 0;
      for (;;) {
        const { claimed } = await fill();
        await recorder.settle();
        total += claimed;
        if (claimed === 0) return total;
      }
    },
  };
}
