import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createKeyRing, openCursor, sealCursor } from '../../src/paging/cursor.ts';

describe('GATEHOUSE_CURSOR_KEYS', () => {
  const key = () => randomBytes(32).toString('base64');

  it('parses kid:base64key entries in order; unset means generated', () => {
    const a = key();
    const b = key();
    const config = loadConfig({ GATEHOUSE_CURSOR_KEYS: `k2:${a}, k1:${b}` });
    assert.deepEqual(
      config.cursorKeys?.map((k) => [k.id, k.key.toString('base64')]),
      [
        ['k2', a],
        ['k1', b],
      ],
    );
    assert.equal(loadConfig({}).cursorKeys, undefined);
  });

  it('a key that is not 32 bytes, a malformed entry or a repeated id stops start-up naming the setting', () => {
    for (const bad of [`k1:${randomBytes(16).toString('base64')}`, 'k1', `bad id:${key()}`, `k1:${key()},k1:${key()}`]) {
      assert.throws(
        () => loadConfig({ GATEHOUSE_CURSOR_KEYS: bad }),
        (error: unknown) => error instanceof ConfigError && error.message.startsWith('invalid setting GATEHOUSE_CURSOR_KEYS'),
        bad,
      );
    }
  });
});

describe('sealCursor / openCursor', () => {
  const ring = createKeyRing([{ id: 'k1', key: randomBytes(32) }]);
  const claims = {
    position: { key: 1_700_000_000_000, id: 'inv_abc' },
    order: 'invoices:created_at.desc,id.desc',
    filter: '-',
    accountId: 'acct_1',
    issuedAt: 1_000,
  };
  const expect = { order: claims.order, filter: '-', accountId: 'acct_1', now: 2_000, ttlMs: 60_000 };

  it('round-trips the position; the cursor reveals none of it', () => {
    const cursor = sealCursor(ring, claims);
    assert.deepEqual(openCursor(ring, cursor, expect), claims.position);
    assert.doesNotMatch(Buffer.from(cursor.split('.')[1]!, 'base64url').toString('latin1'), /inv_abc|acct_1|invoices/);
    assert.notEqual(sealCursor(ring, claims), cursor, 'a fresh IV every time');
  });

  it('expiry is exact: valid until issuedAt + ttl, expired from then on', () => {
    const cursor = sealCursor(ring, claims);
    assert.deepEqual(openCursor(ring, cursor, { ...expect, now: 60_999 }), claims.position);
    assert.throws(() => openCursor(ring, cursor, { ...expect, now: 61_000 }), { code: 'cursor_expired' });
  });
});
