/**
 * HMAC-SHA256 from one-shot digests (platform/crypto.ts) is HMAC-SHA256: RFC 4231's vectors, and
 * the same bytes as Node's `createHmac` for keys shorter than, as long as and longer than a block.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { hmacSha256, hmacSha256Key } from '../../src/platform/crypto.ts';

describe('hmacSha256', () => {
  it('RFC 4231 §4.2, §4.3 and §4.7 (test cases 1, 2 and 6: a key longer than a block)', () => {
    const cases: Array<[Buffer, string, string]> = [
      [Buffer.alloc(20, 0x0b), 'Hi There', 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
      [Buffer.from('Jefe'), 'what do ya want for nothing?', '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
      [Buffer.alloc(131, 0xaa), 'Test Using Larger Than Block-Size Key - Hash Key First', '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
    ];
    for (const [key, message, expected] of cases) assert.equal(hmacSha256(hmacSha256Key(key), message, 'hex'), expected);
  });

  it('matches createHmac for keys of 0 to 130 bytes and messages with any UTF-8', () => {
    for (const length of [0, 1, 31, 32, 63, 64, 65, 130]) {
      const key = randomBytes(length);
      const prepared = hmacSha256Key(key);
      for (const message of ['', 'a', 'gh_at_\nacct_1\nscope é 😀', 'x'.repeat(1000), 'é'.repeat(3000)]) {
        assert.equal(hmacSha256(prepared, message, 'base64url'), createHmac('sha256', key).update(message).digest('base64url'), `key ${length}, message ${message.length}`);
        assert.equal(hmacSha256(prepared, message, 'hex'), createHmac('sha256', key).update(message).digest('hex'));
        const body = Buffer.from(message);
        assert.equal(hmacSha256(prepared, ['id.1700000000.', body], 'base64'), createHmac('sha256', key).update('id.1700000000.').update(body).digest('base64'), 'in parts, as one');
      }
    }
  });
});
