/**
 * Rate limits for the token endpoint, sign-in and the API (draft-ietf-httpapi-ratelimit-headers).
 *
 * Fixed windows per key: the defaults let one credential burst about 100 requests at once, as
 * Stripe allows per account. In-process by default; with a Redis URL the counters live in
 * Redis so that the limits hold across nodes, and if Redis cannot be reached the in-process
 * limiter takes over (logged) rather than failing requests. Redis that does not answer is the
 * same as Redis that is gone: a command unanswered after the Redis timeout fails, the
 * in-process limiter counts from then on without asking Redis, and a ping every
 * REDIS_PROBE_MS finds when Redis answers again, so a frozen Redis delays requests by at most
 * one timeout. Limited responses carry
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` and `RateLimit-Policy`; a refusal
 * adds `Retry-After` and is thrown as `rate_limited` so that each protocol renders it its way.
 * Buckets of failures count only failed attempts: a caller `check`s before and `consume`s on
 * failure, or `consume`s before and `reward`s a success, so successes never spend them.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler, preParsingAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { problem } from './errors/catalogue.ts';
import type { Principal } from './auth.ts';
import type { MetricsRegistry } from './metrics.ts';

export interface Limit {
  points: number;
  seconds: number;
}

/**
 * `api`: API requests per client (see `principalKey`; per address without a credential);
 * `api_failure_ip`: API requests refused 401 or 403 per source address; `admin_failure_ip`: admin
 * API requests refused for their admin token, per source address. `token`: requests of an
 * authenticated client; `token_failure_ip` / `token_failure_client`: failed client
 * authentications per source address / per claimed client; `signin`: sign-in
 * attempts per userName; `signin_device`: the same from a browser that signed in as that userName
 * before (oauth/sign-in-devices.ts), per browser; `signin_ip`: failed sign-ins per source address
 * and account.
 */
export type Bucket = 'api' | 'api_failure_ip' | 'admin_failure_ip' | 'token' | 'token_failure_ip' | 'token_failure_client' | 'signin' | 'signin_device' | 'signin_ip';

export const DEFAULT_LIMITS: Record<Bucket, Limit> = {
  api: { points: 100, seconds: 1 },
  api_failure_ip: { points: 100, seconds: 60 },
  admin_failure_ip: { points: 20, seconds: 60 },
  token: { points: 100, seconds: 1 },
  token_failure_ip: { points: 30, seconds: 60 },
  token_failure_client: { points: 30, seconds: 60 },
  signin: { points: 10, seconds: 300 },
  signin_device: { points: 10, seconds: 300 },
  signin_ip: { points: 100, seconds: 300 },
};

/** How often Redis is asked whether it answers again while limits are counted in-process. */
const REDIS_PROBE_MS = 1000;
/** How long a Redis command may take by default before Redis counts as unreachable. */
export const DEFAULT_REDIS_TIMEOUT_MS = 250;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export interface RateLimits {
  readonly enabled: boolean;
  /** Counts one request against `key` in `bucket`. */
  consume(bucket: Bucket, key: string): Promise<RateDecision>;
  /** Throws `rate_limited` (429) when over the limit; returns the headers to send otherwise. */
  enforce(bucket: Bucket, key: string): Promise<Record<string, string>>;
  /** Whether `key` has room left in `bucket`, without counting anything (a refusal is counted as one). */
  check(bucket: Bucket, key: string): Promise<RateDecision>;
  /** Gives back one request counted against `key` (e.g. an attempt that turned out to succeed). */
  reward(bucket: Bucket, key: string): Promise<void>;
  /** Settles once the store first connects or fails (at most 2 s), so start-up does not count in-process by accident. */
  ready(): Promise<void>;
  /** Where requests are counted now: Redis, in process (no Redis configured, or Redis unreachable), or nowhere (limits off). */
  store(): 'redis' | 'in-process' | 'off';
  close(): Promise<void>;
}

function headersOf(limit: Limit, res: RateLimiterRes, allowed: boolean): Record<string, string> {
  const reset = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  const headers: Record<string, string> = {
    'ratelimit-limit': String(limit.points),
    'ratelimit-remaining': String(Math.max(0, res.remainingPoints)),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': `${limit.points};w=${limit.seconds}`,
  };
  if (!allowed) headers['retry-after'] = String(reset);
  return headers;
}

export function createRateLimits(options: {
  enabled: boolean;
  redisUrl?: string;
  /** Milliseconds a Redis command may take before Redis counts as unreachable. */
  redisTimeoutMs?: number;
  /** Prefix of the keys in Redis (and of the in-process keys). */
  keyPrefix?: string;
  limits?: Partial<Record<Bucket, Limit>>;
  log: FastifyBaseLogger;
  /** Where refusals are counted and the store in use is reported. */
  metrics?: MetricsRegistry;
}): RateLimits {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  if (!options.enabled) {
    return {
      enabled: false,
      consume: async () => ({ allowed: true, headers: {} }),
      enforce: async () => ({}),
      check: async () => ({ allowed: true, headers: {} }),
      reward: async () => {},
      ready: async () => {},
      store: () => 'off',
      close: async () => {},
    };
  }
  let redis: Redis | undefined;
  let settled: Promise<void> = Promise.resolve();
  // Whether counters are in Redis right now; the in-process limiter counts while they are not.
  let onRedis = false;
  let closing = false;
  let lostReported = false;
  let probe: NodeJS.Timeout | undefined;
  const fallBack = (reason: string) => {
    onRedis = false;
    if (closing) return;
    probeUntilRestored();
    if (lostReported) return;
    lostReported = true;
    options.log.warn({ err: reason }, 'rate limits: Redis unreachable, counting in-process until it returns');
  };
  const restored = () => {
    clearInterval(probe);
    probe = undefined;
    onRedis = true;
    if (lostReported) options.log.info('rate limits: Redis reachable again, counting in Redis');
    lostReported = false;
  };
  /**
   * A connection that stays open to a Redis that no longer answers (stopped, overloaded, cut
   * off without a reset) never becomes ready again, since it never closed: a ping tells when
   * Redis answers again.
   */
  function probeUntilRestored(): void {
    if (probe !== undefined || redis === undefined) return;
    const client = redis;
    probe = setInterval(() => {
      if (client.status !== 'ready') return;
      client.ping().then(
        () => {
          if (!closing && !onRedis) restored();
        },
        () => {},
      );
    }, REDIS_PROBE_MS);
    probe.unref();
  }
  if (options.redisUrl) {
    redis = new Redis(options.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: false,
      commandTimeout: options.redisTimeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS,
    });
    redis.on('error', (error: Error) => fallBack(error.message));
    redis.on('close', () => fallBack('connection closed'));
    redis.on('ready', restored);
    const client = redis;
    settled = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      client.once('ready', done);
      client.once('error', done);
    });
  }
  options.metrics?.gauge(
    'gatehouse_rate_limit_store',
    '1 for the store rate limits are counted in now: redis, or local (in-process) when Redis is not configured or unreachable',
    ['store'],
    (store) => {
      const redisNow = redis !== undefined && onRedis && redis.status === 'ready';
      store.set({ store: 'redis' }, redisNow ? 1 : 0);
      store.set({ store: 'local' }, redisNow ? 0 : 1);
    },
  );
  const rejections = options.metrics?.counter('gatehouse_rate_limit_rejections_total', 'Requests refused with 429 by a rate limit, by bucket', ['bucket']);
  // Each bucket counts in Redis when there is one, and in process memory while Redis is unreachable.
  const limiters = new Map<Bucket, { memory: RateLimiterAbstract; shared: RateLimiterAbstract | undefined }>();
  for (const [bucket, limit] of Object.entries(limits) as Array<[Bucket, Limit]>) {
    const keyPrefix = `${options.keyPrefix ?? 'gh_rl'}_${bucket}`;
    limiters.set(bucket, {
      memory: new RateLimiterMemory({ points: limit.points, duration: limit.seconds, keyPrefix }),
      shared: redis ? new RateLimiterRedis({ storeClient: redis, points: limit.points, duration: limit.seconds, keyPrefix }) : undefined,
    });
  }

  /**
   * Runs `use` on Redis while it answers; a failure (unreachable, or no answer within the
   * timeout) switches to counting in-process at once, for this request and the next ones. A
   * refusal is an answer, not a failure.
   */
  async function counted<T>(bucket: Bucket, use: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    const { memory, shared } = limiters.get(bucket)!;
    if (shared !== undefined && onRedis) {
      try {
        return await use(shared);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw error;
        fallBack(error instanceof Error ? error.message : String(error));
      }
    }
    return use(memory);
  }

  async function consume(bucket: Bucket, key: string): Promise<RateDecision> {
    const limit = limits[bucket];
    try {
      const res = await counted(bucket, (limiter) => limiter.consume(key, 1));
      return { allowed: true, headers: headersOf(limit, res, true) };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        rejections?.inc({ bucket });
        return { allowed: false, headers: headersOf(limit, rejection, false) };
      }
      // A store failure with no insurance left: let the request through rather than fail it.
      options.log.warn({ err: String(rejection) }, 'rate limit store failed; request allowed');
      return { allowed: true, headers: {} };
    }
  }

  async function check(bucket: Bucket, key: string): Promise<RateDecision> {
    const limit = limits[bucket];
    try {
      const res = await counted(bucket, (limiter) => limiter.get(key));
      if (res === null) return { allowed: true, headers: {} };
      const allowed = res.consumedPoints < limit.points;
      if (!allowed) rejections?.inc({ bucket });
      return { allowed, headers: headersOf(limit, res, allowed) };
    } catch (error) {
      options.log.warn({ err: String(error) }, 'rate limit store failed; request allowed');
      return { allowed: true, headers: {} };
    }
  }

  async function reward(bucket: Bucket, key: string): Promise<void> {
    try {
      await counted(bucket, (limiter) => limiter.reward(key, 1));
    } catch (error) {
      options.log.warn({ err: String(error) }, 'rate limit store failed; nothing given back');
    }
  }

  return {
    enabled: true,
    consume,
    check,
    reward,
    async enforce(bucket, key) {
      const decision = await consume(bucket, key);
      if (!decision.allowed) {
        throw problem('rate_limited', { detail: `Too many requests; retry after ${decision.headers['retry-after']} s`, headers: decision.headers });
      }
      return decision.headers;
    },
    ready: () => settled,
    store: () => (onRedis ? 'redis' : 'in-process'),
    async close() {
      closing = true;
      clearInterval(probe);
      if (redis) redis.disconnect();
    },
  };
}

/** The most addresses a node remembers as past their failures; more and the oldest are forgotten. */
const MAX_BLOCKED_ADDRESSES = 10_000;

/**
 * The budget an authenticated API request spends: its client's (a person's token: that client
 * acting for that person; a SCIM token: the token's). Not the token's own: a client could mint as
 * many tokens as it liked, each with a budget of its own.
 */
function principalKey(principal: Principal): string {
  if (principal.kind === 'scim_token') return `scim:${principal.tokenId}`;
  return principal.userId === null ? `client:${principal.clientId}` : `client:${principal.clientId}:user:${principal.userId}`;
}

/**
 * Addresses past their budget of failures in `bucket`. Each failure is counted where every limit
 * is (Redis when configured, so every node counts it); each node remembers the addresses it saw
 * go past, so the check on the path of every request asks nothing of the store.
 */
function failuresByAddress(limits: RateLimits, bucket: Bucket, refusedFor: string, now: () => number) {
  const blocked = new Map<string, { until: number; headers: Record<string, string> }>();

  function block(address: string, headers: Record<string, string>): void {
    if (blocked.size >= MAX_BLOCKED_ADDRESSES) {
      const at = now();
      for (const [key, entry] of blocked) if (entry.until <= at) blocked.delete(key);
      if (blocked.size >= MAX_BLOCKED_ADDRESSES) blocked.delete(blocked.keys().next().value!);
    }
    blocked.set(address, { until: now() + Number(headers['ratelimit-reset'] ?? 1) * 1000, headers });
  }

  /** The headers of a refusal while `address` is past its budget; undefined once its window ended. */
  function refused(address: string): Record<string, string> | undefined {
    const entry = blocked.get(address);
    if (entry === undefined) return undefined;
    const left = Math.ceil((entry.until - now()) / 1000);
    if (left <= 0) {
      blocked.delete(address);
      return undefined;
    }
    return { ...entry.headers, 'retry-after': String(left) };
  }

  async function count(address: string): Promise<void> {
    const decision = await limits.consume(bucket, `ip:${address}`);
    // The last failure the budget holds closes it: the next request waits rather than being verified.
    if (!decision.allowed || decision.headers['ratelimit-remaining'] === '0') block(address, decision.headers);
  }

  return {
    /**
     * The `onRequest` gate: an address past its budget is refused 429 before anything of it is
     * looked at. A plain callback: most requests pass straight through, and no promise is made for them.
     */
    gate(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
      const headers = refused(request.ip);
      if (headers) return done(problem('rate_limited', { detail: `Too many requests refused for their ${refusedFor}; retry after ${headers['retry-after']} s`, headers }));
      done();
    },
    /**
     * The `onSend` hook that counts each answer with one of `statuses` as a failure of its address.
     * Counted before the refusal is sent, not after: the caller's next request finds its address
     * closed once the budget is spent, however fast it comes (only a refusal waits for its count).
     */
    countRefusals(statuses: readonly number[]): onSendHookHandler {
      return (request, reply, payload, done) => {
        if (!statuses.includes(reply.statusCode)) return done(null, payload);
        count(request.ip).then(() => done(null, payload), (error: Error) => done(error));
      };
    },
  };
}

/**
 * The API limits as hooks of the plugin that holds the /v1 and SCIM routes (app.ts), so they are
 * attached to those routes and hold whatever spelling of the request target the router accepted.
 *
 * - `preParsing`, after the route's authentication and before its body is read: each request
 *   counts against its principal's budget (`api`, see `principalKey`), or its address's on a
 *   route that takes no credential.
 * - A request refused 401 or 403 never reaches it: `onSend` counts each against its address
 *   (`api_failure_ip`) before the refusal is sent, and an address past that budget is refused 429
 *   by `onRequest`, before its token is looked at, for the rest of the window (`failuresByAddress`).
 */
export function apiRequestLimits(
  limits: RateLimits,
  now: () => number = Date.now,
): { onRequest: onRequestHookHandler; preParsing: preParsingAsyncHookHandler; onSend: onSendHookHandler } {
  const failures = failuresByAddress(limits, 'api_failure_ip', 'credentials', now);
  return {
    onRequest: failures.gate,
    async preParsing(request, reply, payload) {
      const principal = request.principal;
      reply.headers(await limits.enforce('api', principal === undefined ? `ip:${request.ip}` : principalKey(principal)));
      return payload;
    },
    onSend: failures.countRefusals([401, 403]),
  };
}

/**
 * The limit on guessing the admin token, as hooks of the admin API plugin (admin/routes.ts): each
 * request refused 401 counts against its address (`admin_failure_ip`), and an address past that
 * budget is refused 429 by `onRequest`, added before the token check so the token it sent is never
 * compared, for the rest of the window. The operator's own requests never spend it.
 */
export function adminAuthenticationLimits(limits: RateLimits, now: () => number = Date.now): { onRequest: onRequestHookHandler; onSend: onSendHookHandler } {
  const failures = failuresByAddress(limits, 'admin_failure_ip', 'admin token', now);
  return {
    onRequest: failures.gate,
    onSend: failures.countRefusals([401]),
  };
}
