/**
 * Sealed cursors (paging/cursor.ts) without a database: what a cursor carries is unreadable
 * and unforgeable, each way of misusing one has its own problem code, keys rotate (the first
 * seals, every one opens), and the filter fingerprint ignores order and absent filters.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createKeyRing, filterFingerprint, openCursor, sealCursor, type CursorClaims } from '../../src/paging/cursor.ts';

const NOW = Date.UTC(2030, 0, 1);
const TTL = 3_600_000;
const older = { id: 'k1', key: randomBytes(32) };
const newer = { id: 'k2', key: randomBytes(32) };
const claims: CursorClaims = { position: { key: NOW - 5, id: 'inv_42' }, order: 'invoices:created_at.desc,id.desc', filter: '-', accountId: 'acc_1', issuedAt: NOW };
const expect = { order: claims.order, filter: '-', accountId: 'acc_1', now: NOW + 1_000, ttlMs: TTL };
const problem = (code: string) => ({ status: 400, code });

describe('sealed cursors', () => {
  it('opens to the position it was sealed at; the wire form names the key and hides the rest', () => {
    const ring = createKeyRing([older]);
    const cursor = sealCursor(ring, claims);
    assert.match(cursor, /^k1\.[A-Za-z0-9_-]+$/);
    assert.ok(!cursor.includes('inv_42') && !Buffer.from(cursor.slice(3), 'base64url').toString('latin1').includes('inv_42'));
    assert.deepEqual(openCursor(ring, cursor, expect), claims.position);
    assert.notEqual(sealCursor(ring, claims), cursor, 'a fresh IV each time');
  });

  it('an altered, truncated, re-encoded or unknown-key cursor is cursor_malformed', () => {
    const ring = createKeyRing([older]);
    const cursor = sealCursor(ring, claims);
    const flipped = cursor.slice(0, -2) + (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.at(-1);
    for (const bad of [flipped, cursor.slice(0, -4), `${cursor}=`, cursor.replace(/^k1/, 'k9'), cursor.replace(/^k1/, 'k2'), '', '.', 'k1.', 'garbage']) {
      assert.throws(() => openCursor(ring, bad, expect), problem('cursor_malformed'), bad);
    }
  });

  it("another account's cursor is cursor_foreign, checked before order and filter", () => {
    const cursor = sealCursor(createKeyRing([older]), claims);
    assert.throws(() => openCursor(createKeyRing([older]), cursor, { ...expect, accountId: 'acc_2', order: 'other' }), problem('cursor_foreign'));
  });

  it('another order or filter is cursor_mismatch', () => {
    const ring = createKeyRing([older]);
    const cursor = sealCursor(ring, claims);
    assert.throws(() => openCursor(ring, cursor, { ...expect, order: 'payouts:created_at.desc,id.desc' }), problem('cursor_mismatch'));
    assert.throws(() => openCursor(ring, cursor, { ...expect, filter: filterFingerprint({ status: 'paid' }) }), problem('cursor_mismatch'));
  });

  it('a cursor is valid for the lifetime after it was issued, and not at its end', () => {
    const ring = createKeyRing([older]);
    const cursor = sealCursor(ring, claims);
    assert.deepEqual(openCursor(ring, cursor, { ...expect, now: NOW + TTL - 1 }), claims.position);
    assert.throws(() => openCursor(ring, cursor, { ...expect, now: NOW + TTL }), problem('cursor_expired'));
  });

  it('rotation: the first key seals, every key of the ring opens, a retired key opens nothing', () => {
    const before = sealCursor(createKeyRing([older]), claims);
    const during = createKeyRing([newer, older]);
    assert.match(sealCursor(during, claims), /^k2\./);
    assert.deepEqual(openCursor(during, before, expect), claims.position);
    assert.throws(() => openCursor(createKeyRing([newer]), before, expect), problem('cursor_malformed'));
  });

  it('the filter fingerprint: member order and absent filters do not matter, values do', () => {
    assert.equal(filterFingerprint({}), '-');
    assert.equal(filterFingerprint({ status: undefined, currency: null }), '-');
    assert.equal(filterFingerprint({ status: 'paid', currency: 'EUR' }), filterFingerprint({ currency: 'EUR', status: 'paid', x: undefined }));
    assert.notEqual(filterFingerprint({ status: 'paid' }), filterFingerprint({ status: 'open' }));
    assert.notEqual(filterFingerprint({ amount: 1 }), filterFingerprint({ amount: '1' }));
    assert.match(filterFingerprint({ status: 'paid' }), /^[A-Za-z0-9_-]{22}$/);
  });
});
