import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, deliveriesOf, dispatcher, raise, registerEndpoint, tenant, type Tenant } from './support.ts';

for (const target of databaseTargets()) {
  describe(`webhook delivery (${target.kind})`, () => {
    let t: TestApp;
    let receiver: Receiver;
    const receivers: Receiver[] = [];
    before(async () => {
      t = await startTestApp(target, {
        env: { ...ALLOW_LOOPBACK, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,1,1', GATEHOUSE_WEBHOOK_TIMEOUT: '1' },
      });
    });
    after(async () => {
      await Promise.all(receivers.map((r) => r.close().catch(() => {})));
      await t.close();
    });

    async function fresh(types = ['*']): Promise<{ who: Tenant; endpoint: { id: string; secret: string }; receiver: Receiver }> {
      receiver = await startReceiver();
      receivers.push(receiver);
      const who = await tenant(t);
      const endpoint = await registerEndpoint(who, receiver.url, types);
      receiver.secrets = [endpoint.secret];
      return { who, endpoint, receiver };
    }

    it('endpoint 10: the event arrives with every header, signed over the exact bytes; both stock verifiers accept it', async () => {
      const { who } = await fresh();
      t.clock.set(Date.UTC(2031, 0, 2, 3, 4, 5, 678) + (Date.now() - Date.UTC(2031, 0, 2, 3, 4, 5, 678)));
      const event = await raise(t, who.accountId, 'invoice.settled', 'inv_AAAAAAAAAAAAAAAAAAAA');
      assert.equal(await dispatcher(t).runDue(), 1);
      const [got] = receiver.received;
      assert.ok(got);
      assert.equal(got.raw.toString(), event.payload);
      assert.deepEqual(got.body, {
        event: 'invoice.settled',
        object: 'invoice',
        id: 'inv_AAAAAAAAAAAAAAAAAAAA',
        state: 'settled',
        created_at: new Date(event.createdAt).toISOString(),
        data: { id: 'inv_AAAAAAAAAAAAAAAAAAAA', object: 'invoice', state: 'settled' },
      });
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.headers['event-id'], event.id);
      assert.equal(got.headers['event-type'], 'invoice.settled');
      assert.match(String(got.headers['delivery-id']), /^dlv_[0-9A-Za-z]{20}$/);
      assert.equal(got.headers.timestamp, new Date(event.createdAt).toISOString());
      assert.match(String(got.headers.signature), /^sha256=[0-9a-f]{64}$/);
      assert.equal(got.headers['webhook-id'], event.id);
      assert.equal(got.octokitValid, true, 'octokit verify() on Signature');
      assert.equal(got.standardValid, true, 'standardwebhooks verify() on webhook-* headers');
      const [delivery] = await deliveriesOf(t, event.id);
      assert.equal(delivery!.state, 'acknowledged');
      assert.equal(delivery!.attempt_count, 1);
      await receiver.close();
    });

    it('a signature made with another secret, or over other bytes, does not verify', async () => {
      const { who } = await fresh();
      receiver.secrets = ['whsec_' + Buffer.alloc(24, 7).toString('base64')];
      await raise(t, who.accountId);
      await dispatcher(t).runDue();
      assert.equal(receiver.received[0]!.octokitValid, false);
      assert.equal(receiver.received[0]!.standardValid, false);
      await receiver.close();
    });

    it('outbox: fanned out to every enabled endpoint subscribed to the type, and only those', async () => {
      const who = await tenant(t);
      const [a, b, c] = [await startReceiver(), await startReceiver(), await startReceiver()];
      await registerEndpoint(who, a.url, ['payout.paid']);
      await registerEndpoint(who, b.url, ['invoice.settled']);
      const disabled = await registerEndpoint(who, c.url, ['payout.paid']);
      assert.equal((await who.call('POST', `/v1/webhook_endpoints/${disabled.id}/disable`)).status, 200);
      const other = await tenant(t);
      const foreign = await startReceiver();
      await registerEndpoint(other, foreign.url, ['*']);
      const event = await raise(t, who.accountId, 'payout.paid', 'po_AAAAAAAAAAAAAAAAAAAA');
      await dispatcher(t).runDue();
      assert.equal(a.received.length, 1);
      assert.equal(b.received.length, 0);
      assert.equal(c.received.length, 0);
      assert.equal(foreign.received.length, 0);
      assert.equal((await deliveriesOf(t, event.id)).length, 1);
      await Promise.all([a, b, c, foreign].map((r) => r.close()));
    });

    it('outbox: a business transaction that rolls back emits nothing', async () => {
      const { who } = await fresh();
      const db = t.gatehouse.database.db;
      const before = await db.selectFrom('events').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await recordEvent(trx, { accountId: who.accountId, type: 'payout.failed', object: 'payout', objectId: 'po_X', state: 'failed', data: { id: 'po_X', object: 'payout', state: 'failed' }, at: t.clock.now() });
          throw new Error('business rule failed');
        }),
        /business rule failed/,
      );
      const afterCount = await db.selectFrom('events').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(afterCount.n), Number(before.n));
      assert.equal(await dispatcher(t).runDue(), 0);
      assert.equal(receiver.received.length, 0);
      await receiver.close();
    });

    it('state table: 500, 302 and a timeout are resent with a new Delivery-Id and the same Event-Id; then 2xx acknowledges and ends the cycle', async () => {
      const { who, endpoint } = await fresh();
      const answers = [500, { status: 302, headers: { location: 'http://127.0.0.1:1/elsewhere' } }, 'timeout'] as const;
      receiver.answer = (r) => {
        const i = receiver.received.indexOf(r);
        return i < 3 ? (answers[i] as never) : 200;
      };
      const event = await raise(t, who.accountId);
      for (let i = 0; i < 4; i++) {
        if (i > 0) t.clock.advance(1200);
        assert.equal(await dispatcher(t).runDue(), 1, `attempt ${i + 1}`);
      }
      t.clock.advance(60_000);
      assert.equal(await dispatcher(t).runDue(), 0, 'no attempt after the acknowledgement');
      assert.equal(receiver.received.length, 4);
      const deliveryIds = receiver.received.map((r) => r.headers['delivery-id']);
      assert.equal(new Set(deliveryIds).size, 4);
      assert.ok(receiver.received.every((r) => r.headers['event-id'] === event.id && r.headers.timestamp === new Date(event.createdAt).toISOString()));
      assert.ok(receiver.received.every((r) => r.octokitValid && r.standardValid));
      const [delivery] = await deliveriesOf(t, event.id);
      assert.equal(delivery!.state, 'acknowledged');
      assert.equal(delivery!.attempt_count, 4);
      const log = await who.call('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`);
      assert.equal(log.status, 200);
      assert.deepEqual(
        log.body.data.map((a: { id: string; outcome: string; response_status: number | null }) => [a.id, a.outcome, a.response_status]),
        [
          [deliveryIds[3], 'succeeded', 200],
          [deliveryIds[2], 'failed', null],
          [deliveryIds[1], 'failed', 302],
          [deliveryIds[0], 'failed', 500],
        ],
      );
      assert.match(log.body.data[1].error, /timeout/);
      await receiver.close();
    });

    it('the per-attempt timeout bounds the whole attempt: a receiver trickling interim 102 answers or its body is cut off at it, and retried', async () => {
      // Each trickle refreshes undici's own headers and body timers; only a deadline for the
      // whole attempt ends it. The receiver gives up after 5 s, five times the timeout (1 s).
      const trickles = {
        interim: (response: http.ServerResponse) => response.writeProcessing(),
        body: (response: http.ServerResponse) => {
          if (!response.headersSent) response.writeHead(200, { 'content-length': '1000' });
          response.write('x');
        },
      };
      for (const [name, trickle] of Object.entries(trickles)) {
        const server = http.createServer((request, response) => {
          request.resume();
          const timer = setInterval(() => trickle(response), 200);
          const stop = setTimeout(() => response.destroy(), 5000);
          response.once('close', () => {
            clearInterval(timer);
            clearTimeout(stop);
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        try {
          const who = await tenant(t);
          const endpoint = await registerEndpoint(who, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
          const event = await raise(t, who.accountId);
          const started = performance.now();
          assert.equal(await dispatcher(t).runDue(), 1);
          const took = performance.now() - started;
          assert.ok(took < 3000, `${name}: the attempt took ${Math.round(took)} ms with a 1000 ms timeout`);
          const [delivery] = await deliveriesOf(t, event.id);
          assert.equal(delivery!.state, 'pending', name);
          assert.equal(delivery!.attempt_count, 1, name);
          const log = await who.call('GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`);
          assert.equal(log.status, 200);
          assert.equal(log.body.data.length, 1);
          assert.equal(log.body.data[0].outcome, 'failed', name);
          assert.match(log.body.data[0].error, /^timeout: /, name);
          assert.ok(log.body.data[0].latency_ms < 3000, `${name}: latency ${log.body.data[0].latency_ms} ms`);
          // Its retries are not the business of the tests that follow.
          assert.equal((await who.call('DELETE', `/v1/webhook_endpoints/${endpoint.id}`)).status, 204);
        } finally {
          server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      }
    });

    it('a connection reset is a failure and is retried', async () => {
      const { who } = await fresh();
      receiver.answer = (r) => (receiver.received.indexOf(r) === 0 ? 'reset' : 204);
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      t.clock.advance(1200);
      await dispatcher(t).runDue();
      assert.equal(receiver.received.length, 2);
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'acknowledged');
      await receiver.close();
    });

    it('state table: never 2xx → parked after the schedule (1,1,1 = four attempts), then recover → delivered once', async () => {
      const { who, endpoint } = await fresh();
      receiver.answer = () => 503;
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      for (let i = 0; i < 3; i++) {
        // Not yet due: the jittered delay is at least 0.9 s.
        t.clock.advance(800);
        assert.equal(await dispatcher(t).runDue(), 0);
        t.clock.advance(400);
        assert.equal(await dispatcher(t).runDue(), 1);
      }
      t.clock.advance(3_600_000);
      assert.equal(await dispatcher(t).runDue(), 0, 'parked: no more attempts');
      assert.equal(receiver.received.length, 4);
      const [parked] = await deliveriesOf(t, event.id);
      assert.equal(parked!.state, 'parked');
      const listed = await who.call('GET', '/v1/events?delivery_state=parked');
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.deepEqual(listed.body.data.map((e: { id: string }) => e.id), [event.id]);
      assert.equal(listed.body.data[0].delivery_state, 'parked');

      receiver.answer = () => 200;
      const recovered = await who.call('POST', `/v1/webhook_endpoints/${endpoint.id}/recover`, { since: new Date(event.createdAt - 1000).toISOString() });
      assert.equal(recovered.status, 202);
      assert.equal(recovered.body.requeued, 1);
      assert.equal(await dispatcher(t).runDue(), 1);
      t.clock.advance(3_600_000);
      assert.equal(await dispatcher(t).runDue(), 0);
      assert.equal(receiver.received.length, 5);
      assert.equal(receiver.received[4]!.headers['event-id'], event.id);
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'acknowledged');
      assert.equal((await who.call('GET', `/v1/events/${event.id}`)).body.delivery_state, 'acknowledged');
      await receiver.close();
    });

    it('a receiver that echoes the request back: the stored excerpt holds none of the endpoint\'s credentials', async () => {
      receiver = await startReceiver();
      receivers.push(receiver);
      const who = await tenant(t);
      const url = `${receiver.url}?token=Summer2024%21&v=2`;
      const created = await who.call('POST', '/v1/webhook_endpoints', { url, event_types: ['*'], headers: { 'X-Pwd': 'acme-hooks:Summer2024!', 'X-Gateway': 'Bearer gw_"quoted"_value' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      // An error page that shows the request (the URL, every header), cut by the excerpt's end inside a value.
      receiver.answer = (r) => {
        const html = `<td>${String(r.headers['x-gateway']).replaceAll('"', '&quot;')}</td><td>${Buffer.from(String(r.headers['x-pwd'])).toString('base64')}</td>`;
        const page = JSON.stringify({ url, pwd: r.headers['x-pwd'], gateway: r.headers['x-gateway'], decoded: 'token=Summer2024!', html });
        // The 1,024-byte excerpt ends 11 characters into the password, echoed once more.
        return { status: 500, body: page + ' '.repeat(1024 - 11 - page.length) + 'acme-hooks:Summer2024! and more' };
      };
      await raise(t, who.accountId);
      assert.equal(await dispatcher(t).runDue(), 1);
      const [attempt] = await t.gatehouse.database.db.selectFrom('webhook_attempts').selectAll().where('endpoint_id', '=', created.body.id).execute();
      const excerpt = attempt!.response_body!;
      assert.equal(attempt!.response_status, 500);
      const base64 = Buffer.from('acme-hooks:Summer2024!').toString('base64');
      for (const secret of ['Summer2024', 'acme-hooks', 'gw_', base64.slice(0, 12)]) assert.ok(!excerpt.includes(secret), `${secret} in ${excerpt}`);
      const html = '<td>[redacted]</td><td>[redacted]</td>';
      assert.ok(excerpt.startsWith(JSON.stringify({ url: `${receiver.url}?token=[redacted]&v=2`, pwd: '[redacted]', gateway: '[redacted]', decoded: 'token=[redacted]', html }) + ' '), excerpt);
      assert.ok(excerpt.endsWith('[redacted]'), 'the value the excerpt cuts short goes too');
      const shown = await who.call('GET', `/v1/webhook_endpoints/${created.body.id}/deliveries`);
      assert.equal(shown.status, 200);
      assert.equal(shown.body.data[0].response_body, excerpt);
      // Its retry is not left for the tests after this one.
      assert.equal((await who.call('DELETE', `/v1/webhook_endpoints/${created.body.id}`)).status, 204);
    });

    it('Retry-After on 429 is honoured: no retry before it, one after', async () => {
      const { who } = await fresh();
      receiver.answer = (r) => (receiver.received.indexOf(r) === 0 ? { status: 429, headers: { 'retry-after': '120' } } : 204);
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      t.clock.advance(60_000);
      assert.equal(await dispatcher(t).runDue(), 0);
      t.clock.advance(61_000);
      assert.equal(await dispatcher(t).runDue(), 1);
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'acknowledged');
      await receiver.close();
    });

    it('410 Gone disables the endpoint, parks the delivery and notifies the account’s other endpoints', async () => {
      const { who, endpoint } = await fresh(['invoice.settled']);
      const watcher = await startReceiver();
      await registerEndpoint(who, watcher.url, ['webhook_endpoint.disabled']);
      receiver.answer = () => 410;
      const event = await raise(t, who.accountId);
      await dispatcher(t).runDue();
      const got = await who.call('GET', `/v1/webhook_endpoints/${endpoint.id}`);
      assert.equal(got.body.status, 'disabled');
      assert.equal(got.body.disabled_reason, 'gone');
      assert.equal((await deliveriesOf(t, event.id))[0]!.state, 'parked');
      await dispatcher(t).runDue();
      assert.deepEqual(watcher.received.map((r) => r.body.event), ['webhook_endpoint.disabled']);
      assert.equal(watcher.received[0]!.body.id, endpoint.id);
      await raise(t, who.accountId);
      await dispatcher(t).runDue();
      assert.equal(receiver.received.length, 1, 'a disabled endpoint receives nothing new');
      await Promise.all([receiver.close(), watcher.close()]);
    });

    it('an endpoint failing for days is disabled with a notice event', async () => {
      const { who, endpoint } = await fresh(['invoice.settled']);
      receiver.answer = () => 500;
      for (let day = 0; day < 6; day++) {
        await raise(t, who.accountId);
        await dispatcher(t).runDue();
        t.clock.advance(24 * 3600 * 1000);
      }
      const got = await who.call('GET', `/v1/webhook_endpoints/${endpoint.id}`);
      assert.equal(got.body.status, 'disabled');
      assert.equal(got.body.disabled_reason, 'failing');
      const notices = await who.call('GET', '/v1/events?type=webhook_endpoint.disabled');
      assert.equal(notices.body.data.length, 1);
      assert.equal(notices.body.data[0].data.id, endpoint.id);
      await receiver.close();
    });

    it('one slow receiver cannot starve another: attempts per endpoint are bounded', async () => {
      const who = await tenant(t);
      const slow = await startReceiver();
      const fast = await startReceiver();
      slow.answer = () => ({ status: 204, delayMs: 300 });
      await registerEndpoint(who, slow.url, ['payout.created']);
      await registerEndpoint(who, fast.url, ['payout.paid']);
      for (let i = 0; i < 40; i++) await raise(t, who.accountId, 'payout.created', `po_${i}`);
      await raise(t, who.accountId, 'payout.paid');
      const run = dispatcher(t).runDue();
      await fast.waitFor(1, 2000);
      assert.ok(slow.received.length <= 16, `slow endpoint had ${slow.received.length} attempts in flight`);
      await run;
      assert.equal(slow.received.length, 40);
      await Promise.all([slow.close(), fast.close()]);
    });

    it('an endpoint deleted while its attempt is in flight: that attempt is not logged, the rest of its batch is; deleting an endpoint deletes its log', async () => {
      const who = await tenant(t);
      const [doomed, kept] = [await startReceiver(), await startReceiver()];
      receivers.push(doomed, kept);
      const gone = await registerEndpoint(who, doomed.url);
      const stays = await registerEndpoint(who, kept.url);
      let deletion: Promise<{ status: number }> | undefined;
      doomed.answer = () => ({ status: 204, after: (deletion = who.call('DELETE', `/v1/webhook_endpoints/${gone.id}`)) });
      const event = await raise(t, who.accountId);

      assert.equal(await dispatcher(t).runDue(), 2);
      assert.equal((await deletion)?.status, 204);
      const db = t.gatehouse.database.db;
      const deliveries = await deliveriesOf(t, event.id);
      assert.deepEqual(
        deliveries.map((d) => [d.endpoint_id, d.state]),
        [[stays.id, 'acknowledged']],
      );
      const logged = await db.selectFrom('webhook_attempts').select(['endpoint_id', 'outcome']).where('account_id', '=', who.accountId).execute();
      assert.deepEqual(logged, [{ endpoint_id: stays.id, outcome: 'succeeded' }]);

      assert.equal((await who.call('DELETE', `/v1/webhook_endpoints/${stays.id}`)).status, 204);
      assert.deepEqual(await db.selectFrom('webhook_attempts').select('id').where('account_id', '=', who.accountId).execute(), []);
      assert.deepEqual(await deliveriesOf(t, event.id), []);
    });
  });
}
