/** toRfc3339 writes exactly what Date#toISOString writes, for every instant. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toRfc3339 } from '../../src/platform/clock.ts';

const YEAR_10000_MS = Date.UTC(10000, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

describe('platform: RFC 3339 instants', () => {
  it('edges of days, months, leap years, centuries and the supported range', () => {
    const instants = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(1972, 1, 29, 23, 59, 59, 999), // leap day
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 12), // a leap 400th year
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 23, 59, 59, 999), // 2100 is not leap
      Date.UTC(2100, 2, 1),
      Date.UTC(2400, 1, 29),
      Date.UTC(2030, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      YEAR_10000_MS - 1,
    ];
    for (const ms of instants) assert.equal(toRfc3339(ms), iso(ms), String(ms));
  });

  it('any millisecond from 1970 to 9999', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: YEAR_10000_MS - 1 }), (ms) => toRfc3339(ms) === iso(ms)), { numRuns: 20_000 });
  });

  it('instants outside that range, and fractional milliseconds, read as toISOString reads them', () => {
    for (const ms of [-1, -86_400_001, Date.UTC(1, 0, 1), YEAR_10000_MS, YEAR_10000_MS + 1, 8.64e15, 1.5, 1_700_000_000_000.25]) {
      assert.equal(toRfc3339(ms), iso(ms), String(ms));
    }
    assert.throws(() => toRfc3339(Number.NaN), RangeError);
  });
});
