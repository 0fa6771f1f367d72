/**
 * A client's `jwks_uri` fetched as a stranger might try to misuse it: many assertions naming
 * unknown kids at once share one fetch, a failed fetch is not retried within the refresh
 * interval, and a key server that trickles its answer is cut off at the deadline for the whole
 * exchange, not kept by every byte it sends.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestClock } from '../../src/platform/clock.ts';
import { createTargetPolicy } from '../../src/webhooks/target-policy.ts';
import { createRemoteJwks, JwksUnavailable } from '../../src/oauth/jwks-fetch.ts';

const KEY = { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' };

describe('jwks_uri fetches', () => {
  const clock = createTestClock(Date.now());
  const policy = createTargetPolicy({ allowNetworks: ['127.0.0.0/8'], requireHttps: false });
  let server: http.Server;
  let base: string;
  let fetches = 0;
  let answer: (response: http.ServerResponse) => void = () => {};
  before(async () => {
    server = http.createServer((_request, response) => {
      fetches++;
      answer(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('assertions arriving while a fetch is under way wait for it: one fetch for all of them', async () => {
    const jwks = createRemoteJwks({ policy, clock, timeoutMs: 5_000 });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    answer = (response) => void released.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [KEY] })));
    const before = fetches;
    const asked = Array.from({ length: 25 }, () => jwks.get(`${base}/together`, { refresh: true }));
    await new Promise((resolve) => setImmediate(resolve));
    release();
    const sets = await Promise.all(asked);
    assert.equal(fetches, before + 1);
    assert.ok(sets.every((set) => set.keys[0]?.kid === 'k1'));
    await jwks.close();
  });

  it('a failed fetch is not tried again within the refresh interval; after it, it is', async () => {
    const jwks = createRemoteJwks({ policy, clock, timeoutMs: 5_000, minRefreshMs: 10_000 });
    answer = (response) => response.writeHead(503).end();
    const before = fetches;
    await assert.rejects(jwks.get(`${base}/down`), (error: Error) => error instanceof JwksUnavailable && /answered 503/.test(error.message));
    await assert.rejects(jwks.get(`${base}/down`, { refresh: true }), JwksUnavailable);
    assert.equal(fetches, before + 1, 'the second assertion fetched nothing');
    clock.advance(10_001);
    answer = (response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [KEY] }));
    assert.equal((await jwks.get(`${base}/down`)).keys.length, 1);
    assert.equal(fetches, before + 2);
    await jwks.close();
  });

  it('a key server trickling its answer is cut off at the deadline of the whole exchange', async () => {
    const jwks = createRemoteJwks({ policy, clock, timeoutMs: 400 });
    // A byte every 50 ms: each one restarts a timer between chunks, never the whole deadline.
    answer = (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => (response.destroyed ? clearInterval(drip) : response.write(' ')), 50);
      response.on('close', () => clearInterval(drip));
    };
    const started = performance.now();
    await assert.rejects(jwks.get(`${base}/trickle`), (error: Error) => error instanceof JwksUnavailable && /no complete answer within 400 ms/.test(error.message));
    const took = performance.now() - started;
    assert.ok(took < 2_000, `cut off after ${Math.round(took)} ms`);
    await jwks.close();
  });
});
