/**
 * What makes two requests the same for an Idempotency-Key (idempotency/fingerprint.ts):
 * canonical JSON, so member order, spacing and number spelling do not matter while any value
 * does; and the fingerprint over method, declared route, parameters, query and body, keyed, so
 * that a copy of the database cannot test guesses of a body against it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { createHash, randomBytes } from 'node:crypto';
import { canonicalJson, fingerprintKeyOf, isFingerprintOf, requestFingerprints } from '../../src/idempotency/fingerprint.ts';

const fingerprintOf = requestFingerprints(fingerprintKeyOf(randomBytes(32)));
const requestFingerprint = (r: FastifyRequest, route: { url: string }) => fingerprintOf(r, route).value;

function request(parts: { method?: string; params?: unknown; query?: unknown; body?: unknown }): FastifyRequest {
  return { method: 'POST', params: {}, query: {}, body: null, ...parts } as unknown as FastifyRequest;
}
const route = { url: '/v1/payouts' };

describe('request fingerprints', () => {
  it('canonical JSON sorts members at every depth and drops undefined ones', () => {
    assert.equal(canonicalJson(JSON.parse('{ "b": [1.0, {"z": 1, "a": 2}], "a": null }')), '{"a":null,"b":[1,{"a":2,"z":1}]}');
    assert.equal(canonicalJson({ a: undefined, b: 1 }), '{"b":1}');
    assert.equal(canonicalJson(undefined), 'null');
  });

  it('any JSON value parses back from its canonical form unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.deepEqual(JSON.parse(canonicalJson(value)), JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('the stored value is keyed: another secrets key gives another value, and the unkeyed digest of the request is not it', () => {
    const body = { url: 'https://hooks.example.com/in', event_types: ['payout.paid'], headers: { authorization: 'Basic YWNtZTpTdW1tZXIyMDI0IQ==' } };
    const of = (secretsKey: Buffer) => requestFingerprints(fingerprintKeyOf(secretsKey))(request({ body }), route);
    const key = randomBytes(32);
    const fingerprint = of(key);
    assert.match(fingerprint.value, /^[0-9a-f]{64}$/);
    assert.equal(of(key).value, fingerprint.value, 'one key, one value: every node of an installation agrees');
    assert.notEqual(of(randomBytes(32)).value, fingerprint.value);
    const unkeyed = createHash('sha256').update(fingerprint.canonical).digest('hex');
    assert.notEqual(fingerprint.value, unkeyed);
    // A key stored with the unkeyed digest still names the same request (a retry across an upgrade is replayed).
    assert.equal(isFingerprintOf(unkeyed, fingerprint), true);
    assert.equal(isFingerprintOf(fingerprint.value, fingerprint), true);
    assert.equal(isFingerprintOf(of(randomBytes(32)).value, fingerprint), false);
  });

  it('the same request however its body is spelled; another value, query, method or route is another request', () => {
    const base = requestFingerprint(request({ body: JSON.parse('{"amount": 400, "currency": "EUR"}') }), route);
    assert.match(base, /^[0-9a-f]{64}$/);
    assert.equal(requestFingerprint(request({ body: JSON.parse('{"currency":"EUR","amount":4.00e2}') }), route), base);
    assert.notEqual(requestFingerprint(request({ body: { amount: 401, currency: 'EUR' } }), route), base);
    assert.notEqual(requestFingerprint(request({ body: { amount: 400, currency: 'EUR' }, query: { dry: '1' } }), route), base);
    assert.notEqual(requestFingerprint(request({ body: { amount: 400, currency: 'EUR' }, method: 'PUT' }), route), base);
    assert.notEqual(requestFingerprint(request({ body: { amount: 400, currency: 'EUR' } }), { url: '/v1/invoices' }), base);
  });
});
