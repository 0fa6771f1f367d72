/**
 * When to try again (interface "Events" rule 4: exponential with a bounded ceiling and a fixed
 * give-up point, then parked). The delays come from GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: the n-th
 * failure of a cycle waits the n-th delay (±10% jitter, so receivers coming back are not hit
 * by every sender at once); a failure beyond the last delay parks the delivery. A receiver's
 * Retry-After (429/503) is honoured when it asks for longer, up to the ceiling.
 */
export const RETRY_CEILING_MS = 24 * 3600 * 1000;

export type NextStep = { kind: 'retry'; at: number } | { kind: 'park' };

export function nextStep(input: {
  /** Failures in this cycle, counting the one just seen. */
  failures: number;
  scheduleSeconds: readonly number[];
  now: number;
  retryAfterMs?: number;
  random?: () => number;
}): NextStep {
  const delaySeconds = input.scheduleSeconds[input.failures - 1];
  if (delaySeconds === undefined) return { kind: 'park' };
  const random = input.random ?? Math.random;
  const jittered = delaySeconds * 1000 * (0.9 + 0.2 * random());
  const wait = Math.min(Math.max(jittered, input.retryAfterMs ?? 0), RETRY_CEILING_MS);
  return { kind: 'retry', at: input.now + Math.round(wait) };
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
