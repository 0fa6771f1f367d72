import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { GatehouseDeps } from '../../src/app.ts';

/** A test-only route that answers the client address the server settled on. */
const addressRoute: Pick<GatehouseDeps, 'extraRoutes'> = {
  extraRoutes: (app) => {
    app.get('/test/client-address', async (request) => ({ ip: request.ip }));
  },
};

describe('GATEHOUSE_TRUSTED_PROXIES: the setting', () => {
  it('takes addresses and CIDR blocks, IPv4 and IPv6; unset is none; anything else stops start-up naming the setting', () => {
    assert.deepEqual(loadConfig({}).trustedProxies, []);
    assert.deepEqual(loadConfig({ GATEHOUSE_TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.7,fd00::/8 ,::1' }).trustedProxies, ['10.0.0.0/8', '192.0.2.7', 'fd00::/8', '::1']);
    for (const bad of ['10.0.0.0/33', '10.1/8', 'lb.internal', '10.0.0.0/8/1', '::1/129']) {
      assert.throws(() => loadConfig({ GATEHOUSE_TRUSTED_PROXIES: bad }), (error: unknown) => error instanceof ConfigError && /GATEHOUSE_TRUSTED_PROXIES/.test(error.message), bad);
    }
  });
});

for (const target of databaseTargets()) {
  describe(`GATEHOUSE_TRUSTED_PROXIES: whose X-Forwarded-For is believed (${target.kind})`, () => {
    let untrusting: TestApp;
    let behindLoopback: TestApp;
    let behindTwoHops: TestApp;
    let elsewhere: TestApp;
    before(async () => {
      [untrusting, behindLoopback, behindTwoHops, elsewhere] = await Promise.all([
        startTestApp(target, { extensions: addressRoute }),
        startTestApp(target, { extensions: addressRoute, env: { GATEHOUSE_TRUSTED_PROXIES: '127.0.0.0/8' } }),
        startTestApp(target, { extensions: addressRoute, env: { GATEHOUSE_TRUSTED_PROXIES: '127.0.0.0/8,10.0.0.0/8' } }),
        startTestApp(target, { extensions: addressRoute, env: { GATEHOUSE_TRUSTED_PROXIES: '10.0.0.0/8' } }),
      ]);
    });
    after(() => Promise.all([untrusting, behindLoopback, behindTwoHops, elsewhere].map((t) => t.close())));

    const addressSeenBy = async (t: TestApp, forwardedFor?: string): Promise<string> => {
      const response = await fetch(`${t.publicUrl}/test/client-address`, { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } });
      assert.equal(response.status, 200);
      return (await json(response)).ip;
    };

    it('unset: X-Forwarded-For is ignored; the client is the peer that connected', async () => {
      assert.equal(await addressSeenBy(untrusting), '127.0.0.1');
      assert.equal(await addressSeenBy(untrusting, '203.0.113.5'), '127.0.0.1');
    });

    it('a request from a trusted proxy is the forwarded client’s; trusted hops are skipped, and the first untrusted hop from the right is the client', async () => {
      assert.equal(await addressSeenBy(behindLoopback), '127.0.0.1', 'no header: the peer itself');
      assert.equal(await addressSeenBy(behindLoopback, '203.0.113.5'), '203.0.113.5');
      // Whatever a client writes on the left is not believed past an untrusted hop.
      assert.equal(await addressSeenBy(behindLoopback, '198.51.100.1, 10.1.2.3'), '10.1.2.3');
      assert.equal(await addressSeenBy(behindTwoHops, '198.51.100.1, 10.1.2.3'), '198.51.100.1');
    });

    it('a peer outside the list has its X-Forwarded-For ignored', async () => {
      assert.equal(await addressSeenBy(elsewhere, '203.0.113.5'), '127.0.0.1');
    });
  });
}
