import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { api, newTenant } from '../payments/api.ts';
import { insertInvoices } from './seed.ts';

for (const target of databaseTargets()) {
  describe(`paging while rows change (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('a writer inserts and deletes while a reader pages: every row present for the whole read is returned exactly once, none twice', async () => {
      const { token, accountId } = await newTenant(t);
      const db = t.gatehouse.database.db;
      const now = t.clock.now();
      // 600 rows over 150 instants: four rows share every created_at.
      const initialCreatedAts = Array.from({ length: 600 }, (_, i) => now - 1_000_000 + Math.floor(i / 4) * 1000);
      const initial = await insertInvoices(db, accountId, initialCreatedAts);
      const deleted = new Set<string>();
      const inserted = new Set<string>();

      let reading = true;
      const writer = (async () => {
        let round = 0;
        while (reading) {
          round += 1;
          // New rows land everywhere in the order: before, among (equal created_at) and after the reader.
          const at = now - 1_000_000 + Math.floor(Math.random() * 150) * 1000 + (round % 2) * 500;
          for (const id of await insertInvoices(db, accountId, [at, now + round])) inserted.add(id);
          const victim = initial[Math.floor(Math.random() * initial.length)]!;
          deleted.add(victim);
          await db.deleteFrom('invoices').where('id', '=', victim).execute();
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();

      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      try {
        do {
          const query: string = `/v1/invoices?limit=7${after ? `&after=${encodeURIComponent(after)}` : ''}`;
          const response = await api(t, token, 'GET', query);
          assert.equal(response.status, 200);
          seen.push(...response.body.data.map((r: { id: string }) => r.id));
          after = response.body.next_cursor;
          pages += 1;
        } while (after !== null);
      } finally {
        reading = false;
        await writer;
      }

      assert.ok(pages > 80, `read ${pages} pages`);
      assert.ok(deleted.size > 10 && inserted.size > 10, `${deleted.size} deletions, ${inserted.size} insertions during the read`);
      assert.equal(new Set(seen).size, seen.length, 'no row twice');
      const seenSet = new Set(seen);
      const present = initial.filter((id) => !deleted.has(id));
      for (const id of present) assert.ok(seenSet.has(id), `row ${id} present for the whole read was returned`);
      for (const id of seen) assert.ok(initial.includes(id) || inserted.has(id), 'only real rows');
    });
  });
}
