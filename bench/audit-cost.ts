/**
 * `node --import tsx bench/audit-cost.ts`: what the audit trail adds to the write path, measured
 * side by side in one run on each database (SQLite, and PostgreSQL when BENCH_DATABASE_URL or
 * GATEHOUSE_TEST_DATABASE_URL is set).
 *
 * Two writes, each with the trail and without it: the create-payout transaction as the API runs
 * it (payout, ledger postings, outbox event, balance debit, and its audit record) and SCIM
 * POST /Users (the person, their search rows, and its audit record). "Without" is the same
 * service given a `recordAudit` that writes nothing (the dependency every service takes), so the
 * difference is exactly the record: its INSERT (on PostgreSQL, for SCIM POST /Users, a WITH
 * clause of the statement that inserts the person: the reference's `row` gives none).
 *
 * The variants alternate round by round (with, without; then without, with), so the machine's
 * load weighs on each alike. Each round runs PER_ROUND writes at a time `IN_FLIGHT` (1 and 8):
 * at 8 on PostgreSQL, writers of one account would queue if a record took an account lock. The
 * service's transaction alone is the upper bound of what the trail adds to a request.
 *
 * Then through the API: two Gatehouse servers side by side on two databases of the same kind,
 * one built with the trail and one with the recording left out (`GatehouseDeps.recordAudit`),
 * taking POST /v1/payouts (a fresh Idempotency-Key each) and POST /scim/v2/Users in alternating
 * rounds, as a client sees them. Each round there ends by sealing what it wrote, inside the round's
 * time: the sealer is the trail's own work, and both servers share this process, so a record left
 * for the next background tick would be sealed during whichever round runs then, half the time the
 * other variant's. The background ticks still run; they find only the current round's records.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database, type Db } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { dialectOf } from '../src/platform/db/dialect.ts';
import { systemClock } from '../src/platform/clock.ts';
import { newId } from '../src/platform/ids.ts';
import { createPaging } from '../src/paging/page.ts';
import { createKeyRing } from '../src/paging/cursor.ts';
import { createInvoices } from '../src/payments/invoices.ts';
import { createPayouts } from '../src/payments/payouts.ts';
import { createScimUsers } from '../src/scim/users.ts';
import { createScimUserStore } from '../src/scim/users-store.ts';
import { createScimGroupStore } from '../src/scim/groups-store.ts';
import { recordNothing, type AuditBy, type RecordAudit } from '../src/audit/record.ts';
import { createAuditSealer } from '../src/audit/sealer.ts';
import { createGatehouse, type Gatehouse } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 200);
const IN_FLIGHT = (process.env.BENCH_IN_FLIGHT ?? '1,8').split(',').map(Number);
// BENCH_DATABASES=sqlite (or postgres) measures one of them only.
const by: AuditBy = { actor: { type: 'client', id: 'client_bench' }, requestId: 'req-bench', idempotencyKey: 'key-bench', sourceAddress: '127.0.0.1', userAgent: 'bench/1' };
/** The reference: the same services, recording nothing. */
const noAudit: RecordAudit = recordNothing;

type Write = () => Promise<unknown>;

/** A round's wall time and the process's CPU time over it, in µs. */
/**
 * Statements sent to PostgreSQL by this process, counted at the pg client every query passes: how
 * many a round's writes took (creates that arrive together share one, so the count shows how well
 * they met).
 */
let statementsSent = 0;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statementsSent += 1;
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof sendQuery;

interface Spent {
  wallUs: number;
  cpuUs: number;
  /** Statements sent to PostgreSQL during the round (0 on SQLite). */
  statements: number;
  /** Of the wall time, what the round's closing work (sealing) took. */
  settleUs: number;
}

/**
 * Runs `count` writes, `inFlight` at a time. The CPU time is the whole process's: only this
 * round's variant runs meanwhile (rounds never overlap), and on SQLite it is all of the work,
 * the database's included, so it says what a request costs however loaded the machine is,
 * where wall time also counts the waits for a core other processes hold.
 */
async function runRound(write: Write, count: number, inFlight: number, settle?: () => Promise<unknown>): Promise<Spent> {
  let next = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const statementsBefore = statementsSent;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next += 1;
        await write();
      }
    }),
  );
  const settling = performance.now();
  await settle?.();
  const settleUs = (performance.now() - settling) * 1000;
  const used = process.cpuUsage(cpu);
  return { wallUs: (performance.now() - started) * 1000, cpuUs: used.user + used.system, settleUs, statements: statementsSent - statementsBefore };
}

async function writers(db: Db) {
  const paging = createPaging({ ring: createKeyRing([{ id: 'b', key: randomBytes(32) }]), clock: systemClock, cursorTtlMs: 60_000 });
  const invoices = createInvoices({ db, clock: systemClock, paging });
  const accountId = newId('acct');
  await db.insertInto('accounts').values({ id: accountId, name: 'Bench', created_at: Date.now() }).execute();
  await db.transaction().execute(async (trx) => {
    const invoice = await invoices.create(trx, accountId, { amount: 1_000_000_000, currency: 'EUR' }, by);
    await invoices.settle(trx, accountId, invoice.id, by);
  });
  const dialect = dialectOf(db);
  const payoutsWith = (recordAudit?: RecordAudit) => createPayouts({ db, clock: systemClock, paging, delayMs: 3600_000, recordAudit });
  const scimWith = (recordAudit?: RecordAudit) =>
    createScimUsers({
      db,
      store: createScimUserStore({ db, dialect }),
      groups: createScimGroupStore({ db, dialect }),
      clock: systemClock,
      revokeUserAccess: async () => {},
      baseUrl: 'https://bench.example/scim/v2',
      recordAudit,
    });
  const payout = (payouts: ReturnType<typeof payoutsWith>) => () =>
    db.transaction().execute((trx) => payouts.create(trx, accountId, { amount: 1, currency: 'EUR', destination: 'iban:DE89370400440532013000' }, by));
  let n = 0;
  const person = (scim: ReturnType<typeof scimWith>) => () => {
    n += 1;
    const userName = `person${n}@bench.example`;
    return scim.create(accountId, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, externalId: `ext-${n}`, name: { givenName: 'Bench', familyName: `No ${n}` }, emails: [{ value: userName, primary: true }], active: true }, by);
  };
  return {
    'create-payout': { with: payout(payoutsWith()), without: payout(payoutsWith(noAudit)) },
    'SCIM POST /Users': { with: person(scimWith()), without: person(scimWith(noAudit)) },
  };
}

interface Row {
  write: string;
  inFlight: number;
  withUs: number;
  withoutUs: number;
  withCpuUs: number;
  withoutCpuUs: number;
  /** Of `withUs`, the wall time per write spent sealing at the ends of rounds (through the API). */
  withSealUs: number;
  /** PostgreSQL statements per write, without and with the trail (sealing included). */
  withoutStatements: number;
  withStatements: number;
}

/** What a round of one variant runs: its write, and the work that completes the round's writes (sealing). */
interface Variant {
  write: Write;
  settle?: () => Promise<unknown>;
}

/** Runs `rounds` alternating rounds of each variant (with, without; then without, with); per-write means. */
async function alternate(variants: { with: Variant; without: Variant }, perRound: number, inFlight: number): Promise<Omit<Row, 'write' | 'inFlight'>> {
  const totals = { with: { wallUs: 0, cpuUs: 0, settleUs: 0, statements: 0 }, without: { wallUs: 0, cpuUs: 0, settleUs: 0, statements: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
    for (const name of order) {
      const spent = await runRound(variants[name].write, perRound, inFlight, variants[name].settle);
      totals[name].wallUs += spent.wallUs;
      totals[name].cpuUs += spent.cpuUs;
      totals[name].settleUs += spent.settleUs;
      totals[name].statements += spent.statements;
    }
  }
  const per = (us: number) => us / (ROUNDS * perRound);
  return { withUs: per(totals.with.wallUs), withoutUs: per(totals.without.wallUs), withCpuUs: per(totals.with.cpuUs), withoutCpuUs: per(totals.without.cpuUs), withSealUs: per(totals.with.settleUs),
    withoutStatements: totals.without.statements / (ROUNDS * perRound),
    withStatements: totals.with.statements / (ROUNDS * perRound),
  };
}

async function measure(database: Database): Promise<{ rows: Row[]; sealUs: number }> {
  const { db } = database;
  await migrateToLatest(database);
  const all = await writers(db);
  const rows: Row[] = [];
  let records = 0;
  for (const inFlight of IN_FLIGHT) {
    for (const [write, variants] of Object.entries(all)) {
      await runRound(variants.with, 20, inFlight);
      await runRound(variants.without, 20, inFlight);
      records += 20 + ROUNDS * PER_ROUND;
      rows.push({ write, inFlight, ...(await alternate({ with: { write: variants.with }, without: { write: variants.without } }, PER_ROUND, inFlight)) });
    }
  }
  const sealer = createAuditSealer({ db, clock: systemClock, macKey: randomBytes(32), signer: { sign: async () => 'unsigned' }, issuer: 'bench', checkpointIntervalMs: 3600_000 });
  const sealStarted = performance.now();
  await sealer.sealPending();
  return { rows, sealUs: ((performance.now() - sealStarted) * 1000) / records };
}

const API_PER_ROUND = Number(process.env.BENCH_API_PER_ROUND ?? 150);
const ADMIN_TOKEN = randomBytes(24).toString('hex');

/** A server on `databaseUrl`, with the trail or without it, and what its clients need. */
async function server(databaseUrl: string, recordAudit: RecordAudit | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-bench-data-'));
  const config = loadConfig({
    GATEHOUSE_DATABASE_URL: databaseUrl,
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_HOST: '127.0.0.1',
    GATEHOUSE_PORT: '0',
    GATEHOUSE_ADMIN_PORT: '0',
    GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
    GATEHOUSE_IN_PROCESS_WORKERS: 'off',
    GATEHOUSE_RATE_LIMIT_API: '1000000/1',
    GATEHOUSE_RATE_LIMIT_TOKEN: '1000000/1',
  });
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const gatehouse: Gatehouse = await createGatehouse(config, { logDestination: quiet, recordAudit });
  const { publicUrl, adminUrl } = await gatehouse.listen();
  const admin = (p: string, body: unknown) =>
    fetch(adminUrl + p, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  const account = await admin('/admin/v1/accounts', { name: 'Bench' });
  const scimToken = (await admin(`/admin/v1/accounts/${account.id}/scim-tokens`, { description: 'Bench IdP' })).token!;
  const issued = await gatehouse.services.accessTokens.issue({ accountId: account.id!, clientId: 'client_bench', userId: null, scopes: ['invoices:write', 'payouts:write'], ttlSeconds: 3600 });
  const post = (p: string, token: string, type: string, body: unknown) =>
    fetch(publicUrl + p, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': randomUUID() }, body: JSON.stringify(body) }).then(async (r) => {
      await r.arrayBuffer();
      if (r.status !== 201 && r.status !== 200) throw new Error(`${p} answered ${r.status}`);
    });
  const invoice = (await (await fetch(publicUrl + '/v1/invoices', { method: 'POST', headers: { authorization: `Bearer ${issued.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() }, body: JSON.stringify({ amount: 1_000_000_000, currency: 'EUR' }) })).json()) as { id: string };
  await post(`/v1/invoices/${invoice.id}/settle`, issued.token, 'application/json', undefined);
  let n = 0;
  return {
    payout: () => post('/v1/payouts', issued.token, 'application/json', { amount: 1, currency: 'EUR', destination: 'iban:DE89370400440532013000' }),
    person: () => {
      n += 1;
      const userName = `person${n}@bench.example`;
      return post('/scim/v2/Users', scimToken, 'application/scim+json', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, externalId: `ext-${n}`, name: { givenName: 'Bench', familyName: `No ${n}` }, emails: [{ value: userName, primary: true }] });
    },
    /** Seals the records written so far, as the background sealer would on its next tick. */
    seal: () => gatehouse.services.audit.sealer.sealPending(),
    close: async () => {
      await gatehouse.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POST /v1/payouts and POST /scim/v2/Users, through two servers side by side: with the trail and without. */
async function measureApi(withUrl: string, withoutUrl: string): Promise<Row[]> {
  // BENCH_AUDIT_AA=1 builds both servers without the trail: an A/A run, what the method reads as a
  // difference between two servers that do the same.
  const servers = { with: await server(withUrl, process.env.BENCH_AUDIT_AA === '1' ? noAudit : undefined), without: await server(withoutUrl, noAudit) };
  const rows: Row[] = [];
  try {
    for (const inFlight of IN_FLIGHT) {
      for (const [write, pick] of [['POST /v1/payouts', 'payout'], ['POST /scim/v2/Users', 'person']] as const) {
        const variant = (s: Awaited<ReturnType<typeof server>>): Variant => ({ write: s[pick], settle: s.seal });
        await runRound(servers.with[pick], 20, inFlight, servers.with.seal);
        await runRound(servers.without[pick], 20, inFlight, servers.without.seal);
        rows.push({ write, inFlight, ...(await alternate({ with: variant(servers.with), without: variant(servers.without) }, API_PER_ROUND, inFlight)) });
      }
    }
  } finally {
    await servers.with.close();
    await servers.without.close();
  }
  return rows;
}

function tableRow(kind: string, r: Row, withSealing = false): string {
  const ratio = r.withUs / r.withoutUs;
  const cpuRatio = r.withCpuUs / r.withoutCpuUs;
  return (
    `| ${kind} | ${r.write} | ${r.inFlight} | ${r.withoutUs.toFixed(0)} µs | ${r.withUs.toFixed(0)} µs | ${((ratio - 1) * 100).toFixed(1)} % | ${ratio <= 1.1 ? 'yes' : 'NO'} ` +
    `| ${r.withoutCpuUs.toFixed(0)} → ${r.withCpuUs.toFixed(0)} µs | ${((cpuRatio - 1) * 100).toFixed(1)} % |${withSealing ? ` ${r.withSealUs.toFixed(0)} µs |` : ''}` +
    ` ${r.withoutStatements.toFixed(2)} → ${r.withStatements.toFixed(2)} |`
  );
}

async function main() {
  const lines: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-bench-'));
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.GATEHOUSE_TEST_DATABASE_URL;
  const kinds = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').filter((kind) => kind === 'sqlite' || pgUrl);
  const targets = await Promise.all(kinds.map((kind) => databaseFor(kind, dir, pgUrl)));
  const loadBefore = os.loadavg()[0]!;
  const started = new Date();
  for (const target of targets) {
    const database = await openDatabase({ databaseUrl: target.url });
    try {
      const { rows, sealUs } = await measure(database);
      for (const r of rows) lines.push(tableRow(target.kind, r));
      lines.push(`| ${target.kind} | sealing, per record (background) | | | ${sealUs.toFixed(0)} µs | | | | |`);
    } finally {
      await database.close();
      await target.drop();
    }
  }
  const apiLines: string[] = [];
  for (const kind of targets.map((t) => t.kind)) {
    const pair = await Promise.all([0, 1].map(() => databaseFor(kind, dir, pgUrl)));
    try {
      for (const r of await measureApi(pair[0]!.url, pair[1]!.url)) apiLines.push(tableRow(kind, r, true));
    } finally {
      for (const d of pair) await d.drop();
    }
  }
  const loadAfter = os.loadavg()[0]!;
  console.log(
    `audit write-path cost, ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${ROUNDS} alternating rounds of ${PER_ROUND} writes per variant; ` +
      `1-minute load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} on ${os.cpus().length} cores${Math.max(loadBefore, loadAfter) > 3 ? ' (busy: read the ratios, not the absolute figures)' : ''}\n`,
  );
  console.log('The service transaction:\n');
  console.log('| db | write | in flight | without the trail | with it | added | within 10 % | CPU per write, without → with | CPU added | PostgreSQL statements per write |');
  console.log('|---|---|---:|---:|---:|---:|---|---:|---:|---:|');
  for (const line of lines) console.log(line);
  console.log(`\nThrough the API (${ROUNDS} alternating rounds of ${API_PER_ROUND} requests per server):\n`);
  console.log('| db | request | in flight | without the trail | with it | added | within 10 % | CPU per request, without → with | CPU added | of "with it", sealing | PostgreSQL statements per request |');
  console.log('|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|');
  for (const line of apiLines) console.log(line);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A new, empty database of `kind`: a file in `dir`, or a schema of its own on PostgreSQL. */
async function databaseFor(kind: string, dir: string, pgUrl: string | undefined): Promise<{ kind: string; url: string; drop(): Promise<void> }> {
  const name = `bench_audit_${randomBytes(4).toString('hex')}`;
  if (kind === 'sqlite') {
    const file = path.join(dir, `${name}.db`);
    return { kind, url: `sqlite:${file}`, drop: async () => fs.rmSync(file, { force: true }) };
  }
  const url = new URL(pgUrl!);
  url.searchParams.set('schema', name);
  return {
    kind,
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`drop schema if exists ${name} cascade`);
      await client.end();
    },
  };
}

await main();
