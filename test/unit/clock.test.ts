import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { toRfc3339 } from '../../src/platform/clock.ts';

describe('toRfc3339', () => {
  it('writes every whole millisecond from 1970 to 9999 exactly as Date#toISOString', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        assert.equal(toRfc3339(ms), new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('is exact at the edges of days, leap days, centuries and the four-digit years', () => {
    const edges = [
      0, 1, 999, 1000, 86_399_999, 86_400_000, Date.UTC(2000, 1, 28, 23, 59, 59, 999), Date.UTC(2000, 1, 29), Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 23, 59, 59, 999), Date.UTC(2100, 2, 1), Date.UTC(2024, 11, 31, 23, 59, 59, 999), Date.UTC(2025, 0, 1),
      253_402_300_799_999,
    ];
    for (const ms of edges) assert.equal(toRfc3339(ms), new Date(ms).toISOString(), String(ms));
  });

  it('leaves instants outside 1970-9999 and fractional milliseconds to Date', () => {
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 1.5]) assert.equal(toRfc3339(ms), new Date(ms).toISOString());
    assert.throws(() => toRfc3339(Number.NaN), RangeError);
  });
});
