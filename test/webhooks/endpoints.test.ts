import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTargetPolicy, RefusedTarget } from '../../src/webhooks/target-policy.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, dispatcher, raise, registerEndpoint, tenant } from './support.ts';

// Names that resolve where the test says: a DNS server answering private addresses cannot exist here.
const NAMES: Record<string, string[]> = {
  'internal.example.test': ['10.1.2.3'],
  'metadata.example.test': ['169.254.169.254'],
  'loop6.example.test': ['::1'],
  'mixed.example.test': ['93.184.216.34', '192.168.0.10'],
  'public.example.test': ['93.184.216.34'],
};
const fakeResolve = async (host: string) => {
  const found = NAMES[host];
  if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('SSRF target policy', () => {
  const strict = createTargetPolicy({ allowNetworks: [], requireHttps: false, resolve: fakeResolve });
  for (const url of [
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://10.255.1.1:8443/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:10.0.0.1]/hook',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
    'http://0.0.0.0/hook',
    'http://224.0.0.1/hook',
    'http://internal.example.test/hook',
    'http://metadata.example.test/hook',
    'http://loop6.example.test/hook',
    'http://mixed.example.test/hook',
  ]) {
    it(`refuses ${url}`, async () => {
      await assert.rejects(strict.checkUrl(url), RefusedTarget);
    });
  }
  it('accepts a public address and a name resolving only to public addresses', async () => {
    await strict.checkUrl('http://93.184.216.34/hook');
    await strict.checkUrl('http://public.example.test/hook');
  });
  it('allow-listed networks are accepted, others still refused', async () => {
    const dev = createTargetPolicy({ allowNetworks: ['127.0.0.0/8', '10.1.0.0/16'], requireHttps: false, resolve: fakeResolve });
    await dev.checkUrl('http://127.0.0.1:9/hook');
    await dev.checkUrl('http://internal.example.test/hook');
    await assert.rejects(dev.checkUrl('http://10.2.0.1/hook'), RefusedTarget);
    await assert.rejects(dev.checkUrl('http://169.254.169.254/'), RefusedTarget);
  });
  it('production mode requires https', async () => {
    const prod = createTargetPolicy({ allowNetworks: [], requireHttps: true, resolve: fakeResolve });
    await assert.rejects(prod.checkUrl('http://public.example.test/hook'), /https/);
    await prod.checkUrl('https://public.example.test/hook');
  });
});

for (const target of databaseTargets()) {
  describe(`webhook endpoints API (${target.kind})`, () => {
    let t: TestApp;
    let strictApp: TestApp;
    const receivers: Receiver[] = [];
    before(async () => {
      t = await startTestApp(target, { env: ALLOW_LOOPBACK, deps: { webhookResolve: fakeResolve } });
      strictApp = await startTestApp(target, { deps: { webhookResolve: fakeResolve } });
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close()));
      await t.close();
      await strictApp.close();
    });

    it('POST /v1/webhook_endpoints → 201 with a whsec_ secret shown once, stored sealed; GET never shows it', async () => {
      const who = await tenant(t);
      const created = await who.call('POST', '/v1/webhook_endpoints', {
        url: 'http://127.0.0.1:9/hooks',
        event_types: ['invoice.settled', 'payout.paid'],
        description: 'Accounting',
      });
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^we_[0-9A-Za-z]{20}$/);
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.equal(Buffer.from(created.body.secret.slice(6), 'base64').length, 24);
      assert.equal(created.headers.get('location'), `/v1/webhook_endpoints/${created.body.id}`);
      assert.deepEqual({ ...created.body, secret: undefined, created_at: undefined, updated_at: undefined }, {
        id: created.body.id,
        object: 'webhook_endpoint',
        url: 'http://127.0.0.1:9/hooks',
        description: 'Accounting',
        event_types: ['invoice.settled', 'payout.paid'],
        headers: {},
        status: 'enabled',
        disabled_reason: null,
        previous_secret_expires_at: null,
        secret: undefined,
        created_at: undefined,
        updated_at: undefined,
      });
      const row = await t.gatehouse.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      assert.ok(!row.secret_sealed.includes(created.body.secret.slice(6)));
      assert.ok(!JSON.stringify(row).includes(created.body.secret));
      const got = await who.call('GET', `/v1/webhook_endpoints/${created.body.id}`);
      assert.equal(got.status, 200);
      assert.equal(got.body.secret, undefined);
      const listed = await who.call('GET', '/v1/webhook_endpoints');
      assert.deepEqual(listed.body.data.map((e: { id: string }) => e.id), [created.body.id]);
      assert.equal(listed.body.next_cursor, null);
    });

    it('GET /v1/webhook_endpoints pages with sealed cursors: every endpoint once, newest first', async () => {
      const who = await tenant(t);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1);
        ids.push((await registerEndpoint(who, `http://127.0.0.1:9/${i}`)).id);
      }
      const first = await who.call('GET', '/v1/webhook_endpoints?limit=2');
      assert.deepEqual(first.body.data.map((e: { id: string }) => e.id), [ids[4], ids[3]]);
      const second = await who.call('GET', `/v1/webhook_endpoints?limit=2&after=${first.body.next_cursor}`);
      const third = await who.call('GET', `/v1/webhook_endpoints?limit=2&after=${second.body.next_cursor}`);
      assert.deepEqual([...second.body.data, ...third.body.data].map((e: { id: string }) => e.id), [ids[2], ids[1], ids[0]]);
      assert.equal(third.body.next_cursor, null);
      const other = await tenant(t);
      assert.equal((await other.call('GET', `/v1/webhook_endpoints?after=${first.body.next_cursor}`)).body.code, 'cursor_foreign');
    });

    it('update, disable, enable and delete; another account sees 404 for all of them', async () => {
      const who = await tenant(t);
      const other = await tenant(t);
      const { id } = await registerEndpoint(who, 'http://127.0.0.1:9/a', ['invoice.settled']);
      for (const [method, path, body] of [
        ['GET', `/v1/webhook_endpoints/${id}`],
        ['POST', `/v1/webhook_endpoints/${id}`, { description: 'x' }],
        ['POST', `/v1/webhook_endpoints/${id}/disable`],
        ['POST', `/v1/webhook_endpoints/${id}/rotate_secret`, {}],
        ['POST', `/v1/webhook_endpoints/${id}/recover`, { since: '2020-01-01T00:00:00Z' }],
        ['GET', `/v1/webhook_endpoints/${id}/deliveries`],
        ['DELETE', `/v1/webhook_endpoints/${id}`],
      ] as const) {
        const r = await other.call(method, path, body);
        assert.equal(r.status, 404, `${method} ${path}`);
        assert.equal(r.body.code, 'webhook_endpoint_not_found');
      }
      const updated = await who.call('POST', `/v1/webhook_endpoints/${id}`, { url: 'http://127.0.0.1:9/b', event_types: ['payout.failed'] });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.url, 'http://127.0.0.1:9/b');
      assert.deepEqual(updated.body.event_types, ['payout.failed']);
      const disabled = await who.call('POST', `/v1/webhook_endpoints/${id}/disable`);
      assert.equal(disabled.body.status, 'disabled');
      assert.equal(disabled.body.disabled_reason, 'manual');
      const recover = await who.call('POST', `/v1/webhook_endpoints/${id}/recover`, { since: '2020-01-01T00:00:00Z' });
      assert.equal(recover.status, 409);
      assert.equal(recover.body.code, 'webhook_endpoint_disabled');
      const enabled = await who.call('POST', `/v1/webhook_endpoints/${id}/enable`);
      assert.equal(enabled.body.status, 'enabled');
      assert.equal(enabled.body.disabled_reason, null);
      assert.equal((await who.call('DELETE', `/v1/webhook_endpoints/${id}`)).status, 204);
      assert.equal((await who.call('GET', `/v1/webhook_endpoints/${id}`)).status, 404);
    });

    it('scopes: webhooks:manage for endpoints, events:read for events; no token → 401', async () => {
      const reader = await tenant(t, ['events:read']);
      const r = await reader.call('POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/', event_types: ['*'] });
      assert.equal(r.status, 403);
      assert.equal(r.body.code, 'insufficient_scope');
      assert.equal((await reader.call('GET', '/v1/events')).status, 200);
      const manager = await tenant(t, ['webhooks:manage']);
      assert.equal((await manager.call('GET', '/v1/events')).status, 403);
      assert.equal((await fetch(`${t.publicUrl}/v1/webhook_endpoints`)).status, 401);
    });

    it('bad input → 400 problem+json, never a 500: unknown event type, empty list, extra member, not a URL', async () => {
      const who = await tenant(t);
      for (const body of [
        { url: 'http://127.0.0.1:9/', event_types: ['invoice.paid'] },
        { url: 'http://127.0.0.1:9/', event_types: [] },
        { url: 'http://127.0.0.1:9/', event_types: ['*'], secret: 'mine' },
        { url: 'not a url', event_types: ['*'] },
        { url: 'ftp://127.0.0.1/', event_types: ['*'] },
        { url: 'http://user:pw@127.0.0.1/', event_types: ['*'] },
      ]) {
        const r = await who.call('POST', '/v1/webhook_endpoints', body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.ok(['validation_failed', 'webhook_url_invalid'].includes(r.body.code));
      }
    });

    it('a refused url or headers is a body that fails validation: not stored, so the corrected request may use the same Idempotency-Key', async () => {
      const who = await tenant(strictApp);
      const post = async (key: string, body: unknown) => {
        const response = await fetch(`${strictApp.publicUrl}/v1/webhook_endpoints`, {
          method: 'POST',
          headers: { authorization: `Bearer ${who.token}`, 'idempotency-key': key, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, replayed: response.headers.get('idempotent-replay'), body: (await response.json()) as { code?: string; id?: string } };
      };
      const keys = () => strictApp.gatehouse.database.db.selectFrom('idempotency_keys').select(['state', 'response_status']).where('account_id', '=', who.accountId).execute();
      const refusals = [
        // A name that does not resolve yet (DNS not set up, or briefly failing) must not spend the key.
        { url: 'http://not-yet.example.test/hook', event_types: ['*'] },
        { url: 'http://internal.example.test/hook', event_types: ['*'] },
        { url: 'http://public.example.test/hook', event_types: ['*'], headers: { Signature: 'forged' } },
      ];
      for (const [i, refused] of refusals.entries()) {
        const key = `corrected-${i}`;
        const first = await post(key, refused);
        assert.equal(first.status, 400, refused.url);
        assert.match(first.body.code ?? '', /^webhook_(url|headers)_invalid$/);
        assert.deepEqual(await keys(), [], `${first.body.code} left a record`);
        const corrected = await post(key, { url: 'http://public.example.test/hook', event_types: ['*'] });
        assert.equal(corrected.status, 201, JSON.stringify(corrected.body));
        assert.equal(corrected.replayed, null);
        assert.deepEqual(await keys(), [{ state: 'done', response_status: 201 }]);
        await strictApp.gatehouse.database.db.deleteFrom('idempotency_keys').where('account_id', '=', who.accountId).execute();
      }
      const stored = await strictApp.gatehouse.database.db.selectFrom('webhook_endpoints').select('url').where('account_id', '=', who.accountId).execute();
      assert.equal(stored.length, refusals.length);
    });

    it('SSRF at registration: loopback, private, metadata, [::1] and names resolving to them are refused without an allow-list', async () => {
      const who = await tenant(strictApp);
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://10.0.0.8/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]:8080/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://internal.example.test/hook',
        'http://metadata.example.test/hook',
        'http://loop6.example.test/hook',
      ]) {
        const r = await who.call('POST', '/v1/webhook_endpoints', { url, event_types: ['*'] });
        assert.equal(r.status, 400, url);
        assert.equal(r.body.code, 'webhook_url_invalid', url);
      }
      const ok = await who.call('POST', '/v1/webhook_endpoints', { url: 'http://public.example.test/hook', event_types: ['*'] });
      assert.equal(ok.status, 201);
      const count = await strictApp.gatehouse.database.db.selectFrom('webhook_endpoints').select(['id']).where('account_id', '=', who.accountId).execute();
      assert.equal(count.length, 1);
    });

    it('SSRF at connect time: a name that passed registration but now resolves to loopback is refused (DNS rebinding)', async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const port = new URL(receiver.url).port;
      let answer = '93.184.216.34';
      const rebinding = async () => [{ address: answer, family: 4 }];
      const app = await startTestApp(target, { env: { GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1' }, deps: { webhookResolve: rebinding } });
      try {
        const who = await tenant(app);
        await registerEndpoint(who, `http://rebind.example.test:${port}/hooks`);
        answer = '127.0.0.1';
        await raise(app, who.accountId);
        assert.equal(await dispatcher(app).runDue(), 1);
        assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
        const attempts = await app.gatehouse.database.db.selectFrom('webhook_attempts').selectAll().where('account_id', '=', who.accountId).execute();
        assert.equal(attempts.length, 1);
        assert.equal(attempts[0]!.outcome, 'failed');
        assert.match(attempts[0]!.error ?? '', /refused/);
      } finally {
        await app.close();
      }
    });

    it('headers: added to every delivery beside the signed ones, stored sealed, credential-like values withheld when read; update replaces the set, {} removes it', async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const who = await tenant(t);
      const created = await who.call('POST', '/v1/webhook_endpoints', {
        url: receiver.url,
        event_types: ['*'],
        headers: { Authorization: 'Bearer gateway-credential-123', 'X-Tenant': 'acme eu' },
      });
      assert.equal(created.status, 201);
      assert.deepEqual(created.body.headers, { Authorization: '[withheld]', 'X-Tenant': 'acme eu' });
      const { id, secret } = created.body as { id: string; secret: string };
      const row = async () => t.gatehouse.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.ok((await row()).headers_sealed !== null);
      assert.ok(!JSON.stringify(await row()).includes('gateway-credential-123'));
      assert.deepEqual((await who.call('GET', `/v1/webhook_endpoints/${id}`)).body.headers, { Authorization: '[withheld]', 'X-Tenant': 'acme eu' });
      // However the name says it holds a credential.
      const others = { 'X-Gateway-Credential': 'c-1', 'X-Bearer': 'b-2', 'X-Client-Cert': 'pem-3', 'X-Private-Id': 'p-4', 'X-Region': 'eu' };
      const named = await who.call('POST', '/v1/webhook_endpoints', { url: receiver.url, event_types: ['invoice.settled'], headers: others });
      assert.deepEqual(named.body.headers, { 'X-Gateway-Credential': '[withheld]', 'X-Bearer': '[withheld]', 'X-Client-Cert': '[withheld]', 'X-Private-Id': '[withheld]', 'X-Region': 'eu' });
      assert.equal((await who.call('DELETE', `/v1/webhook_endpoints/${named.body.id}`)).status, 204);

      await raise(t, who.accountId);
      assert.equal(await dispatcher(t).runDue(), 1);
      const delivered = receiver.received[0]!;
      assert.equal(delivered.headers.authorization, 'Bearer gateway-credential-123');
      assert.equal(delivered.headers['x-tenant'], 'acme eu');
      receiver.secrets = [secret];
      assert.deepEqual(await verifyWith(receiver, delivered), { octokit: true, standard: true });

      const replaced = await who.call('POST', `/v1/webhook_endpoints/${id}`, { headers: { 'X-Region': 'eu-west-1' } });
      assert.equal(replaced.status, 200);
      assert.deepEqual(replaced.body.headers, { 'X-Region': 'eu-west-1' });
      await raise(t, who.accountId, 'invoice.settled', 'inv_00000000000000000002');
      await dispatcher(t).runDue();
      const next = receiver.received[1]!;
      assert.equal(next.headers['x-region'], 'eu-west-1');
      assert.equal(next.headers.authorization, undefined);
      assert.equal(next.headers['x-tenant'], undefined);

      const cleared = await who.call('POST', `/v1/webhook_endpoints/${id}`, { headers: {} });
      assert.deepEqual(cleared.body.headers, {});
      assert.equal((await row()).headers_sealed, null);
    });

    it('headers that cannot be sent → 400 webhook_headers_invalid naming the header; nothing stored', async () => {
      const who = await tenant(t);
      const { id } = await registerEndpoint(who, 'http://127.0.0.1:9/hooks');
      await who.call('POST', `/v1/webhook_endpoints/${id}`, { headers: { 'X-Kept': 'yes' } });
      const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']));
      for (const [headers, named] of [
        [{ Signature: 'sha256=forged' }, 'Signature'],
        [{ 'webhook-id': 'evt_x' }, 'webhook-id'],
        // The svix verifier reads svix-* before webhook-*: the whole family is refused.
        [{ 'svix-signature': 'v1,forged' }, 'svix-signature'],
        [{ 'Svix-Id': 'msg_x' }, 'Svix-Id'],
        [{ 'SVIX-Timestamp': '1' }, 'SVIX-Timestamp'],
        [{ 'svix-anything': 'x' }, 'svix-anything'],
        [{ 'Content-Length': '1' }, 'Content-Length'],
        [{ 'Proxy-Authorization': 'Basic x' }, 'Proxy-Authorization'],
        [{ 'Bad Name': 'x' }, 'Bad Name'],
        [{ 'X-Split': 'a\r\nX-Injected: 1' }, 'X-Split'],
        [{ 'X-Empty': '' }, 'X-Empty'],
        [{ 'X-Dup': 'a', 'x-dup': 'b' }, 'x-dup'],
      ] as const) {
        for (const [method, path, body] of [
          ['POST', '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks', event_types: ['*'], headers }],
          ['POST', `/v1/webhook_endpoints/${id}`, { headers }],
        ] as const) {
          const r = await who.call(method, path, body);
          assert.equal(r.status, 400, `${path} ${JSON.stringify(headers)}`);
          assert.match(r.headers.get('content-type') ?? '', /^application\/problem\+json/);
          assert.equal(r.body.code, 'webhook_headers_invalid');
          assert.ok(r.body.detail.includes(JSON.stringify(named)), r.body.detail);
        }
      }
      const many = await who.call('POST', `/v1/webhook_endpoints/${id}`, { headers: tooMany });
      assert.equal(many.status, 400);
      const endpoints = await t.gatehouse.database.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', who.accountId).execute();
      assert.equal(endpoints.length, 1);
      assert.deepEqual((await who.call('GET', `/v1/webhook_endpoints/${id}`)).body.headers, { 'X-Kept': 'yes' });
    });

    it('rotate_secret: during the overlap both secrets verify (Standard Webhooks) and Signature uses the new one; afterwards only the new one signs', async () => {
      const receiver = await startReceiver();
      receivers.push(receiver);
      const who = await tenant(t);
      const { id, secret: old } = await registerEndpoint(who, receiver.url);
      const rotated = await who.call('POST', `/v1/webhook_endpoints/${id}/rotate_secret`, { overlap_seconds: 60 });
      assert.equal(rotated.status, 200);
      const fresh = rotated.body.secret as string;
      assert.match(fresh, /^whsec_/);
      assert.notEqual(fresh, old);
      assert.equal(rotated.body.previous_secret_expires_at, new Date(t.clock.now() + 60_000).toISOString());

      await raise(t, who.accountId);
      await dispatcher(t).runDue();
      const during = receiver.received[0]!;
      assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
      receiver.secrets = [old];
      assert.equal((await verifyWith(receiver, during)).standard, true, 'old secret still verifies during the overlap');
      assert.equal((await verifyWith(receiver, during)).octokit, false, 'Signature carries the new secret only');
      receiver.secrets = [fresh];
      assert.deepEqual(await verifyWith(receiver, during), { octokit: true, standard: true });

      t.clock.advance(61_000);
      await raise(t, who.accountId);
      await dispatcher(t).runDue();
      const afterOverlap = receiver.received[1]!;
      assert.equal(String(afterOverlap.headers['webhook-signature']).split(' ').length, 1);
      receiver.secrets = [old];
      assert.deepEqual(await verifyWith(receiver, afterOverlap), { octokit: false, standard: false });
      receiver.secrets = [fresh];
      assert.deepEqual(await verifyWith(receiver, afterOverlap), { octokit: true, standard: true });
    });
  });
}

async function verifyWith(receiver: Receiver, r: Receiver['received'][number]): Promise<{ octokit: boolean; standard: boolean }> {
  const { verify } = await import('@octokit/webhooks-methods');
  const { Webhook } = await import('standardwebhooks');
  const text = r.raw.toString();
  let standard = false;
  let octokit = false;
  for (const secret of receiver.secrets) {
    octokit ||= await verify(secret, text, String(r.headers.signature));
    try {
      new Webhook(secret).verify(text, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      standard = true;
    } catch {
      /* no */
    }
  }
  return { octokit, standard };
}
