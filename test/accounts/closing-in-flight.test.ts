/**
 * Writes whose credential was checked before their account closed, and whose own transaction
 * runs after the closing: each is refused as a request with a credential no longer valid, and
 * leaves nothing in the closed account (no person with an audit record naming them, no group,
 * invoice or webhook endpoint). On both databases each write is called as its route calls it,
 * after the closing committed; on PostgreSQL a SCIM create and an invoice create are also sent
 * over HTTP while the closing holds the account, and wait for it (closing-race-postgres.test.ts
 * does the same for a settlement).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { closingAhead } from '../helpers/closing-ahead.ts';
import { api } from '../payments/api.ts';
import { scimClient, ERROR, USER, GROUP, type ScimClient } from '../scim/scim-client.ts';
import { createScimUsers } from '../../src/scim/users.ts';
import { createScimGroups } from '../../src/scim/groups.ts';
import { createScimUserStore } from '../../src/scim/users-store.ts';
import { createScimGroupStore } from '../../src/scim/groups-store.ts';
import { createGroupCommit } from '../../src/platform/db/group-commit.ts';
import { dialectOf } from '../../src/platform/db/dialect.ts';
import { isHttpError, type HttpError } from '../../src/platform/errors/http-error.ts';

/** What `write` threw: an HttpError, as its route would answer it. */
async function refusal(write: () => Promise<unknown>): Promise<HttpError> {
  try {
    await write();
  } catch (error) {
    assert.ok(isHttpError(error), `not an HTTP error: ${String(error)}`);
    return error;
  }
  assert.fail('the write was not refused');
}

for (const target of databaseTargets()) {
  describe(`writes of a credential checked before its account closed (${target.kind})`, () => {
    let t: TestApp;
    let c: ScimClient;
    let accessToken: string;
    before(async () => {
      t = await startTestApp(target);
      c = await scimClient(t, 'Closing');
      accessToken = await mintAccessToken(t, { accountId: c.accountId, scopes: ['invoices:write', 'webhooks:write'] });
      assert.equal((await c.call('POST', '/Users', { schemas: [USER], userName: 'before@example.com' })).status, 201);
      assert.equal((await t.admin('DELETE', `/admin/v1/accounts/${c.accountId}`)).status, 204);
    });
    after(() => t.close());

    const db = () => t.gatehouse.database.db;
    const count = async (table: 'users' | 'scim_groups' | 'invoices' | 'webhook_endpoints') =>
      Number((await db().selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', c.accountId).executeTakeFirstOrThrow()).n);

    /** The SCIM services as the app builds them, on its database (and its group commit on SQLite). */
    function scim() {
      const database = db();
      const dialect = dialectOf(database);
      const groupCommit = createGroupCommit({ db: database });
      const users = createScimUserStore({ db: database, dialect, groupCommit });
      const baseUrl = 'https://gatehouse.example/scim/v2';
      return {
        users: createScimUsers({ db: database, store: users, groups: createScimGroupStore({ db: database, dialect }), clock: t.clock, revokeUserAccess: async () => {}, baseUrl, groupCommit }),
        groups: createScimGroups({ db: database, store: createScimGroupStore({ db: database, dialect }), users, clock: t.clock, baseUrl, groupCommit }),
      };
    }

    it('the closing removed the person created before it, and its credentials answer 401', async () => {
      assert.equal(await count('users'), 0);
      const answer = await c.call('POST', '/Users', { schemas: [USER], userName: 'after@example.com' });
      assert.equal(answer.status, 401);
    });

    it('a SCIM create is refused 401 in SCIM’s shape, and no person or audit record naming them is kept', async () => {
      const error = await refusal(() => scim().users.create(c.accountId, { schemas: [USER], userName: 'late@example.com', emails: [{ value: 'late@example.com' }] }));
      assert.equal(error.status, 401);
      assert.match(error.headers['www-authenticate'] ?? '', /^Bearer realm="scim", error="invalid_token"/);
      assert.equal(await count('users'), 0);
      const records = await db().selectFrom('audit_events').select('changes').where('account_id', '=', c.accountId).where('action', '=', 'scim.user.created').execute();
      assert.ok(records.every((r) => !String(r.changes).includes('late@example.com')), JSON.stringify(records));
      const values = await db().selectFrom('scim_user_values').select('value').where('account_id', '=', c.accountId).execute();
      assert.deepEqual(values, []);
    });

    it('a SCIM group create is refused 401, and no group is kept', async () => {
      const error = await refusal(() => scim().groups.create(c.accountId, { schemas: [GROUP], displayName: 'Late joiners' }));
      assert.equal(error.status, 401);
      assert.equal(await count('scim_groups'), 0);
    });

    it('an invoice create is refused 401 invalid_token, and no invoice is kept', async () => {
      const before = await count('invoices');
      const error = await refusal(() => db().transaction().execute((trx) => t.gatehouse.services.invoices.create(trx, c.accountId, { amount: 100, currency: 'EUR' })));
      assert.equal(error.status, 401);
      assert.equal(error.code, 'invalid_token');
      assert.match(error.headers['www-authenticate'] ?? '', /error="invalid_token"/);
      assert.equal(await count('invoices'), before);
    });

    it('a webhook endpoint create is refused 401 invalid_token, and no endpoint is kept', async () => {
      const before = await count('webhook_endpoints');
      const error = await refusal(() =>
        db()
          .transaction()
          .execute((trx) => t.gatehouse.services.webhooks.endpoints.create(trx, c.accountId, { url: 'https://93.184.215.14/hooks', event_types: ['invoice.created'] })),
      );
      assert.equal(error.status, 401);
      assert.equal(await count('webhook_endpoints'), before);
    });

    it('a person created through the admin API is refused 404 account_not_found', async () => {
      const error = await refusal(() => t.gatehouse.services.userAccounts.create(c.accountId, { userName: 'admin-late@example.com', password: 'a long enough passphrase' }));
      assert.equal(error.status, 404);
      assert.equal(error.code, 'account_not_found');
      assert.equal(await count('users'), 0);
    });

    it('the closed account is as the closing left it: closed, its record of the closing kept', async () => {
      const account = await db().selectFrom('accounts').select('deleted_at').where('id', '=', c.accountId).executeTakeFirstOrThrow();
      assert.notEqual(account.deleted_at, null);
      const closed = await db().selectFrom('audit_events').select('id').where('account_id', '=', c.accountId).where('action', '=', 'account.deleted').execute();
      assert.equal(closed.length, 1);
      const page = await api(t, accessToken, 'GET', '/v1/invoices');
      assert.equal(page.status, 401);
    });
  });
}

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('writes sent while the closing holds the account (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(postgres!);
  });
  after(() => t?.close());

  /** The closing first, held at the account's SCIM tokens, which it revokes; then `write`, queued behind it. */
  async function closingThen(accountId: string, write: () => Promise<{ status: number; body: Record<string, unknown> }>) {
    const { closed, written } = await closingAhead(t, accountId, { rows: 'its SCIM tokens', lock: 'select id from scim_tokens where account_id = $1 for update' }, write);
    assert.equal(closed.status, 204, JSON.stringify(closed.body));
    return written;
  }

  it('SCIM POST /Users queued behind the closing answers 401 and stores no person', async () => {
    const c = await scimClient(t, 'Closing under a create');
    const created = await closingThen(c.accountId, () => c.call('POST', '/Users', { schemas: [USER], userName: 'queued@example.com' }));
    assert.equal(created.status, 401, JSON.stringify(created.body));
    assert.deepEqual(created.body.schemas, [ERROR]);
    const people = await t.gatehouse.database.db.selectFrom('users').select('id').where('account_id', '=', c.accountId).execute();
    assert.deepEqual(people, []);
    const records = await t.gatehouse.database.db.selectFrom('audit_events').select('action').where('account_id', '=', c.accountId).where('action', '=', 'scim.user.created').execute();
    assert.deepEqual(records, []);
  });

  it('POST /v1/invoices queued behind the closing answers 401 and stores no invoice', async () => {
    const c = await scimClient(t, 'Closing under an invoice');
    const token = await mintAccessToken(t, { accountId: c.accountId, scopes: ['invoices:write'] });
    const created = await closingThen(c.accountId, () => api(t, token, 'POST', '/v1/invoices', { amount: 100, currency: 'EUR' }));
    assert.equal(created.status, 401, JSON.stringify(created.body));
    assert.equal(created.body.code, 'invalid_token');
    const invoices = await t.gatehouse.database.db.selectFrom('invoices').select('id').where('account_id', '=', c.accountId).execute();
    assert.deepEqual(invoices, []);
  });
});
