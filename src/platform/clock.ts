/**
 * Time as a dependency. Every expiry (codes, tokens, idempotency records, webhook schedules)
 * reads the clock it was given, so tests move time instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface TestClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function createTestClock(start = Date.UTC(2030, 0, 1)): TestClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

/** RFC 3339 instant in UTC with millisecond precision. */
export function toRfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
