/**
 * What makes two requests the same for an Idempotency-Key (idempotency/fingerprint.ts):
 * canonical JSON, so member order, spacing and number spelling do not matter while any value
 * does; and the fingerprint over method, declared route, parameters, query and body.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { canonicalJson, requestFingerprint } from '../../src/idempotency/fingerprint.ts';

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
