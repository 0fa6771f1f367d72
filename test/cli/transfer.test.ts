/**
 * Moving an installation: `gatehouse export` from SQLite, `gatehouse import` into PostgreSQL
 * (or another SQLite file when no PostgreSQL is configured), then the same API reads answer
 * the same on the target. The secrets key stays behind: the target is given it, or refuses.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseTargets, queryOnce, type DatabaseTarget } from '../helpers/databases.ts';
import { secretsKeyFileOf, secretsKeyId } from '../../src/platform/secrets-key.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { scimClient, GROUP, USER } from '../scim/scim-client.ts';
import { PLATFORM_ACCOUNT } from '../../src/audit/catalogue.ts';

const BIN = path.resolve('bin/gatehouse.js');

function gatehouse(args: string[], databaseUrl: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, GATEHOUSE_DATABASE_URL: databaseUrl, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** A target that reuses an existing database and leaves dropping it to the test. */
function existing(kind: DatabaseTarget['kind'], url: string): DatabaseTarget {
  return { kind, create: async () => ({ url, drop: async () => {} }) };
}

describe('export from SQLite, import into another database', () => {
  const [sqlite] = databaseTargets();
  const destinationTarget = databaseTargets().at(-1)!;
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it(`every table moves to ${destinationTarget.kind}; the same reads answer the same; a non-empty target is refused without --replace`, async () => {
    const source = await sqlite!.create();
    cleanups.push(source.drop);
    let t: TestApp = await startTestApp(existing('sqlite', source.url));
    const scim = await scimClient(t, 'Moving Co');
    const ids: string[] = [];
    for (const name of ['ada', 'grace', 'edsger']) {
      const created = await scim.call('POST', '/Users', {
        schemas: [USER],
        userName: `${name}@moving.example`,
        externalId: `ext-${name}`,
        name: { givenName: name, familyName: 'Example' },
        emails: [{ value: `${name}@moving.example`, type: 'work', primary: true }],
      });
      assert.equal(created.status, 201);
      ids.push(created.body.id);
    }
    const group = await scim.call('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Finance',
      members: ids.slice(0, 2).map((value) => ({ value })),
    });
    assert.equal(group.status, 201);
    const before = {
      account: (await t.admin('GET', `/admin/v1/accounts/${scim.accountId}`)).body,
      users: (await scim.call('GET', '/Users?sortBy=userName')).body,
      group: (await scim.call('GET', `/Groups/${group.body.id}`)).body,
    };
    await t.gatehouse.close();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-export-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'export.ndjson');
    // Written over a file that was there, readable by all: it is made private before it is filled.
    fs.writeFileSync(file, 'an older export\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const exported = gatehouse(['export', '--out', file], source.url);
    assert.equal(exported.status, 0, exported.stderr);
    assert.match(exported.stderr, /exported \d+ rows from \d+ tables/);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600, 'exports hold secrets’ digests: private to the operator');
    const header = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!);
    assert.equal(header.format, 'gatehouse-export');
    assert.equal(header.tables.find((x: { name: string }) => x.name === 'users').rows, 3);
    const names = header.tables.map((x: { name: string }) => x.name);
    assert.ok(names.indexOf('accounts') < names.indexOf('users'), 'parents are written before children');
    // The source's key was generated beside its database file; the export names it and holds it nowhere.
    const sourceKey = fs.readFileSync(secretsKeyFileOf(source.url.slice('sqlite:'.length)), 'utf8').trim();
    assert.equal(header.sealed_under, secretsKeyId(Buffer.from(sourceKey, 'base64')));
    assert.ok(!fs.readFileSync(file, 'utf8').includes(sourceKey), 'the export does not carry the secrets key');
    assert.match(exported.stderr, new RegExp(`sealed under secrets key ${header.sealed_under}, which the export does not hold`));

    const destination = await destinationTarget.create();
    cleanups.push(destination.drop);
    // A target without the source's key would hold secrets it cannot open: refused, nothing imported.
    const otherKey = Buffer.alloc(32, 1).toString('base64');
    const keyless = gatehouse(['import', '--in', file], destination.url, { GATEHOUSE_SECRETS_KEY: otherKey });
    assert.equal(keyless.status, 3, keyless.stderr);
    assert.match(keyless.stderr, new RegExp(`import refused, nothing changed: the export's secrets are sealed under secrets key ${header.sealed_under} and this installation holds ${secretsKeyId(Buffer.from(otherKey, 'base64'))}: set GATEHOUSE_SECRETS_KEY`));
    const accountRows = destinationTarget.kind === 'postgres' ? await queryOnce(destination.url, 'select id from accounts') : [];
    assert.deepEqual(accountRows, []);
    const withKey = { GATEHOUSE_SECRETS_KEY: sourceKey };
    const imported = gatehouse(['import', '--in', file], destination.url, withKey);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stderr, /ok +users: 3\/3/);
    assert.match(imported.stderr, /every table count verified/);

    // Same public URL as before the move, as an operator would keep it.
    const issuer = t.config.issuer;
    t = await startTestApp(existing(destinationTarget.kind, destination.url), { env: { GATEHOUSE_ISSUER: issuer, ...withKey } });
    cleanups.push(() => t.gatehouse.close());
    // The SCIM token moved as its digest: the directory's credential keeps working.
    const on = { ...scim, call: (await scimClientWithToken(t, scim.accountId, scim.token)).call };
    assert.deepEqual((await t.admin('GET', `/admin/v1/accounts/${scim.accountId}`)).body, before.account);
    assert.deepEqual((await on.call('GET', '/Users?sortBy=userName')).body, before.users);
    assert.deepEqual((await on.call('GET', `/Groups/${group.body.id}`)).body, before.group);
    // The import is on the platform's trail, written after the counts, so they still match.
    const importRecords = () => t.gatehouse.database.db.selectFrom('audit_events').selectAll().where('account_id', '=', PLATFORM_ACCOUNT).where('action', '=', 'data.imported').orderBy('occurred_at').execute();
    const [record] = await importRecords();
    assert.deepEqual([record!.actor_type, record!.actor_id, record!.target_type, record!.target_id], ['admin', 'cli', 'database', destinationTarget.kind]);
    const rows = header.tables.reduce((sum: number, x: { rows: number }) => sum + x.rows, 0);
    assert.deepEqual(JSON.parse(record!.changes!), { tables: { after: header.tables.length }, rows: { after: rows }, replaced: { after: false }, verified: { after: true } });
    await t.gatehouse.services.audit.sealer.sealPending();
    const report = await t.gatehouse.services.audit.verifier.verify(PLATFORM_ACCOUNT);
    assert.equal(report.ok, true, JSON.stringify(report));

    // An export cut short (a full disk, a copy interrupted) or with a row the schema refuses: refused
    // whole, the contents --replace would have deleted still there.
    const whole = fs.readFileSync(file, 'utf8');
    const cut = path.join(dir, 'cut.ndjson');
    const cutAt = whole.indexOf('\n', Math.floor(whole.length * 0.6)) + 10;
    fs.writeFileSync(cut, whole.slice(0, cutAt));
    const lineCut = whole.slice(0, cutAt).split('\n').length;
    const damaged = path.join(dir, 'damaged.ndjson');
    const lines = whole.trimEnd().split('\n');
    const auditLine = lines.findIndex((l) => l.startsWith('{"table":"audit_events"'));
    lines[auditLine] = lines[auditLine]!.replace('"row":{', '"row":{"bogus_column":1,');
    fs.writeFileSync(damaged, `${lines.join('\n')}\n`);
    const short = path.join(dir, 'short.ndjson');
    const original = whole.trimEnd().split('\n');
    const lastAuditLine = original.findLastIndex((l) => l.startsWith('{"table":"audit_events"'));
    fs.writeFileSync(short, `${original.filter((_, i) => i !== lastAuditLine).join('\n')}\n`);
    for (const [bad, why] of [
      [cut, new RegExp(`line ${lineCut} is not JSON .*: the export is damaged or cut short`)],
      [damaged, new RegExp(`the rows of audit_events from line \\d+ on cannot be stored`)],
      [short, /the export is incomplete or altered: audit_events has (\d+) of the \d+ rows its header names/],
    ] as const) {
      const refused = gatehouse(['import', '--in', bad, '--replace'], destination.url, withKey);
      assert.equal(refused.status, 3, refused.stderr);
      assert.match(refused.stderr, /gatehouse: import refused, nothing changed: /);
      assert.match(refused.stderr, why);
      assert.deepEqual((await on.call('GET', '/Users?sortBy=userName')).body, before.users, 'the target is as it was');
      assert.equal((await importRecords()).length, 1);
    }

    const again = gatehouse(['import', '--in', file], destination.url, withKey);
    assert.equal(again.status, 3);
    assert.match(again.stderr, /import refused, nothing changed: the target database is not empty .*--replace/);
    // The target's own generated admin token is the installation's, not its data's: --replace keeps
    // it, and a row of another installation's (an export of an earlier release) is not taken.
    const ownDigest = () => t.gatehouse.database.db.selectFrom('settings').select('value').where('name', '=', 'admin_token_digest').execute();
    await t.gatehouse.database.db.insertInto('settings').values({ name: 'admin_token_digest', value: 'digest-of-the-target-token', updated_at: Date.now() }).execute();
    const withForeignToken = path.join(dir, 'with-admin-token.ndjson');
    const [headerLine, ...rowLines] = whole.trimEnd().split('\n');
    const olderHeader = JSON.parse(headerLine!);
    olderHeader.tables.find((x: { name: string }) => x.name === 'settings').rows += 1;
    const foreign = JSON.stringify({ table: 'settings', row: { name: 'admin_token_digest', value: 'digest-of-the-source-token', updated_at: 1 } });
    fs.writeFileSync(withForeignToken, `${[JSON.stringify(olderHeader), foreign, ...rowLines].join('\n')}\n`);
    const replaced = gatehouse(['import', '--in', withForeignToken, '--replace'], destination.url, withKey);
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.deepEqual(await ownDigest(), [{ value: 'digest-of-the-target-token' }]);
    assert.ok(!whole.includes('admin_token_digest'), 'an export leaves the admin token out');
    assert.deepEqual((await importRecords()).map((r) => JSON.parse(r.changes!).replaced.after), [true], 'the replaced contents held the first record; the second import records itself');
    assert.deepEqual((await on.call('GET', '/Users?sortBy=userName')).body, before.users);
  });
});

async function scimClientWithToken(t: TestApp, accountId: string, token: string) {
  return {
    accountId,
    async call(method: string, p: string) {
      const response = await fetch(`${t.publicUrl}/scim/v2${p}`, { method, headers: { authorization: `Bearer ${token}` } });
      return { status: response.status, body: JSON.parse(await response.text()) };
    },
  };
}

describe('export to a path that cannot be written', () => {
  it('fails with exit 1 and one line naming --out, not a stack', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-export-'));
    try {
      const out = path.join(dir, 'missing', 'gatehouse.ndjson');
      const r = gatehouse(['export', '--out', out], `sqlite:${path.join(dir, 'gatehouse.db')}`);
      assert.equal(r.status, 1, r.stderr);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.at(-1), `gatehouse: export: cannot write --out ${out}: ENOENT: no such file or directory, open '${out}'`);
      assert.ok(!r.stderr.includes('    at '), r.stderr);
      assert.equal(fs.existsSync(out), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
