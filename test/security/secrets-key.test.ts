/**
 * Where the secrets key lives when GATEHOUSE_SECRETS_KEY is not set (src/platform/secrets-key.ts).
 * Never in the database it protects, nor in an export of it:
 * - on SQLite it is generated into a 0600 file beside the database, and a key an earlier release
 *   kept in the `settings` table is moved there;
 * - on PostgreSQL a node without the setting refuses to start and names it, and an installation
 *   whose key an earlier release kept in the database goes on with it, warned at every start, and
 *   exports without it, until the key is configured, and then the database's copy is deleted.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describeOnDatabase } from '../helpers/databases.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { clientCredentialsToken, isActive } from '../oauth/helpers.ts';
import { loadConfig } from '../../src/config.ts';
import { createGatehouse } from '../../src/app.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { createKeyVault, SECRETS_KEY_SETTING, secretsKeyFileOf, secretsKeyId } from '../../src/platform/secrets-key.ts';

const BIN = path.resolve('bin/gatehouse.js');

/** Every stored signing key opens under `key`, and only under it. */
async function assertSealedUnder(t: TestApp, key: Buffer): Promise<void> {
  const vault = createKeyVault(key);
  const stored = await t.gatehouse.database.db.selectFrom('oauth_signing_keys').select(['kid', 'private_jwk']).execute();
  assert.ok(stored.length > 0);
  for (const { kid, private_jwk } of stored) assert.equal((JSON.parse(vault.open(private_jwk, kid)) as { kid: string }).kid, kid);
}

/** The log events (docs/OPERATIONS.md, "Log events") the app wrote about its secrets key. */
function keyEvents(t: TestApp): Array<Record<string, unknown>> {
  return t.logs
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => String(line.event ?? '').startsWith('secrets.'))
    .map(({ level, event, file, key_id, configured_key_id }) => ({ level, event, file, key_id, configured_key_id }));
}

async function settingNames(t: TestApp): Promise<string[]> {
  return (await t.gatehouse.database.db.selectFrom('settings').select('name').orderBy('name').execute()).map((r) => r.name);
}

/** `gatehouse export` of the app's database; the file's text. */
function exportOf(t: TestApp, env: Record<string, string>): { text: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-export-'));
  try {
    const file = path.join(dir, 'export.ndjson');
    const run = spawnSync(process.execPath, [BIN, 'export', '--out', file], {
      env: { ...process.env, GATEHOUSE_DATABASE_URL: t.config.databaseUrl, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    return { text: fs.readFileSync(file, 'utf8'), stderr: run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function exportedSettings(text: string): string[] {
  return text
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { table: string; row: { name?: string } })
    .filter((line) => line.table === 'settings')
    .map((line) => line.row.name!);
}

/** The key's forms a careless store would hold: its text, and its raw bytes. */
function assertAbsent(key: Buffer, where: string, bytes: Buffer): void {
  for (const form of [Buffer.from(key.toString('base64')), key, Buffer.from(key.toString('hex'))]) {
    assert.equal(bytes.indexOf(form), -1, `the secrets key is in ${where}`);
  }
}

describeOnDatabase('sqlite', 'the secrets key on SQLite, none configured', (target) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(target);
  });
  after(() => t.close());

  const databaseFile = () => t.config.databaseUrl.slice('sqlite:'.length);
  const keyFile = () => secretsKeyFileOf(databaseFile());
  const keyInFile = () => Buffer.from(fs.readFileSync(keyFile(), 'utf8').trim(), 'base64');

  it('is generated into a 0600 file beside the database, found in neither the database nor its export; a restart opens what it sealed', async () => {
    const { token, auth } = await clientCredentialsToken(t);
    assert.equal(fs.statSync(keyFile()).mode & 0o777, 0o600, "the key file is the operator's alone");
    const key = keyInFile();
    assert.equal(key.length, 32);
    assert.deepEqual(keyEvents(t), [{ level: 'info', event: 'secrets.key_generated', file: keyFile(), key_id: secretsKeyId(key), configured_key_id: undefined }], 'the start-up says where the key was put');
    assertAbsent(key, 'the log', Buffer.from(t.logs.join('')));
    assert.ok(!(await settingNames(t)).includes(SECRETS_KEY_SETTING));
    await assertSealedUnder(t, key);

    for (const file of [databaseFile(), `${databaseFile()}-wal`].filter((f) => fs.existsSync(f))) assertAbsent(key, file, fs.readFileSync(file));
    const exported = exportOf(t, {});
    assertAbsent(key, 'the export', Buffer.from(exported.text));
    assert.equal(JSON.parse(exported.text.split('\n')[0]!).sealed_under, secretsKeyId(key), 'the export names the key it needs');

    t = await t.restart();
    assert.ok(keyInFile().equals(key));
    assert.equal(await isActive(t, token, auth), true);
  });

  it("a key an earlier release kept in the database moves to the file, and the database's row is deleted", async () => {
    const { token, auth } = await clientCredentialsToken(t);
    const key = keyInFile();
    // As an earlier release left it: the key in `settings`, no file.
    await t.gatehouse.database.db.insertInto('settings').values({ name: SECRETS_KEY_SETTING, value: key.toString('base64'), updated_at: t.clock.now() }).execute();
    fs.rmSync(keyFile());

    t = await t.restart();
    assert.ok(keyInFile().equals(key));
    assert.equal(fs.statSync(keyFile()).mode & 0o777, 0o600);
    assert.ok(!(await settingNames(t)).includes(SECRETS_KEY_SETTING), 'the row is gone');
    assert.deepEqual(keyEvents(t), [{ level: 'info', event: 'secrets.key_moved_to_file', file: keyFile(), key_id: secretsKeyId(key), configured_key_id: undefined }]);
    assert.equal(await isActive(t, token, auth), true);
  });

  it('a key file that disagrees with a key kept in the database stops the start, naming the file, and changes nothing', async () => {
    const key = keyInFile();
    const other = randomBytes(32);
    await t.gatehouse.database.db.insertInto('settings').values({ name: SECRETS_KEY_SETTING, value: other.toString('base64'), updated_at: t.clock.now() }).execute();
    const config = loadConfig({ GATEHOUSE_DATABASE_URL: t.config.databaseUrl, GATEHOUSE_DATA_DIR: t.config.dataDir, GATEHOUSE_ADMIN_TOKEN: TEST_ADMIN_TOKEN, GATEHOUSE_LOG_LEVEL: 'silent', GATEHOUSE_IN_PROCESS_WORKERS: 'off' });
    const database = await openDatabase({ databaseUrl: config.databaseUrl });
    try {
      await assert.rejects(createGatehouse(config, { database }), (error: Error) => error.message.startsWith(`${keyFile()} holds another secrets key than the one kept in the database`));
    } finally {
      await database.close();
    }
    assert.ok(keyInFile().equals(key));
    assert.ok((await settingNames(t)).includes(SECRETS_KEY_SETTING));

    // Configured, the key in use is the setting's: another key left in the database is reported, not deleted.
    const { token, auth } = await clientCredentialsToken(t);
    await t.gatehouse.close();
    const configured = await startTestApp({ kind: 'sqlite', create: async () => ({ url: t.config.databaseUrl, drop: async () => {} }) }, { env: { GATEHOUSE_SECRETS_KEY: key.toString('base64') } });
    try {
      assert.deepEqual(keyEvents(configured), [{ level: 'warn', event: 'secrets.key_in_database', file: undefined, key_id: secretsKeyId(other), configured_key_id: secretsKeyId(key) }]);
      assert.ok((await settingNames(configured)).includes(SECRETS_KEY_SETTING), 'another key is left for the operator');
      assert.equal(await isActive(configured, token, auth), true);
      await configured.gatehouse.database.db.deleteFrom('settings').where('name', '=', SECRETS_KEY_SETTING).execute();
    } finally {
      await configured.gatehouse.close();
    }
    t = await t.restart();
  });
});

describeOnDatabase('postgres', 'the secrets key on PostgreSQL, none configured', (target) => {
  it('a node refuses to start, naming GATEHOUSE_SECRETS_KEY, and keeps no key in the database', async () => {
    const database = await (target.createMigrated?.() ?? target.create());
    try {
      const serve = spawnSync(process.execPath, [BIN, 'serve'], {
        env: { ...process.env, GATEHOUSE_DATABASE_URL: database.url, GATEHOUSE_SECRETS_KEY: '', GATEHOUSE_PORT: '0', GATEHOUSE_ADMIN_PORT: '0', GATEHOUSE_ADMIN_TOKEN: TEST_ADMIN_TOKEN },
        encoding: 'utf8',
        // It says why and exits: nothing it opened on the way (the database's pool) holds it open.
        timeout: 15_000,
      });
      assert.equal(serve.status, 2, serve.stderr);
      assert.equal(
        serve.stderr.trim(),
        'gatehouse: invalid setting GATEHOUSE_SECRETS_KEY: required with PostgreSQL: every node must hold the same key, and it is not kept in the database it protects (generate one with openssl rand -base64 32) (got unset)',
      );
      const opened = await openDatabase({ databaseUrl: database.url });
      try {
        const kept = await opened.db.selectFrom('settings').select('name').where('name', '=', SECRETS_KEY_SETTING).execute();
        assert.deepEqual(kept, []);
      } finally {
        await opened.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('a key an earlier release kept in the database still opens what it sealed, with a warning at start, and an export leaves it out', async () => {
    const key = randomBytes(32);
    const database = await (target.createMigrated?.() ?? target.create());
    const installation = { kind: target.kind, create: async () => ({ url: database.url, drop: async () => {} }) };
    let t = await startTestApp(installation, { env: { GATEHOUSE_SECRETS_KEY: key.toString('base64') } });
    try {
      const { token, auth } = await clientCredentialsToken(t);
      await t.gatehouse.database.db.insertInto('settings').values({ name: SECRETS_KEY_SETTING, value: key.toString('base64'), updated_at: t.clock.now() }).execute();
      // The same installation, started as before the key had to be configured.
      await t.close();
      t = await startTestApp(installation, { env: { GATEHOUSE_SECRETS_KEY: '' } });
      assert.equal(t.config.secretsKey, undefined);
      assert.deepEqual(keyEvents(t), [{ level: 'warn', event: 'secrets.key_in_database', file: undefined, key_id: secretsKeyId(key), configured_key_id: null }], 'warned at start');
      assert.equal(await isActive(t, token, auth), true);
      await assertSealedUnder(t, key);

      const exported = exportOf(t, { GATEHOUSE_SECRETS_KEY: '' });
      assertAbsent(key, 'the export', Buffer.from(exported.text));
      assert.ok(!exportedSettings(exported.text).includes(SECRETS_KEY_SETTING));
      assert.ok(exportedSettings(exported.text).length > 0, 'the other settings are exported');
      const header = JSON.parse(exported.text.split('\n')[0]!);
      assert.equal(header.sealed_under, secretsKeyId(key));
      assert.equal(header.tables.find((x: { name: string }) => x.name === 'settings').rows, exportedSettings(exported.text).length, 'the count is of the rows exported');

      // The operator moves it into the setting, as the warning says: the database's copy goes.
      await t.close();
      t = await startTestApp(installation, { env: { GATEHOUSE_SECRETS_KEY: key.toString('base64') } });
      assert.ok(!(await settingNames(t)).includes(SECRETS_KEY_SETTING), "the database's copy is deleted");
      assert.deepEqual(keyEvents(t), [{ level: 'info', event: 'secrets.key_removed_from_database', file: undefined, key_id: secretsKeyId(key), configured_key_id: undefined }]);
      assert.equal(await isActive(t, token, auth), true);
    } finally {
      await t.close();
      await database.drop();
    }
  });
});
