/**
 * Key material at rest: the server's signing and token MAC keys and the generated cursor key
 * are stored sealed under the secrets key, so with GATEHOUSE_SECRETS_KEY set a copy of the
 * database alone reveals none of them; values stored plain by an earlier version still work;
 * a node given another secrets key refuses to start and says which setting to check.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { databaseTargets, describeIf, describeOnDatabase } from '../helpers/databases.ts';
import { freePort, runToExit } from '../helpers/processes.ts';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app.ts';
import { clientCredentialsToken, isActive } from '../oauth/helpers.ts';
import { loadConfig } from '../../src/config.ts';
import { createGatehouse } from '../../src/app.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { createKeyVault, secretsKeyId } from '../../src/platform/secrets-key.ts';

const SECRETS_KEY = randomBytes(32);

for (const target of databaseTargets()) {
  describe(`keys at rest (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_SECRETS_KEY: SECRETS_KEY.toString('base64') } });
    });
    after(() => t.close());

    it('signing keys, MAC keys and the cursor key are stored sealed; nothing of the secrets key is stored', async () => {
      const { token, auth } = await clientCredentialsToken(t);
      assert.equal(await isActive(t, token, auth), true);
      const db = t.gatehouse.database.db;
      const keys = await db.selectFrom('oauth_signing_keys').select(['kid', 'alg', 'private_jwk']).execute();
      assert.deepEqual(new Set(keys.map((k) => k.alg)), new Set(['ES256', 'HS256']));
      const vault = createKeyVault(SECRETS_KEY);
      for (const key of keys) {
        assert.match(key.private_jwk, /^sealed:[A-Za-z0-9_-]+$/, `${key.kid} is sealed`);
        const jwk = JSON.parse(vault.open(key.private_jwk, key.kid)) as { kid: string; d?: string; k?: string };
        assert.equal(jwk.kid, key.kid);
        assert.ok(jwk.d ?? jwk.k, `${key.kid} holds its private part`);
        assert.ok(!key.private_jwk.includes((jwk.d ?? jwk.k)!), `${key.kid}: the private part is not readable`);
        // A sealed value is bound to its row: moved under another kid it does not open.
        assert.throws(() => vault.open(key.private_jwk, 'key_elsewhere'), /GATEHOUSE_SECRETS_KEY/);
      }
      const settings = Object.fromEntries((await db.selectFrom('settings').select(['name', 'value']).execute()).map((r) => [r.name, r.value]));
      assert.match(settings.cursor_key!, /^sealed:/);
      assert.equal(settings.secrets_key, undefined, 'a configured secrets key is never stored');
    });

    it('a key stored plain (before keys were sealed) is still read after a restart', async () => {
      const { token, auth } = await clientCredentialsToken(t);
      const db = t.gatehouse.database.db;
      const vault = createKeyVault(SECRETS_KEY);
      for (const key of await db.selectFrom('oauth_signing_keys').select(['kid', 'private_jwk']).execute()) {
        await db.updateTable('oauth_signing_keys').set({ private_jwk: vault.open(key.private_jwk, key.kid) }).where('kid', '=', key.kid).execute();
      }
      t = await t.restart();
      assert.equal(await isActive(t, token, auth), true);
      const jwks = (await (await fetch(`${t.publicUrl}/.well-known/jwks.json`)).json()) as { keys: unknown[] };
      assert.equal(jwks.keys.length, 1);
    });

    it('another secrets key: start-up stops with an error naming GATEHOUSE_SECRETS_KEY, and nothing stored changes', async () => {
      const db = t.gatehouse.database.db;
      const before = await db.selectFrom('oauth_signing_keys').selectAll().orderBy('kid').execute();
      const config = loadConfig({
        GATEHOUSE_DATABASE_URL: t.config.databaseUrl,
        GATEHOUSE_DATA_DIR: t.config.dataDir,
        GATEHOUSE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        GATEHOUSE_LOG_LEVEL: 'silent',
        GATEHOUSE_IN_PROCESS_WORKERS: 'off',
        GATEHOUSE_SECRETS_KEY: randomBytes(32).toString('base64'),
      });
      const database = await openDatabase({ databaseUrl: config.databaseUrl });
      try {
        await assert.rejects(createGatehouse(config, { database }), /stored key cursor_key cannot be opened: it was sealed under another secrets key than this one \(key_id [\w-]+\)\. Set GATEHOUSE_SECRETS_KEY/);
      } finally {
        await database.close();
      }
      assert.deepEqual(await db.selectFrom('oauth_signing_keys').selectAll().orderBy('kid').execute(), before);
    });
  });
}

// With Redis configured the rate limits' client is open by the time the stored keys are read:
// a refused start must close it too, or the process says why and then never exits.
describeOnDatabase('postgres', 'keys at rest: a refused start with Redis configured', (target) => {
  describeIf(process.env.GATEHOUSE_TEST_REDIS_URL, 'set GATEHOUSE_TEST_REDIS_URL to run with Redis', 'exits', (redisUrl) => {
    it('another secrets key, Redis configured: one line naming the setting and the key ids, exit 1, at once', async () => {
      const t = await startTestApp(target, { env: { GATEHOUSE_SECRETS_KEY: SECRETS_KEY.toString('base64') } });
      after(() => t.close());
      const databaseUrl = t.config.databaseUrl!;
      const other = randomBytes(32);
      const started = Date.now();
      const finished = await runToExit({
        command: 'serve',
        databaseUrl,
        port: await freePort(),
        adminPort: await freePort(),
        timeoutMs: 30_000,
        env: {
          GATEHOUSE_SECRETS_KEY: other.toString('base64'),
          // The cursor key comes from the settings, so the first stored key read is a signing key, after Redis is connected.
          GATEHOUSE_CURSOR_KEYS: `c1:${randomBytes(32).toString('base64')}`,
          GATEHOUSE_REDIS_URL: redisUrl,
          GATEHOUSE_RATE_LIMITS: 'on',
        },
      });
      assert.equal(finished.signal, null, `killed after 30 s: ${finished.stderr}`);
      assert.equal(finished.code, 1);
      assert.ok(Date.now() - started < 15_000);
      assert.match(finished.stderr, new RegExp(`stored key \\S+ cannot be opened: it was sealed under another secrets key than this one \\(key_id ${secretsKeyId(other)}\\)`));
      assert.match(finished.stderr, /GATEHOUSE_SECRETS_KEY/);
    });
  });
});
