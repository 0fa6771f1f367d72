import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { newTenant, readAll } from '../payments/api.ts';
import { insertInvoices, newestFirst } from './seed.ts';

for (const target of databaseTargets()) {
  describe(`keyset paging property (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('any data with many equal created_at, any page size: the pages concatenated are the full ordered set, each row once', async () => {
      await fc.assert(
        fc.asyncProperty(
          // Few distinct instants for many rows, so most rows tie on created_at.
          fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 0, maxLength: 70 }),
          fc.integer({ min: 1, max: 100 }),
          async (offsets, limit) => {
            const { token, accountId } = await newTenant(t);
            const base = t.clock.now() - 10_000;
            const createdAts = offsets.map((o) => base + o);
            const ids = await insertInvoices(t.gatehouse.database.db, accountId, createdAts);
            const expected = ids
              .map((id, i) => ({ id, created_at: createdAts[i]! }))
              .sort(newestFirst)
              .map((r) => r.id);
            const { rows, pages } = await readAll(t, token, '/v1/invoices', limit);
            assert.deepEqual(rows.map((r) => r.id), expected);
            assert.equal(pages, Math.max(1, Math.ceil(expected.length / limit)));
          },
        ),
        { numRuns: 40 },
      );
    });
  });
}
