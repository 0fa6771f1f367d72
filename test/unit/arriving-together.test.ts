/**
 * Lookups that arrive together (platform/db/arriving-together.ts): those asked for in one round
 * of the event loop share one fetch, each gets the answer for its own item, and a failure
 * reaches every lookup of its batch and no other.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lookedUpTogether } from '../../src/platform/db/arriving-together.ts';

/** A fetch that records each batch it is given and answers an item with its double. */
function doubling() {
  const batches: number[][] = [];
  const fetch = async (batch: readonly number[]) => {
    batches.push([...batch]);
    return (item: number) => item * 2;
  };
  return { batches, fetch };
}

describe('lookedUpTogether', () => {
  it('lookups asked for in one turn share one fetch; each resolves with its own answer', async () => {
    const { batches, fetch } = doubling();
    const lookup = lookedUpTogether(fetch, 64);
    assert.deepEqual(await Promise.all([1, 2, 3, 2].map(lookup)), [2, 4, 6, 4]);
    assert.deepEqual(batches, [[1, 2, 3, 2]]);
  });

  it('lookups of separate turns go in separate fetches', async () => {
    const { batches, fetch } = doubling();
    const lookup = lookedUpTogether(fetch, 64);
    assert.equal(await lookup(5), 10);
    assert.equal(await lookup(6), 12);
    assert.deepEqual(batches, [[5], [6]]);
  });

  it('at most `max` share a fetch: the rest follow in the next', async () => {
    const { batches, fetch } = doubling();
    const lookup = lookedUpTogether(fetch, 2);
    assert.deepEqual(await Promise.all([1, 2, 3, 4, 5].map(lookup)), [2, 4, 6, 8, 10]);
    assert.deepEqual(batches, [[1, 2], [3, 4], [5]]);
  });

  it('a failed fetch fails every lookup of its batch with its error, and the next batch is fetched afresh', async () => {
    let calls = 0;
    const lookup = lookedUpTogether(async (_batch: readonly string[]) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return (item: string) => item.toUpperCase();
    }, 64);
    const outcomes = await Promise.allSettled(['a', 'b'].map(lookup));
    assert.deepEqual(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message), ['connection lost', 'connection lost']);
    assert.equal(await lookup('c'), 'C');
  });

  it('an answer that throws for one item fails that lookup only', async () => {
    const lookup = lookedUpTogether(async () => (item: number) => {
      if (item < 0) throw new RangeError(`no answer for ${item}`);
      return item + 1;
    }, 64);
    const outcomes = await Promise.allSettled([1, -1, 2].map(lookup));
    assert.deepEqual(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)), [2, 'no answer for -1', 3]);
  });
});
