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

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from there on toISOString writes six-digit years. */
const YEAR_10000_MS = 253_402_300_800_000;

/**
 * RFC 3339 instant in UTC with millisecond precision, exactly as `Date#toISOString` writes it.
 * Lists render two or three instants per row and toISOString costs a few microseconds each, so
 * instants from 1970 to 9999 are written from the date's civil fields computed by integer
 * arithmetic (H. Hinnant's days-to-civil for the proleptic Gregorian calendar); others, and
 * anything not a whole number of milliseconds, go through toISOString.
 */
export function toRfc3339(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  const { year, month, day } = civilFromDays(days);
  let rest = ms - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

/** Year, month (1-12) and day of month of a count of days since 1970-01-01 (days ≥ 0). */
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097); // 400-year eras
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100)); // from March 1st
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}
