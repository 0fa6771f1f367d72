/**
 * GET /v1/events takes `since` (inclusive) and `until` (exclusive), RFC 3339 instants, as every
 * /v1 collection and the audit trail do: the range narrows the list (beside `type` and the audit
 * rule), is part of the cursor's filters as the instant it reads (two spellings of one instant are
 * one read), and a value that is not an instant is 400 validation_failed naming the parameter.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall } from '../helpers/http.ts';
import { raise, tenant, type Tenant } from './support.ts';

for (const target of databaseTargets()) {
  describe(`GET /v1/events since and until (${target.kind})`, () => {
    let t: TestApp;
    let who: Tenant;
    /** Four events a second apart: invoice, payout, invoice, payout; and an audit event just after the second. */
    let raised: Array<{ id: string; at: number }>;
    let auditEvent: string;
    before(async () => {
      t = await startTestApp(target);
      who = await tenant(t);
      raised = [];
      for (const [i, type] of ['invoice.settled', 'payout.paid', 'invoice.settled', 'payout.paid'].entries()) {
        t.clock.advance(1000);
        raised.push({ id: (await raise(t, who.accountId, type, `obj_${i}`)).id, at: t.clock.now() });
        if (i === 1) {
          t.clock.advance(1);
          auditEvent = (await raise(t, who.accountId, 'audit.client.updated', 'aud_00000000000000000001')).id;
        }
      }
    });
    after(() => t.close());

    const iso = (ms: number) => new Date(ms).toISOString();
    const ids = (page: { body: { data: Array<{ id: string }> } }) => page.body.data.map((e) => e.id);

    /** The account's events in [since, until) as stored, newest first, business events only. */
    async function storedBetween(since: number, until: number): Promise<string[]> {
      const rows = await t.gatehouse.database.db
        .selectFrom('events')
        .select(['id', 'type'])
        .where('account_id', '=', who.accountId)
        .where('created_at', '>=', since)
        .where('created_at', '<', until)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.filter((r) => !r.type.startsWith('audit.')).map((r) => r.id);
    }

    it('since is inclusive and until exclusive; either alone bounds one end; with type, both apply', async () => {
      const [first, second, third, fourth] = raised;
      const between = await who.call('GET', `/v1/events?since=${iso(second!.at)}&until=${iso(fourth!.at)}`);
      assert.equal(between.status, 200, JSON.stringify(between.body));
      assert.deepEqual(ids(between), [third!.id, second!.id]);
      assert.deepEqual(ids(between), await storedBetween(second!.at, fourth!.at));
      assert.equal(between.body.next_cursor, null);

      assert.deepEqual(ids(await who.call('GET', `/v1/events?since=${iso(third!.at)}`)), [fourth!.id, third!.id]);
      assert.deepEqual(ids(await who.call('GET', `/v1/events?until=${iso(second!.at)}`)), [first!.id]);
      assert.deepEqual(ids(await who.call('GET', `/v1/events?type=payout.paid&since=${iso(first!.at)}&until=${iso(fourth!.at)}`)), [second!.id]);
      assert.deepEqual(ids(await who.call('GET', `/v1/events?since=${iso(fourth!.at + 1)}`)), []);
    });

    it('the audit rule holds within a range: audit.* events only to a token with audit:read', async () => {
      const [, second, third] = raised;
      const range = `since=${iso(second!.at)}&until=${iso(third!.at + 1)}`;
      assert.deepEqual(ids(await who.call('GET', `/v1/events?${range}`)), [third!.id, second!.id]);
      const token = await mintAccessToken(t, { accountId: who.accountId, scopes: ['events:read', 'audit:read'] });
      const withAudit = await bearerCall(t.publicUrl, token, 'GET', `/v1/events?${range}`);
      assert.equal(withAudit.status, 200);
      assert.deepEqual(ids(withAudit), [third!.id, auditEvent, second!.id]);
    });

    it('the range is part of the cursor: it continues the same range (whatever the spelling of its instants), another range → 400 cursor_mismatch', async () => {
      const [first, second, , fourth] = raised;
      const range = `since=${iso(first!.at)}&until=${iso(fourth!.at)}`;
      const page = await who.call('GET', `/v1/events?limit=2&${range}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.data.length, 2);
      const cursor = encodeURIComponent(page.body.next_cursor as string);
      const rest = await who.call('GET', `/v1/events?limit=2&${range}&after=${cursor}`);
      assert.equal(rest.status, 200);
      assert.deepEqual([...ids(page), ...ids(rest)], await storedBetween(first!.at, fourth!.at));
      assert.equal(rest.body.next_cursor, null);

      // The same instants written with an offset: the same read.
      const offset = (ms: number) => new Date(ms + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      const respelled = await who.call('GET', `/v1/events?limit=2&since=${encodeURIComponent(offset(first!.at))}&until=${encodeURIComponent(offset(fourth!.at))}&after=${cursor}`);
      assert.equal(respelled.status, 200, JSON.stringify(respelled.body));
      assert.deepEqual(ids(respelled), ids(rest));

      for (const other of [`since=${iso(second!.at)}&until=${iso(fourth!.at)}`, `since=${iso(first!.at)}`, `until=${iso(fourth!.at)}`]) {
        const refused = await who.call('GET', `/v1/events?limit=2&${other}&after=${cursor}`);
        assert.equal(refused.status, 400, other);
        assert.equal(refused.body.code, 'cursor_mismatch', other);
      }
    });

    it('a value that is not an RFC 3339 instant → 400 validation_failed naming the parameter', async () => {
      for (const [name, value] of [
        ['since', 'yesterday'],
        ['since', '2026-02-30T00:00:00Z'],
        ['until', '2026-11-01'],
        ['until', '1700000000000'],
      ] as const) {
        const refused = await who.call('GET', `/v1/events?${name}=${encodeURIComponent(value)}`);
        assert.equal(refused.status, 400, `${name}=${value}`);
        assert.match(refused.headers.get('content-type') ?? '', /^application\/problem\+json/);
        assert.equal(refused.body.code, 'validation_failed');
        assert.match(refused.body.detail, new RegExp(`^${name} must be an RFC 3339 date-time`));
        assert.deepEqual(refused.body.errors.map((e: { pointer: string; in: string }) => [e.pointer, e.in]), [[`#/${name}`, 'query']]);
      }
    });
  });
}
