/**
 * The webhook collections (endpoints, events, an endpoint's attempt log) page through the
 * same paging as every /v1 collection: their cursors live GATEHOUSE_CURSOR_TTL on the
 * injected clock, are sealed by the first of GATEHOUSE_CURSOR_KEYS and opened by any key still
 * listed, and are refused with the cursor_* codes of docs/PAYMENTS.md.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { secretsKeyEnvFor, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { loadConfig } from '../../src/config.ts';
import { createGatehouse } from '../../src/app.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { ALLOW_LOOPBACK, dispatcher, raise, registerEndpoint, tenant, type Tenant } from './support.ts';

const TTL_SECONDS = 60;
const OLD_KEY = randomBytes(32).toString('base64');
const NEW_KEY = randomBytes(32).toString('base64');

for (const target of databaseTargets()) {
  describe(`webhook collections page with the cursor keys and GATEHOUSE_CURSOR_TTL (${target.kind})`, () => {
    let t: TestApp;
    let receiver: Receiver;
    let who: Tenant;
    /** The three webhook collections of `who`, each holding more than one page of limit=1. */
    let paths: string[];
    let otherEndpointLog: string;

    before(async () => {
      t = await startTestApp(target, {
        env: { ...ALLOW_LOOPBACK, GATEHOUSE_CURSOR_TTL: String(TTL_SECONDS), GATEHOUSE_CURSOR_KEYS: `old:${OLD_KEY}` },
      });
      receiver = await startReceiver();
      who = await tenant(t);
      const endpoint = await registerEndpoint(who, receiver.url);
      const other = await registerEndpoint(who, receiver.url);
      await registerEndpoint(who, receiver.url);
      for (let i = 0; i < 3; i++) {
        t.clock.advance(1);
        await raise(t, who.accountId, 'invoice.settled', `inv_${i}`);
      }
      await dispatcher(t).runDue();
      paths = ['/v1/webhook_endpoints', '/v1/events', `/v1/webhook_endpoints/${endpoint.id}/deliveries`];
      otherEndpointLog = `/v1/webhook_endpoints/${other.id}/deliveries`;
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });

    async function firstCursor(path: string): Promise<string> {
      const first = await who.call('GET', `${path}?limit=1`);
      assert.equal(first.status, 200, path);
      assert.equal(first.body.data.length, 1, path);
      assert.equal(typeof first.body.next_cursor, 'string', path);
      return first.body.next_cursor;
    }

    const next = (path: string, cursor: string) => who.call('GET', `${path}?limit=1&after=${encodeURIComponent(cursor)}`);

    it('a cursor opens until GATEHOUSE_CURSOR_TTL has passed on the clock, then → 400 cursor_expired', async () => {
      const cursors = new Map<string, string>();
      for (const path of paths) cursors.set(path, await firstCursor(path));

      t.clock.advance(TTL_SECONDS * 1000 - 1);
      for (const [path, cursor] of cursors) {
        const continued = await next(path, cursor);
        assert.equal(continued.status, 200, `${path}: ${JSON.stringify(continued.body)}`);
        assert.equal(continued.body.data.length, 1, path);
      }

      t.clock.advance(1);
      for (const [path, cursor] of cursors) {
        const expired = await next(path, cursor);
        assert.equal(expired.status, 400, path);
        assert.match(expired.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(expired.body.code, 'cursor_expired', path);
      }
    });

    it('an attempt log cursor continues only the log of its endpoint → 400 cursor_mismatch on another endpoint', async () => {
      const cursor = await firstCursor(paths[2]!);
      const elsewhere = await next(otherEndpointLog, cursor);
      assert.equal(elsewhere.status, 400);
      assert.equal(elsewhere.body.code, 'cursor_mismatch');
      assert.equal((await next(paths[2]!, cursor)).status, 200);
    });

    it('limit outside 1-100, or not a number → 400 limit_out_of_range, on every webhook collection', async () => {
      for (const path of paths) {
        for (const limit of ['0', '101']) {
          const response = await who.call('GET', `${path}?limit=${limit}`);
          assert.equal(response.status, 400, `${path} ${limit}`);
          assert.equal(response.body.code, 'limit_out_of_range', `${path} ${limit}`);
        }
        const response = await who.call('GET', `${path}?limit=abc`);
        assert.equal(response.status, 400, path);
        assert.equal(response.body.code, 'limit_out_of_range', path);
        const all = await who.call('GET', path);
        assert.equal(all.status, 200, path);
        assert.equal(all.body.next_cursor, null, `${path}: the default limit (20) holds every row here`);
      }
    });

    /** Another node on the same database with other cursor keys. */
    async function nodeWithKeys(keys: string) {
      const config = loadConfig({
        GATEHOUSE_DATABASE_URL: t.config.databaseUrl,
        ...secretsKeyEnvFor(t.config.databaseUrl),
        GATEHOUSE_DATA_DIR: t.config.dataDir,
        GATEHOUSE_HOST: '127.0.0.1',
        GATEHOUSE_PORT: '0',
        GATEHOUSE_ADMIN_PORT: '0',
        GATEHOUSE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        GATEHOUSE_LOG_LEVEL: 'silent',
        GATEHOUSE_IN_PROCESS_WORKERS: 'off',
        GATEHOUSE_CURSOR_KEYS: keys,
      });
      const node = await createGatehouse(config, { clock: t.clock, database: t.gatehouse.database });
      const { publicUrl } = await node.listen();
      return { node, publicUrl };
    }

    async function readOn(publicUrl: string, path: string, cursor: string) {
      const response = await fetch(`${publicUrl}${path}?limit=1&after=${encodeURIComponent(cursor)}`, {
        headers: { authorization: `Bearer ${who.token}` },
      });
      return { status: response.status, body: (await response.json()) as { code?: string; data?: unknown[]; next_cursor?: string | null } };
    }

    it('a cursor sealed with a key still listed opens on a node that rotated to a new key, which seals the next one; a dropped key → 400 cursor_malformed', async () => {
      const cursors = new Map<string, string>();
      for (const path of paths) {
        const cursor = await firstCursor(path);
        assert.match(cursor, /^old\./, `${path}: sealed by the first key of GATEHOUSE_CURSOR_KEYS`);
        cursors.set(path, cursor);
      }

      const rotated = await nodeWithKeys(`new:${NEW_KEY},old:${OLD_KEY}`);
      try {
        for (const [path, cursor] of cursors) {
          const continued = await readOn(rotated.publicUrl, path, cursor);
          assert.equal(continued.status, 200, `${path}: ${JSON.stringify(continued.body)}`);
          assert.equal(continued.body.data?.length, 1, path);
          assert.match(continued.body.next_cursor ?? '', /^new\./, path);
        }
      } finally {
        await rotated.node.close();
      }

      const retired = await nodeWithKeys(`new:${NEW_KEY}`);
      try {
        for (const [path, cursor] of cursors) {
          const refused = await readOn(retired.publicUrl, path, cursor);
          assert.equal(refused.status, 400, path);
          assert.equal(refused.body.code, 'cursor_malformed', path);
        }
      } finally {
        await retired.node.close();
      }
    });
  });
}
