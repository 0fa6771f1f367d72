/**
 * Where receivers may be: only globally routable unicast addresses, as ipaddr.js classifies them,
 * checked at registration (literal addresses and every address a name resolves to) and at connect
 * time (the guarded lookup the HTTP client connects through, and literal URLs stored earlier).
 * A redirect is never followed; a URL with credentials or another scheme than http(s) is refused.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTargetPolicy, RefusedTarget, type Resolve, type TargetPolicy } from '../../src/webhooks/target-policy.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, dispatcher, raise, registerEndpoint, tenant, type Tenant } from './support.ts';

/** Addresses no receiver may use unless the operator allow-lists them, with what they are. */
const REFUSED: ReadonlyArray<readonly [string, string]> = [
  // IPv6 forms that reach IPv4 through a translator or a tunnel.
  ['::7f00:1', 'IPv4-compatible (::/96) form of 127.0.0.1'],
  ['::a00:1', 'IPv4-compatible (::/96) form of 10.0.0.1'],
  ['::5db8:d70e', 'IPv4-compatible (::/96) form of a public address'],
  ['::ffff:0:7f00:1', 'SIIT (::ffff:0:0:0/96) form of 127.0.0.1'],
  ['::ffff:0:5db8:d70e', 'SIIT (::ffff:0:0:0/96) form of a public address'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 (64:ff9b:1::/48) form of 10.0.0.1'],
  ['64:ff9b::7f00:1', 'NAT64 (64:ff9b::/96) form of 127.0.0.1'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 (64:ff9b::/96) form of 169.254.169.254'],
  ['64:ff9b::5db8:d70e', 'NAT64 (64:ff9b::/96) form of a public address'],
  ['2002:7f00:1::', '6to4 (2002::/16) around 127.0.0.1'],
  ['2002:5db8:d70e::1', '6to4 (2002::/16) around a public address'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (2001::/32)'],
  // IPv6 outside global unicast, or special inside it.
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fec0::1', 'deprecated site-local (fec0::/10)'],
  ['feff::1', 'deprecated site-local (fec0::/10), last block'],
  ['fe80::1', 'link-local'],
  ['fc00::1', 'unique-local (fc00::/7)'],
  ['fd12:3456:789a::1', 'unique-local (fc00::/7)'],
  ['ff02::1', 'multicast, link scope'],
  ['ff0e::1', 'multicast, global scope'],
  ['100::1', 'discard-only (100::/64)'],
  ['2001:db8::1', 'documentation (2001:db8::/32)'],
  ['3fff::1', 'documentation (3fff::/20)'],
  ['2001:2::1', 'benchmarking (2001:2::/48)'],
  ['2001:1::1', 'IETF protocol assignments (2001::/23)'],
  ['2001:3::1', 'AMT (2001:3::/32)'],
  ['2001:4:112::1', 'AS112 (2001:4:112::/48)'],
  ['2620:4f:8000::1', 'AS112 (2620:4f:8000::/48)'],
  ['2001:10::1', 'deprecated ORCHID (2001:10::/28)'],
  ['2001:20::1', 'ORCHIDv2 (2001:20::/28)'],
  ['2001:30::1', 'DRIP entity tags (2001:30::/28)'],
  ['5f00::1', 'segment routing (5f00::/16)'],
  ['4000::1', 'unassigned, outside 2000::/3'],
  ['e000::1', 'unassigned, outside 2000::/3'],
  // IPv4-mapped addresses are the IPv4 address they carry.
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata address'],
  ['::ffff:192.88.99.1', 'IPv4-mapped 6to4 relay anycast'],
  // IPv4.
  ['192.88.99.1', '6to4 relay anycast (192.88.99.0/24)'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', '"this network" (0.0.0.0/8)'],
  ['10.0.0.1', 'private (10/8)'],
  ['172.16.0.1', 'private (172.16/12)'],
  ['172.31.255.254', 'private (172.16/12), last block'],
  ['192.168.1.1', 'private (192.168/16)'],
  ['100.64.0.1', 'shared address space, CGNAT (100.64/10)'],
  ['100.127.255.254', 'shared address space, CGNAT (100.64/10), last block'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback, last block'],
  ['169.254.169.254', 'link-local, cloud metadata'],
  ['192.0.0.8', 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.0.170', 'NAT64 discovery (192.0.0.0/24)'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['198.18.0.1', 'benchmarking (198.18/15)'],
  ['198.19.255.254', 'benchmarking (198.18/15), last block'],
  ['192.31.196.1', 'AS112 (192.31.196.0/24)'],
  ['192.175.48.1', 'AS112 (192.175.48.0/24)'],
  ['192.52.193.1', 'AMT (192.52.193.0/24)'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast, last block'],
  ['240.0.0.1', 'reserved (240/4)'],
  ['255.255.255.254', 'reserved (240/4), last block'],
  ['255.255.255.255', 'limited broadcast'],
];

/** Globally routable unicast addresses: receivers may be there. */
const ALLOWED: ReadonlyArray<readonly [string, string]> = [
  ['93.184.215.14', 'public IPv4'],
  ['8.8.8.8', 'public IPv4'],
  ['2606:2800:21f:cb07:6820:80da:af6b:ba5b', 'public IPv6'],
  ['2a00:1450:4001:82a::200e', 'public IPv6'],
  ['2001:200::1', 'public IPv6 in 2001::/16 outside 2001::/23'],
  ['::ffff:93.184.215.14', 'IPv4-mapped form of a public IPv4 address'],
];

const familyOf = (address: string) => (address.includes(':') ? 6 : 4);
const literal = (address: string) => (address.includes(':') ? `[${address}]` : address);
/** A name per address, so that names resolving to each address are checked too. */
const nameOf = (address: string) => `${address.replaceAll(/[:.]/g, '-')}.example.test`;
const byName = new Map([...REFUSED, ...ALLOWED].map(([address]) => [nameOf(address), address]));
const fakeResolve: Resolve = async (host) => {
  const address = byName.get(host);
  if (address === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address, family: familyOf(address) }];
};

/** What the guarded lookup gives a connection to `host`, in the single and the `all` form. */
async function lookup(policy: TargetPolicy, host: string, all: boolean): Promise<{ error: NodeJS.ErrnoException | null; addresses: string[] }> {
  return new Promise((resolve) => {
    policy.guardedLookup(host, { all }, (error: NodeJS.ErrnoException | null, address: string | Array<{ address: string }>) => {
      resolve({ error, addresses: error ? [] : Array.isArray(address) ? address.map((a) => a.address) : [address] });
    });
  });
}

describe('SSRF: only globally routable unicast receives webhooks (ipaddr.js ranges)', () => {
  const strict = createTargetPolicy({ allowNetworks: [], requireHttps: false, resolve: fakeResolve });

  for (const [address, what] of REFUSED) {
    it(`refuses ${address} (${what}) as a literal, behind a name, and at connect time`, async () => {
      assert.throws(() => strict.checkAddress(address), RefusedTarget);
      await assert.rejects(strict.checkUrl(`http://${literal(address)}/hook`), (error: Error) => {
        assert.ok(error instanceof RefusedTarget);
        assert.match(error.message, /is not a globally routable unicast address/);
        return true;
      });
      await assert.rejects(strict.checkUrl(`https://${nameOf(address)}/hook`), RefusedTarget);
      for (const all of [false, true]) {
        const found = await lookup(strict, nameOf(address), all);
        assert.equal(found.error?.code, 'EREFUSEDTARGET', `lookup all=${all}`);
        assert.deepEqual(found.addresses, []);
      }
    });
  }

  for (const [address, what] of ALLOWED) {
    it(`accepts ${address} (${what}) as a literal, behind a name, and at connect time`, async () => {
      strict.checkAddress(address);
      await strict.checkUrl(`http://${literal(address)}/hook`);
      await strict.checkUrl(`https://${nameOf(address)}/hook`);
      for (const all of [false, true]) {
        assert.deepEqual(await lookup(strict, nameOf(address), all), { error: null, addresses: [address] }, `lookup all=${all}`);
      }
    });
  }

  it('a name is refused when any one of its addresses is refused, at registration and at connect time', async () => {
    const mixed: Resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::7f00:1', family: 6 },
    ];
    const policy = createTargetPolicy({ allowNetworks: [], requireHttps: false, resolve: mixed });
    await assert.rejects(policy.checkUrl('http://mixed.example.test/hook'), /::7f00:1/);
    for (const all of [false, true]) assert.equal((await lookup(policy, 'mixed.example.test', all)).error?.code, 'EREFUSEDTARGET');
  });

  it('allow-list: a translation or tunnel form passes only when a listed network covers it', async () => {
    const tunnels = createTargetPolicy({
      allowNetworks: ['2002::/16', '2001::/32', '::/96', '::ffff:0:0:0/96', '64:ff9b:1::/48'],
      requireHttps: false,
      resolve: fakeResolve,
    });
    for (const address of ['2002:7f00:1::', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '::7f00:1', '::ffff:0:7f00:1', '64:ff9b:1::a00:1']) {
      tunnels.checkAddress(address);
      assert.deepEqual(await lookup(tunnels, nameOf(address), true), { error: null, addresses: [address] });
    }
    assert.throws(() => tunnels.checkAddress('64:ff9b::5db8:d70e'), RefusedTarget, 'the well-known NAT64 prefix is not listed');
    assert.throws(() => tunnels.checkAddress('fec0::1'), RefusedTarget, 'not listed');
  });

  it('allow-list: behind a listed 64:ff9b::/96, the IPv4 address the translator reaches is judged too', () => {
    const nat64 = createTargetPolicy({ allowNetworks: ['64:ff9b::/96'], requireHttps: false });
    nat64.checkAddress('64:ff9b::5db8:d70e');
    assert.throws(() => nat64.checkAddress('64:ff9b::7f00:1'), /carries 127\.0\.0\.1/);
    assert.throws(() => nat64.checkAddress('64:ff9b::a9fe:a9fe'), /carries 169\.254\.169\.254/);
    const nat64AndPrivate = createTargetPolicy({ allowNetworks: ['64:ff9b::/96', '10.0.0.0/8'], requireHttps: false });
    nat64AndPrivate.checkAddress('64:ff9b::a00:1');
    assert.throws(() => nat64AndPrivate.checkAddress('64:ff9b::c0a8:101'), RefusedTarget);
  });

  it('allow-list: an IPv4 network covers its IPv4-mapped form only, not the IPv4-compatible or NAT64 ones', () => {
    const loopback = createTargetPolicy({ allowNetworks: ['127.0.0.0/8'], requireHttps: false });
    loopback.checkAddress('127.0.0.1');
    loopback.checkAddress('::ffff:127.0.0.1');
    loopback.checkAddress('::ffff:7f00:1');
    for (const address of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', '::1', '10.0.0.1']) {
      assert.throws(() => loopback.checkAddress(address), RefusedTarget, address);
    }
  });

  it('allow-list: IPv6 networks by CIDR, nothing outside them', () => {
    const ula = createTargetPolicy({ allowNetworks: ['fd00::/8', '192.168.10.0/24'], requireHttps: false });
    ula.checkAddress('fd12:3456:789a::1');
    ula.checkAddress('192.168.10.200');
    for (const address of ['fc00::1', '192.168.11.1', '::ffff:192.168.11.1', 'fe80::1']) {
      assert.throws(() => ula.checkAddress(address), RefusedTarget, address);
    }
  });

  it('a URL with credentials, a fragment, port 0, or a scheme other than http(s) is refused', async () => {
    for (const [url, why] of [
      ['http://user:pw@93.184.215.14/hook', /credentials/],
      ['https://user@93.184.215.14/hook', /credentials/],
      ['https://:pw@93.184.215.14/hook', /credentials/],
      ['ftp://93.184.215.14/hook', /http or https/],
      ['file:///etc/passwd', /http or https/],
      ['gopher://93.184.215.14:70/_hook', /http or https/],
      ['ws://93.184.215.14/hook', /http or https/],
      ['javascript:alert(1)', /http or https/],
      ['data:text/plain,hook', /http or https/],
      ['https://93.184.215.14/hook#frag', /fragment/],
      ['https://93.184.215.14:0/hook', /port 0/],
      ['http://93.184.215.14:00/hook', /port 0/],
      ['https://[2606:2800:220:1:248:1893:25c8:1946]:0/hook', /port 0/],
      ['//93.184.215.14/hook', /absolute URL/],
    ] as const) {
      await assert.rejects(strict.checkUrl(url), (error: Error) => error instanceof RefusedTarget && why.test(error.message), url);
    }
  });
});

for (const target of databaseTargets()) {
  describe(`SSRF through the API and the dispatcher (${target.kind})`, () => {
    let strictApp: TestApp;
    let loopbackApp: TestApp;
    const receivers: Receiver[] = [];
    before(async () => {
      strictApp = await startTestApp(target, { deps: { webhookResolve: fakeResolve } });
      loopbackApp = await startTestApp(target, { env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1' } });
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close()));
      await strictApp.close();
      await loopbackApp.close();
    });

    async function storedUrls(app: TestApp, who: Tenant): Promise<string[]> {
      const rows = await app.gatehouse.database.db.selectFrom('webhook_endpoints').select(['url']).where('account_id', '=', who.accountId).orderBy('url').execute();
      return rows.map((r) => r.url);
    }

    async function assertRefused(response: { status: number; headers: Headers; body: { code?: string; detail?: string } }, why: RegExp, what: string) {
      assert.equal(response.status, 400, what);
      assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
      assert.equal(response.body.code, 'webhook_url_invalid', what);
      assert.match(response.body.detail ?? '', why, what);
    }

    it('registration and update: every special address, literal or behind a name, → 400 webhook_url_invalid; nothing stored', async () => {
      const who = await tenant(strictApp);
      const kept = await registerEndpoint(who, 'https://93-184-215-14.example.test/hook');
      // Every refusal is independent of the others: they are asked at once.
      await Promise.all(
        REFUSED.flatMap(([address, what]) =>
          [`http://${literal(address)}/hook`, `https://${nameOf(address)}/hook`].map(async (url) => {
            await assertRefused(await who.call('POST', '/v1/webhook_endpoints', { url, event_types: ['*'] }), /not a globally routable unicast address/, `create ${url} (${what})`);
            await assertRefused(await who.call('POST', `/v1/webhook_endpoints/${kept.id}`, { url }), /not a globally routable unicast address/, `update ${url} (${what})`);
          }),
        ),
      );
      assert.deepEqual(await storedUrls(strictApp, who), ['https://93-184-215-14.example.test/hook']);
    });

    it('registration: globally routable unicast addresses, literal or behind a name, → 201', async () => {
      const who = await tenant(strictApp);
      const expected: string[] = await Promise.all(
        ALLOWED.flatMap(([address]) =>
          [`http://${literal(address)}/hook`, `https://${nameOf(address)}/hook`].map(async (url) => {
            const created = await who.call('POST', '/v1/webhook_endpoints', { url, event_types: ['*'] });
            assert.equal(created.status, 201, url);
            return created.body.url as string;
          }),
        ),
      );
      assert.deepEqual(await storedUrls(strictApp, who), expected.sort());
    });

    it('registration and update: credentials in the URL, port 0 or a scheme other than http(s) → 400 webhook_url_invalid; nothing stored', async () => {
      const who = await tenant(strictApp);
      const kept = await registerEndpoint(who, 'https://93-184-215-14.example.test/hook');
      for (const [url, why] of [
        ['https://user:pw@93-184-215-14.example.test/hook', /must not carry credentials/],
        ['https://user@93-184-215-14.example.test/hook', /must not carry credentials/],
        ['http://:pw@93.184.215.14/hook', /must not carry credentials/],
        ['https://93-184-215-14.example.test:0/hook', /must not have port 0/],
        ['http://93.184.215.14:0/hook', /must not have port 0/],
        ['ftp://93-184-215-14.example.test/hook', /must be http or https/],
        ['file:///etc/passwd', /must be http or https/],
        ['gopher://93.184.215.14:70/_hook', /must be http or https/],
        ['ws://93-184-215-14.example.test/hook', /must be http or https/],
        ['javascript:alert(1)', /must be http or https/],
      ] as const) {
        await assertRefused(await who.call('POST', '/v1/webhook_endpoints', { url, event_types: ['*'] }), why, `create ${url}`);
        await assertRefused(await who.call('POST', `/v1/webhook_endpoints/${kept.id}`, { url }), why, `update ${url}`);
      }
      assert.deepEqual(await storedUrls(strictApp, who), ['https://93-184-215-14.example.test/hook']);
    });

    it('connect time: names that passed registration and now resolve to special addresses, and literal URLs stored earlier, are refused; nothing is sent', async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const port = new URL(receiver.url).port;
      // Registration sees a public address; the connection sees the special one (DNS rebinding).
      let rebound = false;
      const rebinding: Resolve = async (host) => {
        const address = rebound ? byName.get(host.replace(/^rebind-/, '')) : '93.184.215.14';
        if (address === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        return [{ address, family: familyOf(address) }];
      };
      const app = await startTestApp(target, { env: { GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1' }, deps: { webhookResolve: rebinding } });
      try {
        const who = await tenant(app);
        const urlOf = new Map<string, string>();
        await Promise.all(
          REFUSED.map(async ([address]) => {
            const named = await registerEndpoint(who, `http://rebind-${nameOf(address)}:${port}/hooks`);
            urlOf.set(named.id, address);
            // An endpoint stored when the policy was laxer: its literal address is judged at delivery.
            const stored = await registerEndpoint(who, `http://stored.example.test:${port}/hooks`);
            await app.gatehouse.database.db
              .updateTable('webhook_endpoints')
              .set({ url: `http://${literal(address)}:${port}/hooks` })
              .where('id', '=', stored.id)
              .execute();
            urlOf.set(stored.id, address);
          }),
        );
        rebound = true;
        await raise(app, who.accountId);
        assert.equal(await dispatcher(app).runDue(), REFUSED.length * 2);
        assert.equal(receiver.received.length, 0, 'nothing reached the receiver');
        const attempts = await app.gatehouse.database.db.selectFrom('webhook_attempts').selectAll().where('account_id', '=', who.accountId).execute();
        assert.equal(attempts.length, REFUSED.length * 2);
        for (const attempt of attempts) {
          const what = `${urlOf.get(attempt.endpoint_id)} via ${attempt.endpoint_id}`;
          assert.equal(attempt.outcome, 'failed', what);
          assert.equal(attempt.response_status, null, what);
          assert.match(attempt.error ?? '', /^refused: .* is not a globally routable unicast address/, what);
        }
        const deliveries = await app.gatehouse.database.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', who.accountId).execute();
        assert.ok(deliveries.every((d) => d.state === 'pending' && d.attempt_count === 1));
      } finally {
        await app.close();
      }
    });

    it('redirects: 301, 302, 303, 307 and 308 are failures and are never followed', async () => {
      const elsewhere = await startReceiver();
      receivers.push(elsewhere);
      const who = await tenant(loopbackApp);
      const byStatus = new Map<number, Receiver>();
      for (const status of [301, 302, 303, 307, 308]) {
        const receiver = await startReceiver();
        receivers.push(receiver);
        receiver.answer = () => ({ status, headers: { location: elsewhere.url } });
        await registerEndpoint(who, receiver.url);
        byStatus.set(status, receiver);
      }
      await raise(loopbackApp, who.accountId);
      assert.equal(await dispatcher(loopbackApp).runDue(), 5);
      for (const [status, receiver] of byStatus) assert.equal(receiver.received.length, 1, `${status}`);
      assert.equal(elsewhere.received.length, 0, 'the redirect target was never asked');
      const attempts = await loopbackApp.gatehouse.database.db.selectFrom('webhook_attempts').selectAll().where('account_id', '=', who.accountId).execute();
      assert.deepEqual(attempts.map((a) => [a.outcome, a.response_status]).sort(), [...byStatus.keys()].map((s) => ['failed', s]));
      const deliveries = await loopbackApp.gatehouse.database.db.selectFrom('webhook_deliveries').selectAll().where('account_id', '=', who.accountId).execute();
      assert.ok(deliveries.every((d) => d.state === 'pending'), 'a redirect does not acknowledge');
    });
  });
}
