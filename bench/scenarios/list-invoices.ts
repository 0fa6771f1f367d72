/**
 * GET /v1/invoices?limit=100 over 1,000,000 invoices in one account, with a bearer token:
 * the first page, and a page about a million rows deep (a real sealed cursor positioned at
 * row 999,800). Targets: deep/first p50 latency ≤ 1.2 on every database (keyset paging costs
 * the same at any depth), first page ≥ 0.25 × the hello-world ceiling on SQLite.
 *
 * Seeding is a separate step before the measured run: rows go straight into the store in
 * large batches inside transactions (not over HTTP), with progress on standard output. The
 * seeded database is kept (lib/seed-cache.ts) and reused by later runs of the same schema.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { load, warmUp } from '../lib/load.ts';
import { startCeiling, startGatehouse } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import { seedCache, type SeedRecord } from '../lib/seed-cache.ts';
import type { BenchDatabase, Scenario } from '../run.ts';
import { openDatabase, type Db } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import { createAccessTokens } from '../../src/oauth/access-tokens.ts';
import { openKeyVault } from '../../src/platform/secrets-key.ts';
import { createKeyRing, sealCursor } from '../../src/paging/cursor.ts';
import { INVOICES_ORDER } from '../../src/payments/invoices.ts';
import type { InvoiceRow } from '../../src/payments/tables.ts';

const ROWS = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const DEPTH = Math.max(0, ROWS - 200);

/** Inserts ROWS invoices for one new account; returns the account and how long it took. */
async function seed(databaseUrl: string): Promise<{ accountId: string; seconds: number }> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const { db } = database;
  try {
    await migrateToLatest(database);
    const started = Date.now();
    const accountId = newId('acct');
    await db.insertInto('accounts').values({ id: accountId, name: 'Bench', created_at: started }).execute();
    const batch = 50_000;
    const base = started - ROWS;
    // A bulk load builds the keyset index once, sorted, instead of row by row (the same
    // index as migration 0200; it is back before the server starts).
    await db.schema.dropIndex('invoices_account_created').execute();
    for (let done = 0; done < ROWS; done += batch) {
      const rows = invoiceRows(accountId, base, done, Math.min(ROWS, done + batch));
      await db.transaction().execute((trx) => insertMany(trx, database.kind, rows));
      if ((done + batch) % 100_000 === 0 || done + batch >= ROWS) {
        console.log(`  seeding ${database.kind}: ${Math.min(ROWS, done + batch).toLocaleString('en')} / ${ROWS.toLocaleString('en')} invoices, ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    }
    await db.schema.createIndex('invoices_account_created').on('invoices').columns(['account_id', 'created_at', 'id']).execute();
    if (database.kind === 'postgres') await sql`analyze invoices`.execute(db);
    return { accountId, seconds: (Date.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}

/** A token for the seeded account and a cursor DEPTH rows deep, made afresh on every run. */
async function prepare(databaseUrl: string, accountId: string, cursorKey: { id: string; key: Buffer }): Promise<{ token: string; deepCursor: string }> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    await migrateToLatest(database);
    const token = await createAccessTokens({ db: database.db, clock: systemClock, vault: await openKeyVault({ db: database.db, clock: systemClock, configured: undefined }) }).issue({
      accountId,
      clientId: 'bench',
      scopes: ['invoices:read'],
      ttlSeconds: 24 * 3600,
    });
    return { token: token.token, deepCursor: await cursorAt(database.db, accountId, DEPTH, cursorKey) };
  } finally {
    await database.close();
  }
}

/**
 * One statement per batch: the rows travel as a single JSON (SQLite) or array-per-column
 * (PostgreSQL) parameter, so a 50,000-row batch costs one parse instead of 450,000 parameters.
 */
async function insertMany(trx: Db, kind: 'sqlite' | 'postgres', rows: InvoiceRow[]): Promise<void> {
  if (kind === 'sqlite') {
    const json = JSON.stringify(rows.map((r) => [r.id, r.account_id, r.amount, r.currency, r.description, r.metadata, r.state, r.created_at, r.settled_at]));
    await sql`insert into invoices (id, account_id, amount, currency, description, metadata, state, created_at, settled_at)
      select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8
      from json_each(${json})`.execute(trx);
    return;
  }
  const column = <K extends keyof InvoiceRow>(k: K) => rows.map((r) => r[k]);
  await sql`insert into invoices (id, account_id, amount, currency, description, metadata, state, created_at, settled_at)
    select * from unnest(${column('id')}::text[], ${column('account_id')}::text[], ${column('amount')}::bigint[],
      ${column('currency')}::text[], ${column('description')}::text[], ${column('metadata')}::text[], ${column('state')}::text[],
      ${column('created_at')}::bigint[], ${column('settled_at')}::bigint[])`.execute(trx);
}

function invoiceRows(accountId: string, base: number, from: number, to: number): InvoiceRow[] {
  const rows: InvoiceRow[] = [];
  for (let i = from; i < to; i++) {
    rows.push({
      id: newId('inv'),
      account_id: accountId,
      amount: 100 + (i % 10_000),
      currency: i % 3 === 0 ? 'USD' : 'EUR',
      description: `Invoice ${i}`,
      metadata: '{}',
      state: i % 4 === 0 ? 'settled' : 'open',
      // Several invoices share each millisecond, as real traffic does.
      created_at: base + Math.floor(i / 3),
      settled_at: i % 4 === 0 ? base + Math.floor(i / 3) + 1000 : null,
    });
  }
  return rows;
}

/** A cursor exactly as the service would have issued after `depth` rows of newest-first reading. */
async function cursorAt(db: Db, accountId: string, depth: number, key: { id: string; key: Buffer }): Promise<string> {
  const row = await db
    .selectFrom('invoices')
    .select(['created_at', 'id'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(depth - 1)
    .limit(1)
    .executeTakeFirstOrThrow();
  return sealCursor(createKeyRing([key]), {
    position: { key: row.created_at, id: row.id },
    order: INVOICES_ORDER,
    filter: '-',
    accountId,
    issuedAt: Date.now(),
  });
}

export async function databaseFor(database: BenchDatabase): Promise<{ url: string; drop(): Promise<void> }> {
  if (database.kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-invoices-'));
    return { url: `sqlite:${path.join(dir, 'gatehouse.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_invoices_${randomBytes(4).toString('hex')}`;
  const url = new URL(database.url!);
  url.searchParams.set('schema', schema);
  return {
    url: url.href,
    drop: async () => {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: database.url });
      await client.connect();
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

/** Where the seeded data of `database` lives, and whether an earlier run already built it. */
async function seededDatabase(database: BenchDatabase): Promise<{ url: string; record: SeedRecord; built: boolean }> {
  const cache = seedCache(`invoices-${ROWS}`, database);
  const found = await cache.find();
  if (found) return { url: cache.url, record: found, built: false };
  await cache.clear();
  const { accountId, seconds } = await seed(cache.url);
  const record: SeedRecord = { accountId, seconds, builtAt: new Date().toISOString(), cursorKey: randomBytes(32).toString('base64') };
  await cache.save(record);
  return { url: cache.url, record, built: true };
}

export const listInvoices: Scenario = {
  name: 'list-invoices',
  async run({ databases, note }) {
    const rows: Row[] = [];
    const ceiling = await startCeiling();
    await warmUp({ url: ceiling.url });
    const top = await load({ url: ceiling.url });
    rows.push({ scenario: 'list-invoices', subject: 'fastify hello-world (ceiling)', database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    await ceiling.stop();

    for (const database of databases) {
      const { url, record, built } = await seededDatabase(database);
      const cursorKey = { id: 'bench', key: Buffer.from(record.cursorKey, 'base64') };
      note(
        `list-invoices, ${database.kind}: ${ROWS.toLocaleString('en')} invoices seeded in ${record.seconds.toFixed(0)} s` +
          (built ? ' (this run)' : ` (on ${record.builtAt.slice(0, 16).replace('T', ' ')} UTC, reused from bench/.cache)`),
      );
      {
        const seeded = await prepare(url, record.accountId, cursorKey);
        const gatehouse = await startGatehouse({
          databaseUrl: url,
          env: { GATEHOUSE_CURSOR_KEYS: `${cursorKey.id}:${cursorKey.key.toString('base64')}` },
        });
        try {
          const headers = { authorization: `Bearer ${seeded.token}` };
          const firstUrl = `${gatehouse.url}/v1/invoices?limit=100`;
          const deepUrl = `${firstUrl}&after=${encodeURIComponent(seeded.deepCursor)}`;
          const check = await fetch(deepUrl, { headers });
          const body = (await check.json()) as { data?: unknown[] };
          if (check.status !== 200 || body.data?.length !== 100) throw new Error(`deep page answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);

          await warmUp({ url: firstUrl, headers });
          const first = await load({ url: firstUrl, headers });
          await warmUp({ url: deepUrl, headers });
          const deep = await load({ url: deepUrl, headers });
          const vsCeiling = first.requestsPerSecond / top.requestsPerSecond;
          rows.push({
            scenario: 'list-invoices',
            subject: `first page, limit=100 (${ROWS.toLocaleString('en')} rows)`,
            database: database.kind,
            ...first,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${vsCeiling.toFixed(2)} × ceiling`,
            ...(database.kind === 'sqlite' ? { target: '≥ 0.25', pass: vsCeiling >= 0.25 && first.non2xx === 0 } : { pass: first.non2xx === 0 }),
          });
          const latencyRatio = deep.p50Ms / Math.max(first.p50Ms, 0.001);
          rows.push({
            scenario: 'list-invoices',
            subject: `page ${DEPTH.toLocaleString('en')} rows deep, limit=100`,
            database: database.kind,
            ...deep,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${latencyRatio.toFixed(2)} × first-page p50`,
            target: '≤ 1.2',
            pass: latencyRatio <= 1.2 && deep.non2xx === 0,
          });
        } finally {
          await gatehouse.stop();
        }
      }
    }
    return rows;
  },
};
