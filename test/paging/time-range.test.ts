/**
 * Every collection that takes `since` and `until` refuses a range that holds no instant (the two
 * swapped, or equal) with the same problem, 400 validation_failed "since must be before until",
 * where it would otherwise answer an empty page; the same range the right way round reads what
 * is stored.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { ALL_SCOPES, api, fund, newTenant } from '../payments/api.ts';

const COLLECTIONS = ['/v1/invoices', '/v1/payouts', '/v1/ledger/entries', '/v1/events', '/v1/audit-events'];

for (const target of databaseTargets()) {
  describe(`since and until on every collection (${target.kind})`, () => {
    let t: TestApp;
    let accountId: string;
    let token: string;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_PAYOUT_DELAY: '30' } });
      ({ accountId, token } = await newTenant(t));
      await fund(t, token, 5_000);
      const payout = await api(t, token, 'POST', '/v1/payouts', { amount: 1_000, currency: 'EUR', destination: 'iban:DE89370400440532013000' });
      assert.equal(payout.status, 201, JSON.stringify(payout.body));
      token = await mintAccessToken(t, { accountId, scopes: [...ALL_SCOPES, 'events:read', 'audit:read'] });
    });
    after(() => t.close());

    const iso = (ms: number) => new Date(ms).toISOString();

    it('since after until, or equal to it → 400 validation_failed "since must be before until", on each collection and the admin trail', async () => {
      const now = t.clock.now();
      const ranges = [`since=${iso(now + 3_600_000)}&until=${iso(now - 3_600_000)}`, `since=${iso(now)}&until=${iso(now)}`];
      const reads = [
        ...COLLECTIONS.map((path) => ({ path, call: (query: string) => api(t, token, 'GET', `${path}?${query}`) })),
        { path: '/admin/v1/audit-events', call: (query: string) => t.admin('GET', `/admin/v1/audit-events?account=${accountId}&${query}`) },
      ];
      for (const { path, call } of reads) {
        for (const range of ranges) {
          const refused = await call(range);
          assert.equal(refused.status, 400, `${path}?${range}`);
          assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/, path);
          assert.equal(refused.body.code, 'validation_failed', path);
          assert.equal(refused.body.detail, 'since must be before until', path);
        }
        // The same range the right way round holds what the account stored.
        const read = await call(`since=${iso(now - 3_600_000)}&until=${iso(now + 3_600_000)}`);
        assert.equal(read.status, 200, `${path}: ${JSON.stringify(read.body)}`);
        assert.ok(read.body.data.length > 0, `${path} has rows in the range`);
      }
    });
  });
}
