/**
 * The webhook retry schedule (webhooks/schedule.ts, interface "Events" rule 4) and the
 * signature headers (webhooks/signer.ts), checked against the stock verifiers a receiver uses:
 * @octokit/webhooks-methods for `Signature`, standardwebhooks for `webhook-signature`.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { nextStep, parseRetryAfter, RETRY_CEILING_MS } from '../../src/webhooks/schedule.ts';
import { signatureHeaders, signingKey } from '../../src/webhooks/signer.ts';

const NOW = Date.UTC(2030, 0, 1);

describe('webhook retry schedule', () => {
  const schedule = [5, 300, 1800];

  it('the n-th failure waits the n-th delay, within ±10% jitter', () => {
    for (const [failures, seconds] of [[1, 5], [2, 300], [3, 1800]] as const) {
      const low = nextStep({ failures, scheduleSeconds: schedule, now: NOW, random: () => 0 });
      const high = nextStep({ failures, scheduleSeconds: schedule, now: NOW, random: () => 1 });
      assert.deepEqual(low, { kind: 'retry', at: NOW + Math.round(seconds * 900) });
      assert.deepEqual(high, { kind: 'retry', at: NOW + Math.round(seconds * 1100) });
    }
  });

  it('a failure beyond the last delay parks the delivery', () => {
    assert.deepEqual(nextStep({ failures: 4, scheduleSeconds: schedule, now: NOW }), { kind: 'park' });
  });

  it('a longer Retry-After is honoured, a shorter one is not, and neither beyond the ceiling', () => {
    const at = (retryAfterMs: number) => nextStep({ failures: 1, scheduleSeconds: schedule, now: NOW, retryAfterMs, random: () => 0.5 });
    assert.deepEqual(at(60_000), { kind: 'retry', at: NOW + 60_000 });
    assert.deepEqual(at(1_000), { kind: 'retry', at: NOW + 5_000 });
    assert.deepEqual(at(RETRY_CEILING_MS * 2), { kind: 'retry', at: NOW + RETRY_CEILING_MS });
  });

  it('RFC 9110 §10.2.3: Retry-After as delay-seconds or an HTTP date; anything else is ignored', () => {
    assert.equal(parseRetryAfter(' 120 ', NOW), 120_000);
    assert.equal(parseRetryAfter(new Date(NOW + 30_000).toUTCString(), NOW), 30_000);
    assert.equal(parseRetryAfter(new Date(NOW - 30_000).toUTCString(), NOW), 0);
    assert.equal(parseRetryAfter('soon', NOW), undefined);
    assert.equal(parseRetryAfter(undefined, NOW), undefined);
  });
});

describe('webhook signature headers', () => {
  const current = 'whsec_' + Buffer.from('the newer secret, 32 bytes long!').toString('base64');
  const previous = 'whsec_' + Buffer.from('the older secret, 32 bytes long!').toString('base64');
  const body = Buffer.from('{"id":"evt_1","type":"payout.paid","data":{"amount":400}}');
  const input = {
    eventId: 'evt_1',
    deliveryId: 'dlv_1',
    eventType: 'payout.paid',
    body,
    raisedAt: NOW - 60_000,
    attemptAt: Date.now(),
  };

  it('Signature verifies with @octokit/webhooks-methods over the exact bytes, keyed by the secret string', async () => {
    const headers = signatureHeaders({ ...input, keys: [signingKey(current)] });
    assert.equal(await verify(current, body.toString('utf8'), headers.signature!), true);
    assert.equal(await verify(previous, body.toString('utf8'), headers.signature!), false);
  });

  it('webhook-signature verifies with standardwebhooks, for either secret during a rotation overlap', () => {
    const headers = signatureHeaders({ ...input, keys: [signingKey(current), signingKey(previous)] });
    assert.equal(headers['webhook-signature']!.split(' ').length, 2);
    for (const secret of [current, previous]) assert.doesNotThrow(() => new Webhook(secret).verify(body.toString('utf8'), headers));
    assert.throws(() => new Webhook(current).verify(body.toString('utf8') + ' ', headers));
  });

  it('Timestamp is when the event was raised; webhook-timestamp when the attempt is made', () => {
    const headers = signatureHeaders({ ...input, keys: [signingKey(current)] });
    assert.equal(headers.timestamp, new Date(input.raisedAt).toISOString());
    assert.equal(headers['webhook-timestamp'], String(Math.floor(input.attemptAt / 1000)));
    assert.equal(headers['webhook-id'], 'evt_1');
    assert.equal(headers['event-type'], 'payout.paid');
  });

  it('an endpoint without a secret is a programming error, not an unsigned request', () => {
    assert.throws(() => signatureHeaders({ ...input, keys: [] }));
  });
});
