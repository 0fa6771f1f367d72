/** Ids (platform/ids.ts): their shape, their order by time, and their randomness. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasPrefix, newId, newTimeOrderedId, randomBase62 } from '../../src/platform/ids.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('ids', () => {
  it('a time-ordered id: 8 characters of the time in base62, then 12 random; later ids sort after', () => {
    const at = Date.UTC(2026, 10, 28, 3, 0, 0, 123);
    const id = newTimeOrderedId('at', at);
    assert.match(id, /^at_[0-9A-Za-z]{20}$/);
    assert.ok(hasPrefix(id, 'at'));
    const time = [...id.slice(3, 11)].reduce((n, c) => n * 62 + ALPHABET.indexOf(c), 0);
    assert.equal(time, at);
    const ids = [0, 1, 61, 62, 3843, at, at + 1, 62 ** 8 - 1].map((t) => newTimeOrderedId('x', t));
    assert.deepEqual([...ids].sort(), ids, 'sorted by time as text');
    assert.equal(newTimeOrderedId('x', 0).slice(2, 10), '00000000');
  });

  it('random ids: unique, every character of the alphabet in use, any length', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const id = newId('usr');
      assert.match(id, /^usr_[0-9A-Za-z]{20}$/);
      seen.add(id);
      for (const c of id.slice(4)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    assert.equal(seen.size, 20_000);
    assert.equal(counts.size, 62);
    // 400,000 characters over 62: about 6,450 each; rejection sampling keeps them even.
    for (const [c, n] of counts) assert.ok(n > 5_800 && n < 7_100, `${c}: ${n}`);
    assert.match(randomBase62(100), /^[0-9A-Za-z]{100}$/);
    assert.notEqual(randomBase62(12), randomBase62(12));
  });
});
