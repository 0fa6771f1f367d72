import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { secretsKeyEnvFor, databaseTargets } from '../helpers/databases.ts';
import { json } from '../helpers/http.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createAccount } from '../helpers/fixtures.ts';
import { basic, isActive, postForm, registerClient } from './helpers.ts';
import { PLATFORM_ACCOUNT } from '../../src/audit/catalogue.ts';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { createKeyVault } from '../../src/platform/secrets-key.ts';
import { createSigningKeys, JWKS_MAX_AGE_SECONDS } from '../../src/oauth/keys.ts';

for (const target of databaseTargets()) {
  describe(`signing keys and JWKS (${target.kind})`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target);
    });
    after(() => t.close());

    it('RFC 9701: introspection answers as a JWT signed by a key in the JWKS when asked', async () => {
      const accountId = await createAccount(t);
      const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const auth = { authorization: basic(reg.client_id, reg.client_secret) };
      const token = (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, auth)).body.access_token;
      const response = await fetch(`${t.publicUrl}/introspect`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/token-introspection+jwt' },
        body: new URLSearchParams({ token }).toString(),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/token-introspection+jwt');
      const jwks = (await json(await fetch(`${t.publicUrl}/.well-known/jwks.json`))) as JSONWebKeySet;
      const { payload, protectedHeader } = await jwtVerify(await response.text(), createLocalJWKSet(jwks), { issuer: t.publicUrl, audience: reg.client_id, currentDate: new Date(t.clock.now()) });
      assert.equal(protectedHeader.typ, 'token-introspection+jwt');
      assert.equal((payload.token_introspection as { active: boolean }).active, true);
    });

    /** A client's token and the Basic credentials that introspect it, from a fresh account. */
    async function clientToken() {
      const reg = await registerClient(t, await createAccount(t), { grant_types: ['client_credentials'], scope: 'invoices:read' });
      const auth = { authorization: basic(reg.client_id, reg.client_secret) };
      return { auth, token: (await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, auth)).body.access_token as string };
    }

    /**
     * The kid that signs what leaves the server now (an RFC 9701 introspection response), checked
     * as a relying party holding `jwks` would check it: undefined when that JWKS cannot verify it.
     */
    async function signedNowWith(jwks: JSONWebKeySet): Promise<{ kid: string; verifies: boolean }> {
      const { auth, token } = await clientToken();
      const response = await fetch(`${t.publicUrl}/introspect`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/token-introspection+jwt' },
        body: new URLSearchParams({ token }).toString(),
      });
      assert.equal(response.status, 200);
      const jwt = await response.text();
      const kid = decodeProtectedHeader(jwt).kid!;
      try {
        await jwtVerify(jwt, createLocalJWKSet(jwks), { issuer: t.publicUrl, currentDate: new Date(t.clock.now()) });
        return { kid, verifies: true };
      } catch {
        return { kid, verifies: false };
      }
    }

    const jwksNow = async () => (await json(await fetch(`${t.publicUrl}/.well-known/jwks.json`))) as JSONWebKeySet;
    const rotateKeys = (...args: string[]) =>
      spawnSync(process.execPath, [path.resolve('bin/gatehouse.js'), 'rotate-keys', ...args], {
        env: { ...process.env, GATEHOUSE_DATABASE_URL: t.config.databaseUrl, GATEHOUSE_DATA_DIR: t.config.dataDir, ...secretsKeyEnvFor(t.config.databaseUrl) },
        encoding: 'utf8',
        timeout: 30_000,
      });

    it('gatehouse rotate-keys: the new key is published at once and signs only once every cached JWKS holds it; the old one stays published for the access-token lifetime', async () => {
      t.clock.set(Date.now());
      // What a relying party fetched just before the rotation, and keeps for the JWKS's max-age.
      const cached = await jwksNow();
      assert.equal(cached.keys.length, 1);
      const old = cached.keys[0]!.kid!;
      assert.equal((await fetch(`${t.publicUrl}/.well-known/jwks.json`)).headers.get('cache-control'), `public, max-age=${JWKS_MAX_AGE_SECONDS}`);

      const result = rotateKeys();
      assert.equal(result.status, 0, result.stderr);
      const kid = /signing key (key_\w+) is published now and signs from (\S+) \(in 360 s/.exec(result.stdout);
      assert.ok(kid, result.stdout);
      const fresh = kid[1]!;
      const after = await jwksNow();
      assert.deepEqual(after.keys.map((k) => k.kid), [fresh, old], 'both published, the new one first');

      // Until the lead has passed the old key signs: the relying party's cached JWKS verifies it.
      assert.deepEqual(await signedNowWith(cached), { kid: old, verifies: true });
      t.clock.set(Date.parse(kid[2]!) - 1000);
      assert.deepEqual(await signedNowWith(cached), { kid: old, verifies: true });
      // From then on the new one signs; every JWKS fetched since the rotation has it.
      t.clock.set(Date.parse(kid[2]!));
      assert.deepEqual(await signedNowWith(after), { kid: fresh, verifies: true });
      assert.ok(Date.parse(kid[2]!) - Date.now() >= JWKS_MAX_AGE_SECONDS * 1000, 'past every cache of the JWKS');

      // The operator's rotation is on the platform's trail: the kids, never key material.
      const db = t.gatehouse.database.db;
      const records = await db.selectFrom('audit_events').selectAll().where('account_id', '=', PLATFORM_ACCOUNT).where('action', '=', 'signing_keys.rotated').execute();
      assert.equal(records.length, 1);
      const record = records[0]!;
      assert.deepEqual([record.actor_type, record.actor_id, record.target_type, record.target_id], ['admin', 'cli', 'signing_keys', 'jwks']);
      const changes = JSON.parse(record.changes!);
      assert.deepEqual(changes.active_kids, { before: [old], after: [fresh] });
      assert.deepEqual(changes.signs_from, { after: kid[2] });
      assert.match(changes.mac_kid.after, /^mac_/);
      const material = await db.selectFrom('oauth_signing_keys').select(['private_jwk']).execute();
      for (const key of material) assert.ok(!record.changes!.includes(key.private_jwk));
      assert.ok(!/"(d|k)"\s*:/.test(record.changes!), 'no JWK private member');
      await t.gatehouse.services.audit.sealer.sealPending();
      const report = await t.gatehouse.services.audit.verifier.verify(PLATFORM_ACCOUNT);
      assert.equal(report.ok, true, JSON.stringify(report));

      t.clock.set(Date.parse(kid[2]!) + (t.config.accessTokenTtl + 1) * 1000);
      assert.deepEqual((await jwksNow()).keys.map((k) => k.kid), [fresh]);
    });

    it('gatehouse rotate-keys --revoke: the new keys sign at once and the earlier ones are withdrawn: what they signed or sealed stops verifying', async () => {
      const before = await jwksNow();
      const issued = await clientToken();
      assert.equal(await isActive(t, issued.token, issued.auth), true);
      await t.gatehouse.services.audit.sealer.sealPending({ forceCheckpoint: true });

      const result = rotateKeys('--revoke');
      assert.equal(result.status, 0, result.stderr);
      const fresh = /signing key (key_\w+) is published and signs now; every earlier key is withdrawn/.exec(result.stdout)?.[1];
      assert.ok(fresh, result.stdout);
      const after = await jwksNow();
      assert.deepEqual(after.keys.map((k) => k.kid), [fresh]);
      assert.ok(!before.keys.some((k) => k.kid === fresh));
      assert.deepEqual(await signedNowWith(after), { kid: fresh, verifies: true });
      // Every node drops the withdrawn sealing key when it next reads the keys, within a minute.
      t.clock.advance(61_000);
      assert.equal(await isActive(t, issued.token, issued.auth), false);
      const refused = await fetch(`${t.publicUrl}/v1/invoices`, { headers: { authorization: `Bearer ${issued.token}` } });
      assert.equal(refused.status, 401);

      const db = t.gatehouse.database.db;
      const kept = await db.selectFrom('oauth_signing_keys').select(['kid', 'alg', 'publish_until']).where('kid', '!=', fresh).where('alg', '!=', 'HS256').execute();
      assert.ok(kept.length >= 2 && kept.every((k) => Number(k.publish_until) <= t.clock.now()), 'earlier signing keys unpublished, their public parts kept');
      const macs = await db.selectFrom('oauth_signing_keys').select('kid').where('alg', '=', 'HS256').execute();
      assert.equal(macs.length, 1, 'the withdrawn sealing keys are gone');
      const record = await db.selectFrom('audit_events').select('changes').where('account_id', '=', PLATFORM_ACCOUNT).where('action', '=', 'signing_keys.rotated').orderBy('occurred_at', 'desc').executeTakeFirstOrThrow();
      const withdrawn = JSON.parse(record.changes!).withdrawn_kids.after as string[];
      // The sealing keys among them are deleted; the signing keys keep their public parts, marked.
      assert.deepEqual(withdrawn.filter((k) => k.startsWith('key_')).sort(), (await db.selectFrom('oauth_signing_keys').select('kid').where('withdrawn_at', 'is not', null).execute()).map((k) => k.kid).sort());
      assert.ok(before.keys.every((k) => withdrawn.includes(k.kid!)), 'every key that was published is withdrawn');
      // The checkpoints the withdrawn keys signed still verify.
      await t.gatehouse.services.audit.sealer.sealPending();
      const report = await t.gatehouse.services.audit.verifier.verify(PLATFORM_ACCOUNT);
      assert.equal(report.ok, true, JSON.stringify(report));
      assert.ok(report.chains[0]!.checkpoints.verified >= 1);
    });
  });
}

for (const target of databaseTargets()) {
  describe(`sweeping expired OAuth state (${target.kind})`, () => {
    it('expired tokens, jtis and revocation entries go; live ones stay', async () => {
      const t = await startTestApp(target);
      try {
        const accountId = await createAccount(t);
        const live = await t.gatehouse.services.accessTokens.issue({ accountId, clientId: 'c', scopes: ['invoices:read'], ttlSeconds: 7200 });
        await t.gatehouse.services.accessTokens.issue({ accountId, clientId: 'c', scopes: ['invoices:read'], ttlSeconds: 60 });
        const db = t.gatehouse.database.db;
        await db.insertInto('oauth_assertion_jtis').values({ client_id: 'c', jti: 'j', expires_at: t.clock.now() + 1000 }).execute();
        await db.insertInto('oauth_revoked_tokens').values({ token_id: 'at_x', expires_at: t.clock.now() + 1000 }).execute();
        const { sweepExpiredOAuthState } = await import('../../src/oauth/sweeper.ts');
        const removed = await sweepExpiredOAuthState({ db, keys: t.gatehouse.services.oauth.keys }, t.clock.now() + 3600_000);
        assert.equal(removed, 3);
        const left = await db.selectFrom('access_tokens').select('id').execute();
        assert.deepEqual(left.map((r) => r.id), [live.id]);
        assert.ok(await t.gatehouse.services.accessTokens.verify(live.token));
      } finally {
        await t.close();
      }
    });
  });
}

for (const target of databaseTargets()) {
  describe(`signing keys made and retired across nodes (${target.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('nodes starting at once on an empty database make one key of each kind; a rotation run with a shorter token lifetime keeps retired keys for the longest one a node recorded', async () => {
      const created = await target.create();
      cleanups.push(created.drop);
      const vault = createKeyVault(randomBytes(32));
      const nodes = await Promise.all([3600, 86_400, 3600, 600].map(async (retainSeconds) => {
        // A database (and its pool) of its own each, as nodes have.
        const database = await openDatabase({ databaseUrl: created.url });
        cleanups.push(() => database.close());
        return { database, keys: createSigningKeys({ db: database.db, clock: systemClock, vault, retainSeconds }) };
      }));
      await migrateToLatest(nodes[0]!.database);
      // At once on PostgreSQL; one after another on SQLite, where the nodes of one process would
      // wait for each other's file lock on its one thread (a deployment runs one node per file).
      if (target.kind === 'postgres') await Promise.all(nodes.map((node) => node.keys.ensureActive()));
      else for (const node of nodes) await node.keys.ensureActive();
      const db = nodes[0]!.database.db;
      const active = await db.selectFrom('oauth_signing_keys').select(['alg']).where('retired_at', 'is', null).orderBy('alg').execute();
      assert.deepEqual(active.map((k) => k.alg), ['ES256', 'HS256'], 'one active key of each kind');
      // The first RS256 ID tokens, asked of every node at once: one RS256 key is made.
      const signRs256 = (node: (typeof nodes)[number]) => node.keys.sign({ sub: 'x' }, undefined, 'RS256');
      if (target.kind === 'postgres') await Promise.all(nodes.map(signRs256));
      else for (const node of nodes) await signRs256(node);
      const rsa = await db.selectFrom('oauth_signing_keys').select('kid').where('alg', '=', 'RS256').where('retired_at', 'is', null).execute();
      assert.equal(rsa.length, 1, 'one RS256 key');

      // The host running the rotation has the default lifetime (an hour); a node issues day-long tokens.
      const rotation = createSigningKeys({ db, clock: systemClock, vault, retainSeconds: 3600 });
      const before = Date.now();
      const { retainSeconds } = await rotation.rotate();
      assert.equal(retainSeconds, 86_400);
      const retired = await db.selectFrom('oauth_signing_keys').select(['publish_until']).where('retired_at', 'is not', null).execute();
      assert.equal(retired.length, 3, 'ES256, RS256 and HS256 retired');
      for (const key of retired) assert.ok(Number(key.publish_until) >= before + 86_400_000, 'kept until the day-long tokens it signed expire');
    });
  });
}
