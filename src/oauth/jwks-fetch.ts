/**
 * A client's keys from its `jwks_uri` (RFC 7591 §2), so a private_key_jwt client rotates its
 * keys by publishing new ones, without a new client_id.
 *
 * The fetch goes through the webhooks' outbound guard (target-policy.ts: only globally
 * routable addresses unless the operator allows more, checked again at connect time against
 * DNS rebinding), is bounded in time (GATEHOUSE_WEBHOOK_TIMEOUT, for the whole exchange: a server
 * that trickles its answer is cut off at the deadline, not only one that falls silent) and in size
 * (64 KiB), never follows a redirect, and keeps private key members out. A set is cached for
 * `ttlMs`; an assertion whose `kid` the cached set lacks refetches at once, at most every
 * `minRefreshMs` per URI, so a stranger's made-up kids cannot turn Gatehouse into a request
 * generator: assertions arriving while a fetch is under way wait for that one, and a URI whose
 * fetch failed is not tried again within `minRefreshMs` either.
 */
import { Agent } from 'undici';
import type { JSONWebKeySet } from 'jose';
import type { Clock } from '../platform/clock.ts';
import type { TargetPolicy } from '../webhooks/target-policy.ts';
import { createTargets } from '../webhooks/attempt.ts';

const MAX_BYTES = 64 * 1024;
const MAX_ENTRIES = 1000;
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

export class JwksUnavailable extends Error {}

export function createRemoteJwks(deps: { policy: TargetPolicy; clock: Clock; timeoutMs: number; ttlMs?: number; minRefreshMs?: number }) {
  const { clock } = deps;
  const ttlMs = deps.ttlMs ?? 5 * 60_000;
  const minRefreshMs = deps.minRefreshMs ?? 10_000;
  const agent = new Agent({ connect: { lookup: deps.policy.guardedLookup, timeout: deps.timeoutMs }, connections: 2, keepAliveTimeout: 5_000 });
  const targets = createTargets(deps.policy);
  const cache = new Map<string, { jwks: JSONWebKeySet; fetchedAt: number }>();
  const underWay = new Map<string, Promise<JSONWebKeySet>>();
  const failures = new Map<string, { error: JwksUnavailable; at: number }>();

  async function download(uri: string): Promise<JSONWebKeySet> {
    let target;
    try {
      target = targets.of(uri);
    } catch (error) {
      throw new JwksUnavailable(`jwks_uri refused: ${(error as Error).message}`);
    }
    let text = '';
    try {
      const response = await agent.request({
        origin: target.origin,
        path: target.path,
        method: 'GET',
        headers: { accept: 'application/json' },
        headersTimeout: deps.timeoutMs,
        bodyTimeout: deps.timeoutMs,
        signal: AbortSignal.timeout(deps.timeoutMs),
      });
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new JwksUnavailable(`jwks_uri answered ${response.statusCode}`);
      }
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BYTES) {
          response.body.destroy();
          throw new JwksUnavailable(`jwks_uri answered more than ${MAX_BYTES} bytes`);
        }
        text += (chunk as Buffer).toString('utf8');
      }
    } catch (error) {
      if (error instanceof JwksUnavailable) throw error;
      if ((error as Error).name === 'TimeoutError') throw new JwksUnavailable(`jwks_uri gave no complete answer within ${deps.timeoutMs} ms`);
      throw new JwksUnavailable(`jwks_uri could not be fetched: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new JwksUnavailable('jwks_uri did not answer JSON');
    }
    const keys = (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(keys)) throw new JwksUnavailable('jwks_uri did not answer a JWK Set');
    const publicKeys = keys.filter((k): k is Record<string, unknown> => typeof k === 'object' && k !== null && typeof (k as { kty?: unknown }).kty === 'string' && !PRIVATE_MEMBERS.some((m) => m in k));
    return { keys: publicKeys } as JSONWebKeySet;
  }

  return {
    /** The set at `uri`: cached, or fetched when stale, or when `refresh` and the cache is older than minRefreshMs. */
    async get(uri: string, options: { refresh?: boolean } = {}): Promise<JSONWebKeySet> {
      const now = clock.now();
      const hit = cache.get(uri);
      const fresh = hit && now - hit.fetchedAt < ttlMs;
      const mayRefresh = !hit || now - hit.fetchedAt >= minRefreshMs;
      if (hit && fresh && !(options.refresh && mayRefresh)) return hit.jwks;
      const pending = underWay.get(uri);
      if (pending) return pending;
      const failed = failures.get(uri);
      if (failed && now - failed.at < minRefreshMs) {
        if (hit && fresh) return hit.jwks;
        throw failed.error;
      }
      const fetched = download(uri).then(
        (jwks) => {
          failures.delete(uri);
          if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
          cache.set(uri, { jwks, fetchedAt: now });
          return jwks;
        },
        (error: unknown) => {
          if (error instanceof JwksUnavailable) {
            if (failures.size >= MAX_ENTRIES) failures.delete(failures.keys().next().value!);
            failures.set(uri, { error, at: now });
          }
          throw error;
        },
      );
      underWay.set(uri, fetched);
      try {
        return await fetched;
      } finally {
        underWay.delete(uri);
      }
    },
    close: () => agent.close(),
  };
}

export type RemoteJwks = ReturnType<typeof createRemoteJwks>;
