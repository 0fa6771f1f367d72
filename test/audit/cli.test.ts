/**
 * `gatehouse audit verify` and `gatehouse audit export` against a database a real app wrote,
 * on each database: verify passes, then names the record someone edited in the database; the
 * export streams the range as NDJSON with its progress on standard error.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { secretsKeyEnvFor, databaseTargets, type DatabaseTarget } from '../helpers/databases.ts';
import { startTestApp } from '../helpers/test-app.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { api, newTenant } from '../payments/api.ts';

const BIN = path.resolve('bin/gatehouse.js');

function gatehouse(args: string[], databaseUrl: string, env: Record<string, string> = {}, timeout = 60_000) {
  return spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, GATEHOUSE_DATABASE_URL: databaseUrl, ...secretsKeyEnvFor(databaseUrl), ...env }, encoding: 'utf8', timeout });
}

function existing(kind: DatabaseTarget['kind'], url: string): DatabaseTarget {
  return { kind, create: async () => ({ url, drop: async () => {} }) };
}

describe('gatehouse audit export: its command line', () => {
  it('a --since or --until that is not an RFC 3339 date-time is refused (exit 2, one line naming the flag) before the database is opened', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-cli-'));
    try {
      const file = path.join(dir, 'gatehouse.db');
      for (const [flag, value] of [['--since', 'yesterday'], ['--until', '2026-13-45']]) {
        const refused = gatehouse(['audit', 'export', '--out', '-', flag!, value!], `sqlite:${file}`);
        assert.equal(refused.status, 2, refused.stderr);
        assert.equal(refused.stdout, '');
        assert.equal(refused.stderr, `gatehouse: audit export: ${flag} must be an RFC 3339 date-time, e.g. 2026-03-01T00:00:00Z (got "${value}")\n`);
        assert.equal(fs.existsSync(file), false, 'no database was created');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const target of databaseTargets()) {
  describe(`gatehouse audit (${target.kind})`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it('verify passes, then names an edited record (exit 4); export writes the range as NDJSON with progress', async () => {
      const database = await target.create();
      cleanups.push(database.drop);
      const t = await startTestApp(existing(target.kind, database.url));
      const { accountId, token } = await newTenant(t);
      for (let i = 1; i <= 3; i++) {
        assert.equal((await api(t, token, 'POST', '/v1/invoices', { amount: i, currency: 'EUR' })).status, 201);
        t.clock.advance(1);
      }
      await t.gatehouse.close();

      const ok = gatehouse(['audit', 'verify', '--account', accountId], database.url);
      assert.equal(ok.status, 0, ok.stderr + ok.stdout);
      assert.match(ok.stdout, new RegExp(`ok   ${accountId}: 4 records \\(1\\.\\.4\\), 1 checkpoints verified`));
      const mistyped = gatehouse(['audit', 'verify', '--account', 'acct_mistyped'], database.url);
      assert.equal(mistyped.status, 1, mistyped.stderr + mistyped.stdout);
      assert.match(mistyped.stderr, /No account acct_mistyped, and no audit records of one/);
      assert.equal(mistyped.stdout, '');

      const exported = gatehouse(['audit', 'export', '--out', '-', '--account', accountId, '--action', 'invoice.'], database.url);
      assert.equal(exported.status, 0, exported.stderr);
      const lines = exported.stdout.trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(lines.map((l) => [l.action, l.changes.amount.after]), [['invoice.created', 1], ['invoice.created', 2], ['invoice.created', 3]]);
      assert.match(exported.stderr, /exporting 3 audit records/);
      assert.match(exported.stderr, /exported 3 audit records/);

      const opened = await openDatabase({ databaseUrl: database.url });
      const victim = await opened.db.selectFrom('audit_events').select(['id']).where('account_id', '=', accountId).where('seq', '=', 3).executeTakeFirstOrThrow();
      await opened.db.updateTable('audit_events').set({ changes: '{"amount":{"after":3000}}' }).where('id', '=', victim.id).execute();
      await opened.close();
      const broken = gatehouse(['audit', 'verify'], database.url);
      assert.equal(broken.status, 4, broken.stderr + broken.stdout);
      assert.match(broken.stdout, new RegExp(`FAIL ${accountId}.*\\n  altered at 3 \\(${victim.id}\\)`));
      assert.match(broken.stdout, /tampered with/);
    });

    it('the newest records cut off with their checkpoints and the head: verify alone passes, an anchor kept elsewhere names the cut (exit 4)', async () => {
      const database = await target.create();
      cleanups.push(database.drop);
      const t = await startTestApp(existing(target.kind, database.url));
      const { accountId, token } = await newTenant(t);
      for (let i = 1; i <= 4; i++) {
        assert.equal((await api(t, token, 'POST', '/v1/invoices', { amount: i, currency: 'EUR' })).status, 201);
        t.clock.advance(1);
      }
      await t.gatehouse.services.audit.sealer.sealPending();
      // What a SIEM holds: the newest record's place and hash, as it was streamed.
      const streamed = await t.gatehouse.database.db.selectFrom('audit_events').select(['seq', 'hash']).where('account_id', '=', accountId).orderBy('seq', 'desc').executeTakeFirstOrThrow();
      await t.gatehouse.close();
      const anchor = `${streamed.seq}:${streamed.hash}`;
      const before = gatehouse(['audit', 'verify', '--account', accountId, '--anchor', anchor], database.url);
      assert.equal(before.status, 0, before.stderr + before.stdout);
      assert.ok(before.stdout.includes(`; head ${anchor}\n`), 'verify prints the anchor to keep');

      const opened = await openDatabase({ databaseUrl: database.url });
      const keep = 2;
      const kept = await opened.db.selectFrom('audit_events').select('hash').where('account_id', '=', accountId).where('seq', '=', keep).executeTakeFirstOrThrow();
      await opened.db.deleteFrom('audit_events').where('account_id', '=', accountId).where('seq', '>', keep).execute();
      await opened.db.deleteFrom('audit_checkpoints').where('account_id', '=', accountId).where('seq', '>', keep).execute();
      await opened.db.updateTable('audit_chains').set({ head_seq: keep, head_hash: kept.hash! }).where('account_id', '=', accountId).execute();
      await opened.close();

      const alone = gatehouse(['audit', 'verify', '--no-seal', '--account', accountId], database.url);
      assert.equal(alone.status, 0, 'nothing left in the database to compare with');
      const anchored = gatehouse(['audit', 'verify', '--no-seal', '--account', accountId, '--anchor', anchor], database.url);
      assert.equal(anchored.status, 4, anchored.stderr + anchored.stdout);
      assert.match(anchored.stdout, new RegExp(`FAIL ${accountId}.*\\n  removed at ${keep + 1}: the chain ends at ${keep}, before the anchored record ${streamed.seq}`));
      const rewritten = gatehouse(['audit', 'verify', '--no-seal', '--account', accountId, '--anchor', `${keep}:${'0'.repeat(64)}`], database.url);
      assert.equal(rewritten.status, 4);
      assert.match(rewritten.stdout, new RegExp(`altered at ${keep}: the chain no longer passes through the anchored hash`));
      const malformed = gatehouse(['audit', 'verify', '--anchor', anchor], database.url);
      assert.equal(malformed.status, 1, 'an anchor needs its account');
      assert.match(malformed.stderr, /--anchor takes <seq>:<hash>.*needs --account/);
    });

    it('a database behind this release: verify, export and rotate-keys stop naming `gatehouse migrate`, and change no schema', async () => {
      const database = await target.create();
      cleanups.push(database.drop);
      const t = await startTestApp(existing(target.kind, database.url));
      await t.gatehouse.close();
      const opened = await openDatabase({ databaseUrl: database.url });
      const table = target.kind === 'postgres' ? sql.table(`${opened.schema ?? 'public'}.kysely_migration`) : sql.table('kysely_migration');
      // Migration 0703 undone: its index and its bookkeeping row.
      await sql`drop index ${sql.table(target.kind === 'postgres' ? `${opened.schema ?? 'public'}.oauth_grants_session` : 'oauth_grants_session')}`.execute(opened.db);
      await sql`delete from ${table} where name = '0703_grants_by_session'`.execute(opened.db);
      await opened.close();
      for (const args of [['audit', 'verify'], ['audit', 'export', '--out', '-'], ['rotate-keys']]) {
        const refused = gatehouse(args, database.url);
        assert.equal(refused.status, 1, `${args.join(' ')}: ${refused.stderr}${refused.stdout}`);
        assert.match(refused.stderr, /the database is behind this release: 1 migration\(s\) not applied \(0703_grants_by_session\); run `gatehouse migrate` first/);
      }
      const after = await openDatabase({ databaseUrl: database.url });
      const row = await sql<{ n: number }>`select count(*) as n from ${table} where name = '0703_grants_by_session'`.execute(after.db);
      await after.close();
      assert.equal(Number(row.rows[0]!.n), 0, 'nothing was migrated');
      const migrated = gatehouse(['migrate'], database.url);
      assert.equal(migrated.status, 0, migrated.stderr);
      assert.match(migrated.stdout, /applied 0703_grants_by_session/);
    });

    // `audit verify --help` lists the database settings: the command honours them like every other
    // that opens the database. A statement stuck behind a lock ends at the statement timeout.
    it('verify honours GATEHOUSE_DATABASE_STATEMENT_TIMEOUT: a chain locked by someone else fails it in time', { skip: target.kind !== 'postgres' && 'PostgreSQL only: SQLite has no statement timeout' }, async () => {
      const database = await target.create();
      cleanups.push(database.drop);
      const t = await startTestApp(existing(target.kind, database.url));
      const { accountId, token } = await newTenant(t);
      assert.equal((await api(t, token, 'POST', '/v1/invoices', { amount: 1, currency: 'EUR' })).status, 201);
      await t.gatehouse.close();

      const holder = await openDatabase({ databaseUrl: database.url });
      const locked = await holder.db.connection().execute(async (connection) => {
        await sql`BEGIN`.execute(connection);
        await sql`LOCK TABLE audit_events IN ACCESS EXCLUSIVE MODE`.execute(connection);
        try {
          // The default (15 s) would outlast this call's deadline; 500 ms fails it well before.
          return gatehouse(['audit', 'verify', '--account', accountId], database.url, { GATEHOUSE_DATABASE_STATEMENT_TIMEOUT: '500' }, 10_000);
        } finally {
          await sql`ROLLBACK`.execute(connection);
        }
      });
      await holder.close();
      assert.equal(locked.signal, null, 'it ended by itself, not killed at the deadline');
      assert.equal(locked.status, 1, locked.stderr + locked.stdout);
      assert.match(locked.stderr, /statement timeout/);

      // Nothing was sealed meanwhile; once the lock is gone the same command seals and verifies.
      const again = gatehouse(['audit', 'verify', '--account', accountId], database.url, { GATEHOUSE_DATABASE_STATEMENT_TIMEOUT: '500' });
      assert.equal(again.status, 0, again.stderr + again.stdout);
      assert.match(again.stdout, new RegExp(`ok   ${accountId}: 2 records \\(1\\.\\.2\\)`));
    });
  });
}

describe('gatehouse audit export: an --out that cannot be written', () => {
  it('fails with one line naming it (exit 1), and writes nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-export-'));
    try {
      const databaseUrl = `sqlite:${path.join(dir, 'gatehouse.db')}`;
      assert.equal(gatehouse(['migrate'], databaseUrl).status, 0);
      const unwritable = path.join(dir, 'missing', 'audit.ndjson');
      const r = gatehouse(['audit', 'export', '--out', unwritable], databaseUrl);
      assert.equal(r.status, 1, r.stderr);
      assert.deepEqual(r.stderr.trim().split('\n'), [`gatehouse: audit export: cannot write --out ${unwritable}: ENOENT: no such file or directory, open '${unwritable}'`]);
      assert.equal(fs.existsSync(unwritable), false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gatehouse audit: a database that is not there', () => {
  it('a mistyped SQLite path fails verify and export (exit 1, one line naming the setting) and creates nothing: no "0 chains verify"', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-missing-'));
    try {
      const file = path.join(dir, 'gatehouse-typo.db');
      for (const args of [['audit', 'verify'], ['audit', 'export', '--out', '-']]) {
        const r = gatehouse(args, `sqlite:${file}`, { GATEHOUSE_SECRETS_KEY: '' });
        assert.equal(r.status, 1, r.stderr);
        assert.equal(r.stdout, '');
        assert.deepEqual(r.stderr.trim().split('\n'), [`gatehouse: GATEHOUSE_DATABASE_URL (sqlite:${file}) names no database: ${file} does not exist`]);
      }
      assert.deepEqual(fs.readdirSync(dir), [], 'neither a database nor a secrets key was made');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an --account that names no account and nothing in the trail fails export as it fails verify (exit 1), not "0 records"', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-account-'));
    try {
      const databaseUrl = `sqlite:${path.join(dir, 'gatehouse.db')}`;
      assert.equal(gatehouse(['migrate'], databaseUrl).status, 0);
      for (const args of [['audit', 'export', '--out', '-', '--account', 'acct_mistyped'], ['audit', 'verify', '--account', 'acct_mistyped']]) {
        const r = gatehouse(args, databaseUrl);
        assert.equal(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, /No account acct_mistyped, and no audit records of one/);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a database without Gatehouse\'s schema fails verify (exit 1) and is left as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-empty-'));
    try {
      const file = path.join(dir, 'other.db');
      const other = await openDatabase({ databaseUrl: `sqlite:${file}` });
      await other.close();
      const r = gatehouse(['audit', 'verify'], `sqlite:${file}`);
      assert.equal(r.status, 1, r.stderr);
      assert.deepEqual(r.stderr.trim().split('\n'), [`gatehouse: GATEHOUSE_DATABASE_URL names a database that holds no Gatehouse data (${file}): nothing to read`]);
      const reopened = await openDatabase({ databaseUrl: `sqlite:${file}` });
      const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(reopened.db);
      await reopened.close();
      assert.deepEqual(tables.rows, [], 'no migration ran');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
