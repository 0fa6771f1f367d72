/**
 * Redirect URIs are compared exactly (RFC 9700 §4.1.3), but for the one exception RFC 8252 §7.3
 * requires: a loopback IP redirect of a native app may name any port.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isRegisteredRedirect } from '../../src/oauth/authorize.ts';

describe('isRegisteredRedirect', () => {
  const registered = ['https://app.example/cb', 'http://127.0.0.1/callback', 'http://[::1]:8400/cb?app=cli', 'http://localhost/cb'];

  it('an exact match, and a loopback IP redirect on any port', () => {
    for (const uri of ['https://app.example/cb', 'http://127.0.0.1/callback', 'http://127.0.0.1:53123/callback', 'http://[::1]/cb?app=cli', 'http://[::1]:61000/cb?app=cli']) {
      assert.equal(isRegisteredRedirect(registered, uri), true, uri);
    }
  });

  it('nothing else: another path, query, host or scheme; localhost keeps its port; no user info', () => {
    for (const uri of [
      'https://app.example:8443/cb',
      'https://app.example/cb/more',
      'http://127.0.0.1:53123/callback/more',
      'http://127.0.0.1:53123/callback?x=1',
      'https://127.0.0.1:53123/callback',
      'http://127.0.0.2:53123/callback',
      'http://[::1]:61000/cb',
      'http://localhost:3000/cb',
      'http://user@127.0.0.1:53123/callback',
      'http://127.0.0.1:53123/callback#f',
      'not a uri',
    ]) {
      assert.equal(isRegisteredRedirect(registered, uri), false, uri);
    }
  });
});
