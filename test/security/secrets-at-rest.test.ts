/**
 * No secret is stored anywhere in clear. Every call that issues a secret is made (webhook
 * endpoint creation and secret rotation, each replayed under its Idempotency-Key; client
 * registration and secret rotation; SCIM tokens; passwords set by the admin API and by SCIM;
 * the code flow, refresh rotation and client credentials; a generated admin token; an
 * endpoint's own credential header), then the whole database (on SQLite the bytes of the file
 * and of its WAL, on PostgreSQL every row of every table as text) and the output of
 * `gatehouse export` are searched for each secret, raw and in its base64 and hex forms.
 * Stored answers that carry a secret are sealed, and still replay byte for byte.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { mintAccessToken } from '../helpers/fixtures.ts';
import { basic, postForm } from '../oauth/helpers.ts';
import { PATCH, USER } from '../scim/scim-client.ts';
import { createTenant, type Tenant } from './flows.ts';
import { setUpAdminToken } from '../../src/admin/admin-token.ts';

const SECRETS_KEY = randomBytes(32).toString('base64');
const BIN = path.resolve('bin/gatehouse.js');
/** Prefixes of the generated secrets; what follows is the random part in base64 or base64url. */
const PREFIXED = /^(whsec_|gh_(?:ac|rt|at|cs|scim|admin)_)(.+)$/;

/** A write as an integrator retries it: the same key, the same body; the answer's exact text. */
async function write(t: TestApp, token: string, urlPath: string, key: string, body?: unknown) {
  const response = await fetch(t.publicUrl + urlPath, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

/** The secret and the forms it could be stored in: raw, base64 and hex of its text, and of the random bytes it encodes. */
function formsOf(secret: string): Buffer[] {
  const text = Buffer.from(secret);
  const forms = [text, Buffer.from(text.toString('base64')), Buffer.from(text.toString('hex'))];
  const random = PREFIXED.exec(secret)?.[2];
  if (random !== undefined) {
    const bytes = Buffer.from(random, /[+/=]/.test(random) ? 'base64' : 'base64url');
    forms.push(bytes, Buffer.from(bytes.toString('hex')), Buffer.from(bytes.toString('base64')), Buffer.from(bytes.toString('base64url')));
  }
  return forms;
}

/** Every byte the database keeps: the SQLite file and its WAL, or every PostgreSQL row as text. */
async function databaseBytes(t: TestApp): Promise<Array<{ where: string; bytes: Buffer }>> {
  const database = t.gatehouse.database;
  if (database.dialect.name === 'sqlite') {
    const file = t.config.databaseUrl.replace(/^sqlite:/, '');
    const parts = [file, `${file}-wal`].filter((f) => fs.existsSync(f));
    assert.ok(parts.length === 2, 'the database file and its WAL are both read');
    return parts.map((f) => ({ where: path.basename(f), bytes: fs.readFileSync(f) }));
  }
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = ${database.schema} and table_type = 'BASE TABLE'`.execute(database.db);
  assert.ok(tables.rows.length > 20, 'every table is read');
  const out = [];
  for (const { name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(`${database.schema}.${name}`)} as t`.execute(database.db);
    out.push({ where: `table ${name}`, bytes: Buffer.from(rows.rows.map((r) => r.row).join('\n')) });
  }
  return out;
}

function exportOf(t: TestApp): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-export-'));
  try {
    const file = path.join(dir, 'export.ndjson');
    const exported = spawnSync(process.execPath, [BIN, 'export', '--out', file], {
      env: { ...process.env, GATEHOUSE_DATABASE_URL: t.config.databaseUrl, GATEHOUSE_SECRETS_KEY: SECRETS_KEY },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(exported.status, 0, exported.stderr);
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function assertNowhere(secrets: Map<string, string>, places: Array<{ where: string; bytes: Buffer }>): void {
  for (const [name, secret] of secrets) {
    assert.ok(secret.length >= 16, `${name} is a real value`);
    for (const form of formsOf(secret)) {
      for (const { where, bytes } of places) {
        const at = bytes.indexOf(form);
        assert.equal(at, -1, `the ${name} is stored in clear in ${where} (as ${form.toString('latin1').slice(0, 24)}…): ${bytes.subarray(Math.max(0, at - 80), at + 80).toString('latin1')}`);
      }
    }
  }
}

for (const target of databaseTargets()) {
  describe(`security: no secret is stored in clear (${target.kind})`, () => {
    let t: TestApp;
    let tenant: Tenant;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_SECRETS_KEY: SECRETS_KEY, GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8' } });
      tenant = await createTenant(t, 'Sealed');
    });
    after(() => t.close());

    it('every secret issued (and replayed) is found neither in the database nor in its export; answers with a secret replay byte for byte', async () => {
      const secrets = new Map<string, string>([
        ['client secret', tenant.client.client_secret],
        ['password (admin API)', tenant.password],
        ['authorization code', tenant.userTokens.code],
        ['access token (code flow)', tenant.userTokens.access_token],
        ['refresh token', tenant.userTokens.refresh_token],
        ['access token (client credentials)', tenant.clientToken],
        ['access token (minted)', tenant.token],
        ['SCIM token', tenant.scimToken],
        ['webhook secret', tenant.endpoint.secret],
        ['CSRF token', tenant.csrf],
        ['session cookie', tenant.session],
      ]);
      const token = await mintAccessToken(t, { accountId: tenant.accountId, scopes: ['webhooks:manage'] });

      // A webhook endpoint with its own credential header, created and replayed under one key.
      const gatewayCredential = `Bearer gw_${randomBytes(24).toString('base64url')}`;
      const createKey = randomUUID();
      const registration = { url: 'http://127.0.0.1:9/sealed', event_types: ['*'], headers: { authorization: gatewayCredential } };
      const created = await write(t, token, '/v1/webhook_endpoints', createKey, registration);
      assert.equal(created.status, 201, created.text);
      assert.match(created.body.secret, /^whsec_/);
      assert.equal(created.headers.get('cache-control'), 'no-store', 'an answer with a secret is not kept by caches');
      const createdAgain = await write(t, token, '/v1/webhook_endpoints', createKey, registration);
      assert.equal(createdAgain.status, 201);
      assert.equal(createdAgain.headers.get('idempotent-replay'), 'true');
      assert.equal(createdAgain.text, created.text, 'the replay is the same answer, secret included');
      assert.equal(createdAgain.headers.get('location'), created.headers.get('location'));
      assert.equal(createdAgain.headers.get('cache-control'), 'no-store');
      secrets.set('webhook secret (replayed creation)', created.body.secret);
      secrets.set('endpoint credential header', gatewayCredential.slice('Bearer '.length));

      // Its secret rotated, and the rotation replayed.
      const rotateKey = randomUUID();
      const rotatePath = `/v1/webhook_endpoints/${created.body.id}/rotate_secret`;
      const rotated = await write(t, token, rotatePath, rotateKey, { overlap_seconds: 60 });
      assert.equal(rotated.status, 200, rotated.text);
      assert.notEqual(rotated.body.secret, created.body.secret);
      const rotatedAgain = await write(t, token, rotatePath, rotateKey, { overlap_seconds: 60 });
      assert.equal(rotatedAgain.headers.get('idempotent-replay'), 'true');
      assert.equal(rotatedAgain.status, 200);
      assert.equal(rotatedAgain.text, rotated.text);
      secrets.set('rotated webhook secret', rotated.body.secret);

      // A header whose name does not look like a credential is shown in answers, so every write
      // that answers with the endpoint stores its answer sealed; a token in the URL's query stays
      // in the URL deliveries go to, and out of the trail and the stored answers.
      const plainName = `pwd_${randomBytes(18).toString('base64url')}`;
      const queryToken = `qt_${randomBytes(18).toString('base64url')}`;
      const plainKey = randomUUID();
      const plain = await write(t, token, '/v1/webhook_endpoints', plainKey, { url: `http://127.0.0.1:9/in?token=${queryToken}&v=2`, event_types: ['*'], headers: { 'X-Pwd': plainName } });
      assert.equal(plain.status, 201, plain.text);
      assert.equal(plain.body.headers['X-Pwd'], plainName, 'shown to its owner');
      const endpointWrites: Array<[string, string, unknown]> = [
        [randomUUID(), `/v1/webhook_endpoints/${plain.body.id}`, { description: 'renamed' }],
        [randomUUID(), `/v1/webhook_endpoints/${plain.body.id}/disable`, undefined],
        [randomUUID(), `/v1/webhook_endpoints/${plain.body.id}/enable`, undefined],
      ];
      for (const [key, path, body] of endpointWrites) {
        const answered = await write(t, token, path, key, body);
        assert.equal(answered.status, 200, answered.text);
        assert.equal(answered.headers.get('cache-control'), 'no-store', path);
      }
      const read = await fetch(`${t.publicUrl}/v1/webhook_endpoints/${plain.body.id}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(read.headers.get('cache-control'), 'no-store');
      secrets.set('endpoint header under a plain name', plainName);

      // The stored answers are sealed; the payout's (no secret) is kept as sent.
      const db = t.gatehouse.database.db;
      const records = await db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', tenant.accountId).execute();
      const trail = await db.selectFrom('audit_events').selectAll().where('account_id', '=', tenant.accountId).execute();
      assert.ok(!JSON.stringify([records, trail]).includes(queryToken), 'the query token is in neither the trail nor a stored answer');
      const createdRecord = trail.find((r) => r.action === 'webhook_endpoint.created' && r.target_id === plain.body.id)!;
      assert.equal(JSON.parse(createdRecord.changes!).url.after, 'http://127.0.0.1:9/in?token=[redacted]&v=[redacted]');
      for (const key of [createKey, rotateKey, plainKey, ...endpointWrites.map(([key]) => key)]) {
        const record = records.find((r) => r.idempotency_key === key);
        assert.ok(record, 'the answer was stored');
        assert.equal(record.state, 'done');
        assert.match(record.response_body!, /^sealed:[A-Za-z0-9_-]+$/);
        assert.equal(record.response_headers, '{}', 'the headers are sealed with the body');
      }
      const payout = records.find((r) => r.response_body?.includes('"object":"payout"'));
      assert.ok(payout, 'a payout answer carries no secret and is stored as it was sent');

      // OAuth: refresh rotation, a client secret rotated, and a client with the body method.
      const auth = { authorization: basic(tenant.client.client_id, tenant.client.client_secret) };
      const refreshed = await postForm(`${t.publicUrl}/token`, { grant_type: 'refresh_token', refresh_token: tenant.userTokens.refresh_token }, auth);
      assert.equal(refreshed.status, 200);
      secrets.set('rotated access token', refreshed.body.access_token);
      secrets.set('rotated refresh token', refreshed.body.refresh_token);
      const clientRotation = await t.admin('POST', `/admin/v1/accounts/${tenant.accountId}/clients/${tenant.client.client_id}/secret`);
      assert.equal(clientRotation.status, 200);
      secrets.set('rotated client secret', clientRotation.body.client_secret);
      const postClient = await t.admin('POST', `/admin/v1/accounts/${tenant.accountId}/clients`, { grant_types: ['client_credentials'], token_endpoint_auth_method: 'client_secret_post', scope: 'invoices:read' });
      assert.equal(postClient.status, 201);
      secrets.set('client secret (client_secret_post)', postClient.body.client_secret);
      const viaBody = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', client_id: postClient.body.client_id, client_secret: postClient.body.client_secret });
      assert.equal(viaBody.status, 200);
      secrets.set('access token (client_secret_post)', viaBody.body.access_token);

      // SCIM: a second token, and passwords set on creation and by PATCH.
      const scimToken = await t.admin('POST', `/admin/v1/accounts/${tenant.accountId}/scim-tokens`, { description: 'second IdP' });
      assert.equal(scimToken.status, 201);
      secrets.set('second SCIM token', scimToken.body.token);
      const scimPassword = `scim-pw-${randomUUID()}`;
      const provisioned = await tenant.scim('POST', '/Users', { schemas: [USER], userName: 'pw@sealed.example', password: scimPassword });
      assert.equal(provisioned.status, 201);
      secrets.set('password (SCIM create)', scimPassword);
      const patchedPassword = `scim-pw-${randomUUID()}`;
      const patched = await tenant.scim('PATCH', `/Users/${provisioned.body.id}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'password', value: patchedPassword }] });
      assert.equal(patched.status, 200);
      secrets.set('password (SCIM PATCH)', patchedPassword);

      // An admin token generated by a node started without GATEHOUSE_ADMIN_TOKEN.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-admin-'));
      try {
        const admin = await setUpAdminToken({ db, clock: t.clock, configured: undefined, dataDir });
        assert.ok(admin.generated);
        assert.equal(fs.statSync(admin.generated.file).mode & 0o777, 0o600, 'the token file is the operator’s alone');
        secrets.set('generated admin token', admin.generated.token);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      secrets.set('configured admin token', TEST_ADMIN_TOKEN);
      secrets.set('secrets key', SECRETS_KEY);

      // After a restart (same key), the sealed answers still replay the same bytes.
      t = await t.restart();
      const afterRestart = await write(t, await mintAccessToken(t, { accountId: tenant.accountId, scopes: ['webhooks:manage'] }), rotatePath, rotateKey, { overlap_seconds: 60 });
      assert.equal(afterRestart.headers.get('idempotent-replay'), 'true');
      assert.equal(afterRestart.text, rotated.text);

      const stored = await databaseBytes(t);
      const exported = [{ where: 'the output of gatehouse export', bytes: exportOf(t) }];
      // The search can find what is there: the endpoint's id is stored, and exported.
      for (const places of [stored, exported]) assert.ok(places.some((p) => p.bytes.includes(created.body.id)), 'the data searched is this installation');
      assertNowhere(secrets, stored);
      assertNowhere(secrets, exported);
    });

    it('an answer stored in clear by an earlier version still replays; a sealed answer moved to another key does not open, and shows nothing', async () => {
      const token = await mintAccessToken(t, { accountId: tenant.accountId, scopes: ['webhooks:manage'] });
      const db = t.gatehouse.database.db;
      const record = (key: string) => db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', tenant.accountId).where('idempotency_key', '=', key).executeTakeFirstOrThrow();
      const registration = { url: 'http://127.0.0.1:9/earlier', event_types: ['*'] };

      const earlierKey = randomUUID();
      const created = await write(t, token, '/v1/webhook_endpoints', earlierKey, registration);
      assert.equal(created.status, 201);
      const plainHeaders = JSON.stringify({ location: created.headers.get('location'), 'content-type': created.headers.get('content-type') });
      await db.updateTable('idempotency_keys').set({ response_headers: plainHeaders, response_body: created.text }).where('id', '=', (await record(earlierKey)).id).execute();
      const replayed = await write(t, token, '/v1/webhook_endpoints', earlierKey, registration);
      assert.equal(replayed.status, 201);
      assert.equal(replayed.headers.get('idempotent-replay'), 'true');
      assert.equal(replayed.text, created.text);
      assert.equal(replayed.headers.get('location'), created.headers.get('location'));

      const [fromKey, toKey] = [randomUUID(), randomUUID()];
      const first = await write(t, token, '/v1/webhook_endpoints', fromKey, registration);
      const second = await write(t, token, '/v1/webhook_endpoints', toKey, registration);
      assert.equal(second.status, 201);
      const moved = await record(fromKey);
      const target = await record(toKey);
      await db.updateTable('idempotency_keys').set({ response_body: moved.response_body }).where('id', '=', target.id).execute();
      const refused = await write(t, token, '/v1/webhook_endpoints', toKey, registration);
      assert.equal(refused.status, 500);
      assert.equal(refused.body.code, 'internal_error');
      assert.ok(!refused.text.includes(first.body.secret) && !refused.text.includes(second.body.secret));
      assert.ok(t.logs.some((line) => line.includes(`the stored answer of idempotency record ${target.id} cannot be opened`)), 'the operator is told which record and which setting');
    });
  });
}
