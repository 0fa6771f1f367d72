/**
 * Browser tests on a machine without Chromium (test/helpers/browser.ts): they skip, saying how to
 * get one, unless GATEHOUSE_TEST_REQUIRE_BROWSER=1 asks for them, and then they fail.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CHROMIUM_PATH, chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';

const nothingInstalled = () => false;
const installed = (file: string) => file === DEFAULT_CHROMIUM_PATH;

describe('the Chromium browser tests drive', () => {
  it('CHROMIUM_PATH, when set, is the browser, whether or not /usr/bin/chromium exists', () => {
    for (const exists of [nothingInstalled, installed]) {
      const lookup = findChromium({ CHROMIUM_PATH: '/opt/chromium/chrome' }, exists);
      assert.deepEqual(lookup, { found: true, executablePath: '/opt/chromium/chrome' });
      assert.equal(skipWithoutChromium(lookup), false);
      assert.equal(chromiumExecutable(lookup), '/opt/chromium/chrome');
    }
  });

  it('without CHROMIUM_PATH, /usr/bin/chromium when it exists', () => {
    const lookup = findChromium({}, installed);
    assert.deepEqual(lookup, { found: true, executablePath: DEFAULT_CHROMIUM_PATH });
    assert.equal(skipWithoutChromium(lookup), false);
  });

  it('no browser anywhere: the browser tests skip, and the reason says how to get one', () => {
    const lookup = findChromium({ CHROMIUM_PATH: '' }, nothingInstalled);
    const skip = skipWithoutChromium(lookup);
    assert.equal(typeof skip, 'string');
    assert.match(skip as string, /CHROMIUM_PATH is unset and \/usr\/bin\/chromium is absent/);
    assert.match(skip as string, /apt-get install chromium/);
  });

  it('no browser anywhere under GATEHOUSE_TEST_REQUIRE_BROWSER=1: the browser tests run and fail with that reason', () => {
    const lookup = findChromium({ GATEHOUSE_TEST_REQUIRE_BROWSER: '1' }, nothingInstalled);
    assert.equal(skipWithoutChromium(lookup), false);
    assert.throws(() => chromiumExecutable(lookup), /GATEHOUSE_TEST_REQUIRE_BROWSER=1, but no Chromium .*apt-get install chromium/);
  });
});
