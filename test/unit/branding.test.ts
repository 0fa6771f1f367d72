/** Sign-in page branding: logos are checked data: images, and text on any brand colour stays legible (WCAG 1.4.3). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { contrastRatio, logoViolation, LOGO_MAX_BYTES, textColorOn } from '../../src/accounts/branding.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const uri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('branding', () => {
  it('WCAG 1.4.3: black or white text on any #rrggbb reaches 4.5:1', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const colour = `#${n.toString(16).padStart(6, '0')}`;
        assert.ok(contrastRatio(colour, textColorOn(colour)) >= 4.5, colour);
      }),
      { numRuns: 2000 },
    );
    assert.equal(textColorOn('#ffd400'), '#000000');
    assert.equal(textColorOn('#1a4fd6'), '#ffffff');
    assert.equal(Math.round(contrastRatio('#000000', '#ffffff')), 21);
  });

  it('a logo is a base64 data: URI of PNG, JPEG, GIF or WebP whose bytes match its type, at most LOGO_MAX_BYTES', () => {
    assert.equal(logoViolation(uri('image/png', PNG)), undefined);
    assert.equal(logoViolation(uri('image/gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))), undefined);
    assert.equal(logoViolation(uri('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))), undefined);
    assert.equal(logoViolation(uri('image/webp', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]))), undefined);
    assert.match(logoViolation(uri('image/svg+xml', Buffer.from('<svg/>')))!, /data: URI/);
    assert.match(logoViolation(uri('image/bmp', Buffer.from('BM')))!, /one of/);
    assert.match(logoViolation(uri('image/png', Buffer.from('<html><script>')))!, /not a PNG image/);
    assert.match(logoViolation(uri('image/jpeg', PNG))!, /not a JPEG image/);
    assert.match(logoViolation(uri('image/png', Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)])))!, /at most/);
    for (const bad of ['https://cdn.example/logo.png', 'data:image/png,rawbytes', `data:image/png;base64,${PNG.toString('base64')}"><script>`, 'javascript:alert(1)']) {
      assert.notEqual(logoViolation(bad), undefined, bad);
    }
  });
});
