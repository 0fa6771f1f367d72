/**
 * GET /v1/invoices?limit=100 over 1,000,000 invoices in one account, with a bearer token:
 * the first page, and a page about a million rows deep (a real sealed cursor positioned at
 * row 999,800). Targets: deep/first p50 latency ≤ 1.2 on every database (keyset paging costs
 * the same at any depth), first page ≥ 0.25 × the hello-world ceiling on SQLite, ≥ 0.12 × on PostgreSQL.
 *
 * Each database is measured in ROUNDS rounds of (ceiling, first page, deep page), every one warmed
 * and timed the same way, and each ratio is reported from its median round: on a shared machine
 * the ceiling alone moves by half within minutes, and p50 in whole milliseconds moves by a step.
 *
 * Seeding is a separate step before the measured run: rows go straight into the store (not
 * over HTTP) in one bulk-load transaction per database, with progress on standard output. The
 * seeded database is kept (lib/seed-cache.ts) and reused by later runs of the same schema.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { measureWithCpu } from '../lib/load.ts';
import { postgresCpuOf, type PostgresCpu } from '../lib/postgres-cpu.ts';
import { BENCH_SECRETS_KEY, startCeiling, startGatehouse } from '../lib/processes.ts';
import { median, type Row } from '../lib/report.ts';
import { seedCache, type SeedRecord } from '../lib/seed-cache.ts';
import type { BenchDatabase, Scenario } from '../run.ts';
import { openDatabase, type Db } from '../../src/platform/db/database.ts';
import { loadSqliteDriver } from '../../src/platform/db/sqlite-driver.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import { createAccessTokens } from '../../src/oauth/access-tokens.ts';
import { openKeyVault } from '../../src/platform/secrets-key.ts';
import { createKeyRing, sealCursor } from '../../src/paging/cursor.ts';
import { INVOICES_ORDER, storedInvoice } from '../../src/payments/invoices.ts';
import type { InvoiceRow, Unrendered } from '../../src/payments/tables.ts';

const ROWS = Number(process.env.BENCH_INVOICES ?? 1_000_000);
const DEPTH = Math.max(0, ROWS - 200);

/**
 * Inserts ROWS invoices for one new account; returns the account and how long it took.
 * The schema comes from the migrations; the rows then go in through the fastest path each
 * database has for a bulk load, with the keyset index built once, sorted, at the end (the same
 * index as migration 0200; it is back before the server starts).
 */
async function seed(databaseUrl: string): Promise<{ accountId: string; seconds: number }> {
  const started = Date.now();
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  const accountId = newId('acct');
  try {
    await migrateToLatest(database);
    await database.db.insertInto('accounts').values({ id: accountId, name: 'Bench', created_at: started }).execute();
  } finally {
    await database.close();
  }
  const progress = (done: number) =>
    console.log(`  seeding: ${done.toLocaleString('en')} / ${ROWS.toLocaleString('en')} invoices, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (databaseUrl.startsWith('sqlite:')) seedSqlite(databaseUrl.slice('sqlite:'.length), accountId, started - ROWS, progress);
  else await seedPostgres(databaseUrl, accountId, started - ROWS, progress);
  return { accountId, seconds: (Date.now() - started) / 1000 };
}

const PROGRESS_EVERY = 100_000;

/**
 * SQLite: one transaction of prepared multi-row inserts on the file opened directly, with
 * neither journal nor fsync (a crash mid-seed leaves a file the cache never records, see
 * lib/seed-cache.ts) and a page cache large enough to hold the primary-key index.
 */
function seedSqlite(file: string, accountId: string, base: number, progress: (done: number) => void): void {
  const Sqlite = loadSqliteDriver();
  const connection = new Sqlite(file);
  try {
    connection.pragma('journal_mode = OFF');
    connection.pragma('synchronous = OFF');
    connection.pragma('cache_size = -1000000');
    // The keyset index is built once, sorted, at the end, from its own definition.
    const keysetIndex = connection.prepare("select sql from sqlite_master where type = 'index' and name = 'invoices_account_created'").pluck().get() as string;
    connection.exec('drop index invoices_account_created');
    const perStatement = 1000;
    const statementFor = (rows: number) =>
      connection.prepare(
        `insert into invoices (${INVOICE_COLUMNS.join(', ')}) values ${Array(rows).fill(`(${INVOICE_COLUMNS.map(() => '?').join(', ')})`).join(', ')}`,
      );
    const full = statementFor(perStatement);
    connection.transaction(() => {
      for (let done = 0; done < ROWS; ) {
        const rows = Math.min(perStatement, ROWS - done);
        const values: unknown[] = [];
        for (let i = done; i < done + rows; i++) values.push(...invoiceValues(accountId, base, i));
        (rows === perStatement ? full : statementFor(rows)).run(values);
        done += rows;
        if (done % PROGRESS_EVERY === 0 || done === ROWS) progress(done);
      }
    })();
    connection.exec(keysetIndex);
    connection.pragma('journal_mode = WAL');
  } finally {
    connection.close();
  }
}

/**
 * PostgreSQL: one transaction. The invoices table's primary key, foreign key and keyset index
 * are set aside while it fills (each would otherwise cost a B-tree insertion or a trigger per
 * row) and put back from their own definitions, read from the catalogue, so the schema ends
 * exactly as the migrations made it and every row is checked against them once, in bulk.
 * Each statement sends only a batch of ids; the database derives every other column from the
 * row's ordinal, exactly as invoiceValues does.
 */
async function seedPostgres(databaseUrl: string, accountId: string, base: number, progress: (done: number) => void): Promise<void> {
  const url = new URL(databaseUrl);
  const schema = url.searchParams.get('schema');
  url.searchParams.delete('schema');
  const client = new pg.Client({ connectionString: url.href, options: schema ? `-c search_path=${schema}` : undefined });
  await client.connect();
  try {
    await client.query('begin');
    await client.query("set local maintenance_work_mem = '256MB'");
    const restore = await setAsideKeys(client, 'invoices');
    const batch = 100_000;
    for (let done = 0; done < ROWS; done += batch) {
      const ids = Array.from({ length: Math.min(batch, ROWS - done) }, () => newId('inv'));
      await client.query(
        `insert into invoices (${INVOICE_COLUMNS.join(', ')})
         select id, $2, amount, currency, description, '{}', state, created_at, settled_at,
           '{"id":"' || id || '","object":"invoice","amount":' || amount || ',"currency":"' || currency ||
           '","description":"' || description || '","metadata":{},"state":"' || state || '","created_at":' || ${rfc3339('created_at')} ||
           ',"settled_at":' || coalesce(${rfc3339('settled_at')}, 'null') || '}'
         from unnest($1::text[]) with ordinality as t(id, n),
           lateral (select $4::bigint + n - 1 as i) as ordinal,
           lateral (select 100 + i % 10000 as amount, case when i % 3 = 0 then 'USD' else 'EUR' end as currency, 'Invoice ' || i as description,
             case when i % 4 = 0 then 'settled' else 'open' end as state, $3::bigint + i / 3 as created_at,
             case when i % 4 = 0 then $3::bigint + i / 3 + 1000 end as settled_at) as invoice`,
        [ids, accountId, base, done],
      );
      progress(done + ids.length);
    }
    console.log('  seeding: building the primary key, foreign key and keyset index');
    await restore();
    await client.query('commit');
    // As after any bulk load: statistics for the planner, and the visibility map and hint bits
    // set now rather than by autovacuum and the first readers during the measurements.
    await client.query('vacuum (analyze) invoices');
  } finally {
    await client.end();
  }
}

/** SQL for the quoted RFC 3339 text of an epoch-milliseconds column, as toRfc3339 writes it (null stays null). */
function rfc3339(column: string): string {
  return `('"' || to_char(to_timestamp(${column} / 1000) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad((${column} % 1000)::text, 3, '0') || 'Z"')`;
}

/** Drops `table`'s primary and foreign keys and its other indexes; returns what puts them back as they were. */
async function setAsideKeys(client: pg.Client, table: string): Promise<() => Promise<void>> {
  const constraints = await client.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
     where conrelid = $1::regclass and contype in ('p', 'f') order by contype desc`,
    [table],
  );
  const indexes = await client.query<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.oid)`,
    [table],
  );
  for (const c of constraints.rows) await client.query(`alter table ${table} drop constraint ${c.name}`);
  for (const i of indexes.rows) await client.query(`drop index ${i.name}`);
  return async () => {
    // The primary key first (contype 'p' sorts after 'f', hence desc above): keys others may need.
    for (const c of constraints.rows) await client.query(`alter table ${table} add constraint ${c.name} ${c.definition}`);
    for (const i of indexes.rows) await client.query(i.definition);
  };
}

const INVOICE_COLUMNS = ['id', 'account_id', 'amount', 'currency', 'description', 'metadata', 'state', 'created_at', 'settled_at', 'representation'] as const;

/** Invoice number `i` of the seed, as values in INVOICE_COLUMNS order (the PostgreSQL seed derives the same in SQL). */
function invoiceValues(accountId: string, base: number, i: number): unknown[] {
  const settled = i % 4 === 0;
  // Several invoices share each millisecond, as real traffic does.
  const createdAt = base + Math.floor(i / 3);
  const row: Unrendered<InvoiceRow> = {
    id: newId('inv'),
    account_id: accountId,
    amount: 100 + (i % 10_000),
    currency: i % 3 === 0 ? 'USD' : 'EUR',
    description: `Invoice ${i}`,
    metadata: '{}',
    state: settled ? 'settled' : 'open',
    created_at: createdAt,
    settled_at: settled ? createdAt + 1000 : null,
  };
  const stored = storedInvoice(row);
  return INVOICE_COLUMNS.map((column) => stored[column]);
}

/** A token for the seeded account and a cursor DEPTH rows deep, made afresh on every run. */
async function prepare(databaseUrl: string, accountId: string, cursorKey: { id: string; key: Buffer }): Promise<{ token: string; deepCursor: string }> {
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    await migrateToLatest(database);
    const token = await createAccessTokens({ db: database.db, clock: systemClock, vault: await openKeyVault({ database, configured: BENCH_SECRETS_KEY }) }).issue({
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

/** The first page's least share of the ceiling, by database (PostgreSQL's backends share the machine's cores). */
const FIRST_PAGE_TARGET: Record<BenchDatabase['kind'], number> = { sqlite: 0.25, postgres: 0.12 };

/** Rounds of (ceiling, first page, deep page) per database; the median round of each ratio is reported. */
const ROUNDS = Number(process.env.BENCH_LIST_ROUNDS ?? 3);

type Measured = Awaited<ReturnType<typeof measureWithCpu>>;
/** One round: the ceiling, then the first and the deep page, measured back to back. */
type Round = { top: Measured; first: Measured; deep: Measured };

export const listInvoices: Scenario = {
  name: 'list-invoices',
  async run({ databases, note }) {
    const rows: Row[] = [];
    // The ceiling stays up (idle between its turns) and is measured once per round, right
    // before the pages it is compared with: on a shared machine both drift within minutes.
    const ceiling = await startCeiling();
    const ceilings: Measured[] = [];
    try {
      for (const database of databases) {
        const { url, record, built } = await seededDatabase(database);
        const cursorKey = { id: 'bench', key: Buffer.from(record.cursorKey, 'base64') };
        note(
          `list-invoices, ${database.kind}: ${ROWS.toLocaleString('en')} invoices seeded in ${record.seconds.toFixed(0)} s` +
            (built ? ' (this run)' : ` (on ${record.builtAt.slice(0, 16).replace('T', ' ')} UTC, reused from bench/.cache)`),
        );
        const seeded = await prepare(url, record.accountId, cursorKey);
        const postgres: PostgresCpu | undefined = database.kind === 'postgres' ? postgresCpuOf(url) : undefined;
        const gatehouse = await startGatehouse({
          databaseUrl: postgres?.url ?? url,
          env: { GATEHOUSE_CURSOR_KEYS: `${cursorKey.id}:${cursorKey.key.toString('base64')}` },
        });
        try {
          const headers = { authorization: `Bearer ${seeded.token}` };
          const firstUrl = `${gatehouse.url}/v1/invoices?limit=100`;
          const deepUrl = `${firstUrl}&after=${encodeURIComponent(seeded.deepCursor)}`;
          const check = await fetch(deepUrl, { headers });
          const body = (await check.json()) as { data?: unknown[] };
          if (check.status !== 200 || body.data?.length !== 100) throw new Error(`deep page answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);

          const rounds: Round[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            const top = await measureWithCpu(ceiling.process.pid!, { url: ceiling.url, headers });
            const first = await measureWithCpu(gatehouse.process.pid!, { url: firstUrl, headers }, { postgres });
            const deep = await measureWithCpu(gatehouse.process.pid!, { url: deepUrl, headers }, { postgres });
            ceilings.push(top);
            rounds.push({ top, first, deep });
          }
          const vsCeilingOf = (r: Round) => r.first.requestsPerSecond / r.top.requestsPerSecond;
          const deepOverFirstOf = (r: Round) => r.deep.p50Ms / Math.max(r.first.p50Ms, 0.001);
          note(
            `list-invoices, ${database.kind}, rounds (first page × ceiling, deep/first p50): ` +
              rounds.map((r) => `${vsCeilingOf(r).toFixed(2)} (${r.first.requestsPerSecond}/${r.top.requestsPerSecond}, ${r.first.cpu}), ${deepOverFirstOf(r).toFixed(2)} (${r.deep.p50Ms}/${r.first.p50Ms} ms)`).join('; '),
          );
          const answered = rounds.every((r) => r.first.non2xx === 0);
          const byCeiling = median(rounds, vsCeilingOf);
          const vsCeiling = vsCeilingOf(byCeiling);
          const { first } = byCeiling;
          rows.push({
            scenario: 'list-invoices',
            subject: `first page, limit=100 (${ROWS.toLocaleString('en')} rows; ${first.cpu}; median of ${ROUNDS} rounds)`,
            database: database.kind,
            ...first,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${vsCeiling.toFixed(2)} × ceiling (its round: ${byCeiling.top.requestsPerSecond}/s)`,
            target: `≥ ${FIRST_PAGE_TARGET[database.kind]}`,
            pass: vsCeiling >= FIRST_PAGE_TARGET[database.kind] && answered,
          });
          const byDepth = median(rounds, deepOverFirstOf);
          const latencyRatio = deepOverFirstOf(byDepth);
          const { deep } = byDepth;
          rows.push({
            scenario: 'list-invoices',
            subject: `page ${DEPTH.toLocaleString('en')} rows deep, limit=100 (${deep.cpu}; median of ${ROUNDS} rounds)`,
            database: database.kind,
            ...deep,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${latencyRatio.toFixed(2)} × first-page p50 (its round: ${byDepth.first.p50Ms} ms)`,
            target: '≤ 1.2',
            pass: latencyRatio <= 1.2 && rounds.every((r) => r.deep.non2xx === 0),
          });
        } finally {
          await gatehouse.stop();
        }
      }
    } finally {
      await ceiling.stop();
    }
    const top = median(ceilings, (c) => c.requestsPerSecond);
    rows.unshift({ scenario: 'list-invoices', subject: `fastify ${ceiling.fastify} hello-world, same GET (ceiling; ${top.cpu}; median of ${ceilings.length} rounds)`, database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    return rows;
  },
};
