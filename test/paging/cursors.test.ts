import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { secretsKeyEnvFor, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { loadConfig } from '../../src/config.ts';
import { createGatehouse } from '../../src/app.ts';
import { createKeyRing, sealCursor } from '../../src/paging/cursor.ts';
import { api, fund, newTenant, readAll } from '../payments/api.ts';
import { insertInvoices, newestFirst } from './seed.ts';

const CURSOR_CODES = ['cursor_malformed', 'cursor_foreign', 'cursor_expired', 'cursor_mismatch'];

for (const target of databaseTargets()) {
  describe(`cursor paging (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    const page = (token: string, query: string, path = '/v1/invoices') => api(t, token, 'GET', `${path}?${query}`);

    it('newest first by (created_at, id), ties included; default limit 20; next_cursor null exactly at the end', async () => {
      const { token, accountId } = await newTenant(t);
      const base = t.clock.now() - 1_000_000;
      const createdAts = Array.from({ length: 45 }, (_, i) => base + Math.floor(i / 4) * 1000);
      const ids = await insertInvoices(t.gatehouse.database.db, accountId, createdAts);
      const expected = ids.map((id, i) => ({ id, created_at: createdAts[i]! })).sort(newestFirst).map((r) => r.id);

      const first = await page(token, '');
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 20);
      assert.equal(typeof first.body.next_cursor, 'string');
      const all = await readAll(t, token, '/v1/invoices', 20);
      assert.equal(all.pages, 3);
      assert.deepEqual(all.rows.map((r) => r.id), expected);

      const exact = await readAll(t, token, '/v1/invoices', 45);
      assert.equal(exact.pages, 1, 'a page holding the last row has next_cursor null');
      const hundred = await page(token, 'limit=100');
      assert.equal(hundred.body.data.length, 45);
      assert.equal(hundred.body.next_cursor, null);
    });

    it('limit outside 1-100, or not a whole number → 400 limit_out_of_range, as the guide says', async () => {
      const { token } = await newTenant(t);
      for (const limit of ['0', '101', '-1', '1000']) {
        const response = await page(token, `limit=${limit}`);
        assert.equal(response.status, 400, limit);
        assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(response.body.code, 'limit_out_of_range');
      }
      // Number() reads all of these; a whole number in a query is written in decimal digits.
      for (const limit of ['abc', '2.5', '0x10', '1e1', '%2B5', '%201', '', '0b11']) {
        const response = await page(token, `limit=${limit}`);
        assert.equal(response.status, 400, limit);
        assert.equal(response.body.code, 'limit_out_of_range');
      }
      assert.equal((await page(token, 'limit=1')).status, 200);
      assert.equal((await page(token, 'limit=100')).status, 200);
      assert.equal((await page(token, 'limit=007')).status, 200, 'leading zeros are still decimal');
    });

    it('tampered, foreign, expired and mismatched cursors → 400 with a distinct code each', async () => {
      const owner = await newTenant(t);
      const other = await newTenant(t);
      await insertInvoices(t.gatehouse.database.db, owner.accountId, [1, 2, 3].map((i) => t.clock.now() - i));
      const cursor: string = (await page(owner.token, 'limit=1')).body.next_cursor;

      const flipped = cursor.slice(0, -5) + (cursor.at(-5) === 'A' ? 'B' : 'A') + cursor.slice(-4);
      const cases: Array<[string, string, string, string]> = [
        ['altered', owner.token, `after=${encodeURIComponent(flipped)}`, 'cursor_malformed'],
        ['garbage', owner.token, 'after=not-a-cursor', 'cursor_malformed'],
        ['foreign', other.token, `after=${encodeURIComponent(cursor)}`, 'cursor_foreign'],
      ];
      for (const [what, token, query, code] of cases) {
        const response = await page(token, `limit=1&${query}`);
        assert.equal(response.status, 400, what);
        assert.equal(response.body.code, code, what);
      }
      const otherCollection = await page(owner.token, `limit=1&after=${encodeURIComponent(cursor)}`, '/v1/payouts');
      assert.equal(otherCollection.status, 400);
      assert.equal(otherCollection.body.code, 'cursor_mismatch');

      // A cursor held across a change of order (interface, versioning rule 3).
      const oldOrder = sealCursor(t.gatehouse.services.cursorKeys, {
        position: { key: t.clock.now(), id: 'inv_00000000000000000000' },
        order: 'invoices:created_at.asc,id.asc',
        filter: '-',
        accountId: owner.accountId,
        issuedAt: t.clock.now(),
      });
      const reordered = await page(owner.token, `limit=1&after=${encodeURIComponent(oldOrder)}`);
      assert.equal(reordered.status, 400);
      assert.equal(reordered.body.code, 'cursor_mismatch');

      t.clock.advance(24 * 3600 * 1000);
      const freshToken = await mintAccessToken(t, { accountId: owner.accountId, scopes: ['invoices:read'] });
      const expired = await page(freshToken, `limit=1&after=${encodeURIComponent(cursor)}`);
      assert.equal(expired.status, 400);
      assert.equal(expired.body.code, 'cursor_expired');
    });

    it('a ledger cursor continues only the read with the same filters', async () => {
      const { token } = await newTenant(t);
      for (let i = 0; i < 3; i++) await fund(t, token, 100 + i);
      const first = await page(token, 'limit=1&currency=EUR&direction=debit', '/v1/ledger/entries');
      assert.equal(first.status, 200);
      const cursor = encodeURIComponent(first.body.next_cursor);
      const same = await page(token, `limit=1&direction=debit&currency=EUR&after=${cursor}`, '/v1/ledger/entries');
      assert.equal(same.status, 200);
      for (const query of ['currency=USD&direction=debit', 'currency=EUR', 'currency=EUR&direction=credit', '']) {
        const response = await page(token, `limit=1&${query}&after=${cursor}`, '/v1/ledger/entries');
        assert.equal(response.status, 400, query);
        assert.equal(response.body.code, 'cursor_mismatch', query);
      }
    });

    it('1,000 mutated cursors (bit flips, truncation, extension, another account, another order) → all 400 cursor_*', async () => {
      const owner = await newTenant(t);
      const other = await newTenant(t);
      await insertInvoices(t.gatehouse.database.db, owner.accountId, [1, 2, 3].map((i) => t.clock.now() - i));
      await insertInvoices(t.gatehouse.database.db, other.accountId, [1, 2, 3].map((i) => t.clock.now() - i));
      const cursor: string = (await page(owner.token, 'limit=1')).body.next_cursor;
      const foreignCursor: string = (await page(other.token, 'limit=1')).body.next_cursor;
      const raw = Buffer.from(cursor);
      const mutations: string[] = [];
      for (let i = 0; mutations.length < 600; i++) {
        const bytes = Buffer.from(raw);
        const at = i % bytes.length;
        bytes[at] = bytes[at]! ^ (1 << (i % 7));
        const mutated = bytes.toString('latin1');
        if (mutated !== cursor) mutations.push(mutated);
      }
      for (let n = 1; n <= 150; n++) mutations.push(cursor.slice(0, Math.max(0, cursor.length - n)) || 'x');
      for (let n = 0; n < 100; n++) mutations.push(cursor + randomBytes(1 + (n % 8)).toString('base64url'));
      for (let n = 0; n < 100; n++) mutations.push(foreignCursor);
      const ring = t.gatehouse.services.cursorKeys;
      for (let n = 0; n < 50; n++) {
        mutations.push(
          sealCursor(ring, {
            position: { key: t.clock.now(), id: 'inv_00000000000000000000' },
            order: n % 2 ? 'invoices:created_at.asc,id.asc' : 'payouts:created_at.desc,id.desc',
            filter: '-',
            accountId: owner.accountId,
            issuedAt: t.clock.now(),
          }),
        );
      }
      const strangerRing = createKeyRing([{ id: ring.sealing.id, key: randomBytes(32) }]);
      mutations.push(
        sealCursor(strangerRing, { position: { key: 1, id: 'x' }, order: 'invoices:created_at.desc,id.desc', filter: '-', accountId: owner.accountId, issuedAt: t.clock.now() }),
      );
      assert.equal(mutations.length, 1001);

      const seen = new Map<string, number>();
      for (let i = 0; i < mutations.length; i += 25) {
        const batch = mutations.slice(i, i + 25);
        const responses = await Promise.all(batch.map((m) => page(owner.token, `limit=1&after=${encodeURIComponent(m)}`)));
        responses.forEach((response, j) => {
          assert.equal(response.status, 400, `mutation ${i + j}: ${JSON.stringify(batch[j])} → ${response.status}`);
          assert.ok(CURSOR_CODES.includes(response.body.code), `mutation ${i + j}: ${response.body.code}`);
          seen.set(response.body.code, (seen.get(response.body.code) ?? 0) + 1);
        });
      }
      assert.equal(seen.get('cursor_foreign'), 100);
      assert.equal(seen.get('cursor_mismatch'), 50);
    });

    it('cursors survive a restart (the generated key is shared through the database) and key rotation', async () => {
      const { token, accountId } = await newTenant(t);
      await insertInvoices(t.gatehouse.database.db, accountId, [1, 2, 3].map((i) => t.clock.now() - i));
      const cursor: string = (await page(token, 'limit=1')).body.next_cursor;
      t = await t.restart();
      const continued = await page(token, `limit=1&after=${encodeURIComponent(cursor)}`);
      assert.equal(continued.status, 200);
      assert.equal(continued.body.data.length, 1);
    });
  });
}

describe('cursor keys from GATEHOUSE_CURSOR_KEYS: the first seals, every one opens', () => {
  const [sqlite] = databaseTargets();
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');
  let t: TestApp;
  before(async () => {
    t = await startTestApp(sqlite!, { env: { GATEHOUSE_CURSOR_KEYS: `old:${oldKey}` } });
  });
  after(() => t.close());

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

  it('after rotation a cursor sealed with the old key still opens and new cursors carry the new key id; a dropped key → cursor_malformed', async () => {
    const { token, accountId } = await newTenant(t);
    await insertInvoices(t.gatehouse.database.db, accountId, [1, 2, 3].map((i) => t.clock.now() - i));
    const old: string = (await api(t, token, 'GET', '/v1/invoices?limit=1')).body.next_cursor;
    assert.match(old, /^old\./);

    const rotated = await nodeWithKeys(`new:${newKey},old:${oldKey}`);
    try {
      const response = await fetch(`${rotated.publicUrl}/v1/invoices?limit=1&after=${encodeURIComponent(old)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { data: unknown[]; next_cursor: string };
      assert.equal(body.data.length, 1);
      assert.match(body.next_cursor, /^new\./);
    } finally {
      await rotated.node.close();
    }

    const retired = await nodeWithKeys(`new:${newKey}`);
    try {
      const response = await fetch(`${retired.publicUrl}/v1/invoices?limit=1&after=${encodeURIComponent(old)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { code: string }).code, 'cursor_malformed');
    } finally {
      await retired.node.close();
    }
  });
});
