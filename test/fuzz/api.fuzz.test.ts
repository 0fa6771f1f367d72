/**
 * Fuzzing the /v1 API: JSON bodies at every POST (deep nesting, huge numbers, wrong types,
 * duplicate and prototype keys, invalid UTF-8), Idempotency-Key values, paging cursors and
 * limits, and webhook endpoint URLs. Properties: never a 5xx, the server still answers, every
 * error is problem+json with a catalogued code, and a refused request stores nothing (a
 * business refusal made under a key stores only that key's outcome, by design). Runs on both
 * databases: text that SQLite stores, PostgreSQL may refuse (NUL bytes), and the fuzz must
 * show that neither turns into a 500.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { databaseTargets } from '../helpers/databases.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  assertAlive, assertProblem, assertUnchanged, formEncode, formValue, fuzz, headerValue, nastyJsonText, nastyString, rawRequest, stateDigest, type RawResponse, type StateTable,
} from './support.ts';

const SCOPES = ['invoices:read', 'invoices:write', 'payouts:read', 'payouts:write', 'ledger:read', 'webhooks:manage', 'events:read'];
/** Business refusals that the write runner stores against the key (replayed later), by design. */
/** What a /v1 write can touch. */
const TABLES: StateTable[] = ['invoices', 'payouts', 'ledger_entries', 'balances', 'idempotency_keys', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_queue', 'webhook_attempts'];
const STORED_REFUSALS = new Set(['insufficient_funds', 'invoice_already_settled', 'invoice_not_found', 'payout_not_found', 'webhook_endpoint_not_found', 'webhook_endpoint_disabled', 'event_not_found', 'webhook_url_invalid']);

for (const target of databaseTargets()) {
  const runs = target.kind === 'sqlite' ? 1 : 0.5;
  describe(`fuzz: /v1 JSON bodies, Idempotency-Key, cursors, webhook URLs (${target.kind})`, () => {
    let t: TestApp;
    let token: string;
    let invoiceId: string;
    let endpointId: string;
    let eventId: string;

    const post = (path: string, body: Buffer | string, headers: Array<[string, string | Buffer]> = []) =>
      rawRequest(t.publicUrl, {
        method: 'POST',
        target: path,
        headers: [['authorization', `Bearer ${token}`], ['content-type', 'application/json'], ...headers],
        body,
      });

    /** A refusal is problem+json and stores nothing but, for business refusals, the key's outcome. */
    async function check(response: RawResponse, before: Record<string, string>, context: string) {
      await assertAlive(t, response, context);
      if (response.status < 300) return true;
      const body = assertProblem(response, context);
      const after = await stateDigest(t.gatehouse.database.db, TABLES);
      assertUnchanged(before, after, context, STORED_REFUSALS.has(String(body.code)) ? ['idempotency_keys'] : []);
      return false;
    }

    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'warn', GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
      const accountId = await createAccount(t);
      token = await mintAccessToken(t, { accountId, scopes: SCOPES });
      const call = async (path: string, body: unknown) => {
        const response = await post(path, JSON.stringify(body), [['idempotency-key', randomUUID()]]);
        assert.ok(response.status < 300, response.text);
        return response.json() as Record<string, string>;
      };
      invoiceId = (await call('/v1/invoices', { amount: 5000, currency: 'EUR' })).id!;
      endpointId = (await call('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', event_types: ['*'] })).id!;
      await call(`/v1/invoices/${(await call('/v1/invoices', { amount: 100, currency: 'EUR' })).id}/settle`, {});
      const events = await rawRequest(t.publicUrl, { method: 'GET', target: '/v1/events?limit=1', headers: [['authorization', `Bearer ${token}`]] });
      eventId = (events.json() as { data: Array<{ id: string }> }).data[0]!.id;
    });
    after(() => t.close());

    const postTargets = () => [
      { path: '/v1/invoices', base: { amount: 1200, currency: 'EUR', description: 'x', metadata: { a: 'b' } } },
      { path: '/v1/payouts', base: { amount: 10, currency: 'EUR', destination: 'acct_dest_1' } },
      { path: `/v1/invoices/${invoiceId}/settle`, base: {} as Record<string, unknown> },
      { path: '/v1/webhook_endpoints', base: { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.settled'], description: 'd' } },
      { path: `/v1/webhook_endpoints/${endpointId}`, base: { url: 'http://127.0.0.1:9/other', event_types: ['*'], description: null } },
      { path: `/v1/webhook_endpoints/${endpointId}/rotate_secret`, base: { overlap_seconds: 60 } },
      { path: `/v1/webhook_endpoints/${endpointId}/recover`, base: { since: '2020-01-01T00:00:00Z' } },
      { path: `/v1/webhook_endpoints/${endpointId}/disable`, base: {} as Record<string, unknown> },
      { path: `/v1/events/${eventId}/redeliver`, base: {} as Record<string, unknown> },
    ];

    it('every /v1 POST: adversarial JSON bodies → 2xx or problem+json with a catalogued code; refused bodies store nothing', async () => {
      const cases = fc.constantFrom(...postTargets()).chain((target) => nastyJsonText(target.base).map((body) => ({ path: target.path, body })));
      await fuzz(cases, 150 * runs, async ({ path, body }) => {
        const before = await stateDigest(t.gatehouse.database.db, TABLES);
        const response = await post(path, body, [['idempotency-key', randomUUID()]]);
        const context = `POST ${path} ${body.toString('latin1').slice(0, 300)}`;
        if (await check(response, before, context)) {
          // Accepted: what came back is JSON, and no prototype was polluted on the way.
          assert.equal(({} as Record<string, unknown>).polluted, undefined, `${context}: Object.prototype polluted`);
          response.json();
        }
      });
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype polluted');
    });

    it('Idempotency-Key: any header value → accepted (1-255 printable ASCII) or idempotency_key_invalid; never a 5xx', async () => {
      const keys = fc.oneof(headerValue, fc.array(headerValue, { minLength: 2, maxLength: 3 }));
      await fuzz(keys, 80 * runs, async (key) => {
        const before = await stateDigest(t.gatehouse.database.db, TABLES);
        const values = Array.isArray(key) ? key : [key];
        const response = await post('/v1/invoices', JSON.stringify({ amount: 1, currency: 'EUR' }), values.map((v) => ['idempotency-key', v] as [string, Buffer]));
        const context = `Idempotency-Key ${JSON.stringify(values.map((v) => v.toString('latin1')))}`;
        const text = values.map((v) => v.toString('latin1').trim());
        const valid = values.length === 1 && /^[\x20-\x7e]{1,255}$/.test(text[0]!);
        if (await check(response, before, context)) {
          assert.ok(valid, `${context}: accepted an invalid key`);
          return;
        }
        const code = (response.json() as { code: string }).code;
        assert.ok(!valid || code !== 'idempotency_key_invalid', `${context}: refused a valid key`);
        if (!valid) assert.match(code, /^idempotency_key_(invalid|missing)$/, context);
      });
    });

    it('paging: any cursor and limit on every collection → a page or a catalogued 400; nothing stored', async () => {
      const lists = ['/v1/invoices', '/v1/payouts', '/v1/ledger/entries', '/v1/events', '/v1/webhook_endpoints', `/v1/webhook_endpoints/${endpointId}/deliveries`];
      const cursorOf = async (path: string) => {
        const page = await rawRequest(t.publicUrl, { method: 'GET', target: `${path}?limit=1`, headers: [['authorization', `Bearer ${token}`]] });
        return (page.json() as { next_cursor: string | null }).next_cursor;
      };
      const real = (await Promise.all(lists.map(cursorOf))).filter((c): c is string => typeof c === 'string');
      assert.ok(real.length > 0);
      const mutate = (c: string, i: number, ch: string) => c.slice(0, i % c.length) + ch + c.slice((i % c.length) + 1);
      const cursor = fc.oneof(
        nastyString.map(formEncode),
        formValue,
        fc.tuple(fc.constantFrom(...real), fc.nat(), fc.constantFrom('A', '_', '-', '0', '.', '%2F')).map(([c, i, ch]) => mutate(c, i, ch)),
        fc.tuple(fc.constantFrom(...real), fc.nat()).map(([c, i]) => c.slice(0, i % c.length)),
        fc.constantFrom(...real),
        fc.base64String({ maxLength: 200 }).map(formEncode),
      );
      const limit = fc.oneof(fc.constantFrom('1', '20', '100', '0', '-1', '101', '1e2', '2.5', 'abc', '', '99999999999999999999', '%00'), fc.integer().map(String));
      const query = fc.tuple(fc.constantFrom(...lists), fc.option(cursor), fc.option(limit), fc.option(fc.tuple(fc.constantFrom('type', 'delivery_state', 'event_id', 'state', 'currency', 'x'), formValue)));
      const before = await stateDigest(t.gatehouse.database.db, TABLES);
      await fuzz(query, 120 * runs, async ([path, after, lim, extra]) => {
        const params = [after === null ? '' : `after=${after}`, lim === null ? '' : `limit=${lim}`, extra === null ? '' : `${extra[0]}=${extra[1]}`].filter(Boolean).join('&');
        const response = await rawRequest(t.publicUrl, { method: 'GET', target: `${path}?${params}`, headers: [['authorization', `Bearer ${token}`]] });
        const context = `GET ${path}?${params}`;
        await assertAlive(t, response, context);
        if (response.status === 200) {
          const page = response.json() as { data: unknown[]; next_cursor: unknown };
          assert.ok(Array.isArray(page.data), context);
          return;
        }
        const body = assertProblem(response, context);
        assert.equal(response.status, 400, `${context}: ${String(body.code)}`);
      });
      assertUnchanged(before, await stateDigest(t.gatehouse.database.db, TABLES), 'paging');
    });

    it('webhook endpoint URLs: any URL → 201 for a public http(s) URL, else webhook_url_invalid, validation_failed or malformed_request; refused URLs store nothing', async () => {
      const host = fc.constantFrom(
        'example.com', '127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:10.0.0.1]', '[::ffff:169.254.169.254]', '[fe80::1]', '0.0.0.0', '0x7f.0.0.1', '2130706433',
        '017700000001', 'localhost', 'LOCALHOST.', 'metadata.google.internal', '192.168.1.1', '[::]', '100.64.0.1', 'xn--', '-bad-.example', 'a'.repeat(300) + '.com',
      );
      const url = fc.oneof(
        fc.tuple(fc.constantFrom('http', 'https', 'HTTP', 'ftp', 'file', 'javascript', 'gopher', 'data', 'ws'), host, fc.option(fc.constantFrom(':0', ':65536', ':8080', ':-1', ':abc')), fc.constantFrom('/', '/hook', '/%2e%2e/', '?q=1', '#f', '')).map(
          ([scheme, h, port, path]) => `${scheme}://${h}${port ?? ''}${path}`,
        ),
        fc.tuple(fc.constantFrom('user:pass@', 'example.com@', '@', ''), host).map(([u, h]) => `https://${u}${h}/hook`),
        nastyString,
        fc.webUrl(),
      );
      await fuzz(url, 60 * runs, async (u) => {
        const before = await stateDigest(t.gatehouse.database.db, TABLES);
        const response = await post('/v1/webhook_endpoints', JSON.stringify({ url: u, event_types: ['*'] }), [['idempotency-key', randomUUID()]]);
        const context = `webhook url ${JSON.stringify(u)}`;
        if (await check(response, before, context)) {
          const parsed = new URL(u);
          assert.ok(['http:', 'https:'].includes(parsed.protocol), `${context}: accepted scheme ${parsed.protocol}`);
          // Loopback is allowed in this app (GATEHOUSE_WEBHOOK_ALLOW_NETWORKS=127.0.0.0/8); nothing else private is.
          assert.doesNotMatch(parsed.hostname, /^(10\.|192\.168\.|169\.254\.|0\.|\[::\]|\[::1\]|\[fe80|\[::ffff:a00:|\[::ffff:a9fe:)/i, `${context}: accepted a private host`);
          return;
        }
        const code = (response.json() as { code: string }).code;
        assert.ok(['webhook_url_invalid', 'validation_failed', 'malformed_request'].includes(code), `${context}: ${code}`);
      });
    });
  });
}
