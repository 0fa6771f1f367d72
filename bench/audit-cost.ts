/**
 * `node --import tsx bench/audit-cost.ts`: what the audit trail adds to the write path, measured
 * side by side in one run on each database (SQLite, and PostgreSQL when BENCH_DATABASE_URL or
 * GATEHOUSE_TEST_DATABASE_URL is set).
 *
 * Settings: BENCH_DATABASES (sqlite,postgres), BENCH_AUDIT_PARTS (service,api: the two views
 * below), BENCH_IN_FLIGHT (1,8), BENCH_ROUNDS (6), BENCH_PER_ROUND (200 service writes),
 * BENCH_API_PER_ROUND (400 requests), BENCH_AUDIT_AA=1 (the A/A run below), BENCH_PROFILE_DIR (a
 * V8 CPU profile of each server).
 *
 * Two writes, each with the trail and without it: the create-payout transaction as the API runs
 * it (payout, ledger postings, outbox event, balance debit, and its audit record) and SCIM
 * POST /Users (the person, their search rows, and its audit record). "Without" is the same
 * service given a `recordAudit` that writes nothing (the dependency every service takes), so the
 * difference is exactly the record: its INSERT (on PostgreSQL, for SCIM POST /Users, a WITH
 * clause of the statement that inserts the person: the reference's `row` gives none).
 *
 * The variants alternate round by round (with, without; then without, with), so the machine's
 * load weighs on each alike. The times per write are the means over all rounds; what the trail
 * adds is the ratio of each round's pair (with ÷ without, the two run back to back), the median
 * pair shown with the least and most of them, as the other scenarios report their median round:
 * a neighbour's burst of load falls on one pair, where it would move the mean of every round.
 * Each round runs PER_ROUND writes at a time `IN_FLIGHT` (1 and 8): at 8 on PostgreSQL, writers
 * of one account would queue if a record took an account lock. The service's transaction alone
 * is the upper bound of what the trail adds to a request.
 *
 * Then through the API, as a client sees it and as every other scenario runs: two Gatehouse
 * servers, each in a process of its own (bench/lib/audit-variant-server.ts) on a database of its
 * own of the same kind, one built with the trail and one with the recording left out
 * (`GatehouseDeps.recordAudit`), loaded in alternating rounds from this process with POST
 * /v1/payouts (a fresh Idempotency-Key each) and POST /scim/v2/Users. Each round ends by asking its
 * server to seal what it wrote, inside the round's time: the sealer is the trail's own work, and a
 * record left for the next background tick would be sealed during whichever round runs then. The
 * CPU per request is the server process's, and on PostgreSQL also that of the database backends
 * serving it. `BENCH_AUDIT_AA=1` builds both without the trail: an A/A run, what the method itself
 * reads as a difference between two servers that do the same.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
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
import { cpuMicros } from './lib/load.ts';
import { median } from './lib/report.ts';
import { profileFlags } from './lib/processes.ts';
import { countSentStatements, cpuBetween, postgresCpuOf } from './lib/postgres-cpu.ts';
import type { AuditVariantMessage } from './lib/audit-variant-server.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 200);
const IN_FLIGHT = (process.env.BENCH_IN_FLIGHT ?? '1,8').split(',').map(Number);
// BENCH_DATABASES=sqlite (or postgres) measures one of them only; BENCH_AUDIT_PARTS=service (or api) one of the two views.
const PARTS = new Set((process.env.BENCH_AUDIT_PARTS ?? 'service,api').split(','));
const by: AuditBy = { actor: { type: 'client', id: 'client_bench' }, requestId: 'req-bench', idempotencyKey: 'key-bench', sourceAddress: '127.0.0.1', userAgent: 'bench/1' };
/** The reference: the same services, recording nothing. */
const noAudit: RecordAudit = recordNothing;

type Write = () => Promise<unknown>;

/**
 * Statements sent to PostgreSQL by this process: how many a round's writes took (creates that
 * arrive together share one, so the count shows how well they met). The API's servers count their
 * own (bench/lib/audit-variant-server.ts).
 */
const statementsSent = countSentStatements();

/** What a round's writes cost where they ran, read before and after it. */
interface Sample {
  /** CPU µs of the process that ran the writes: this one, or the server's. */
  cpuUs: number;
  /** CPU µs of the PostgreSQL backends serving that server, by pid (through the API on PostgreSQL). */
  databaseCpu?: Map<number, number>;
  statements: number;
}

/** A round's wall time and the CPU time over it, in µs. */
interface Spent {
  wallUs: number;
  cpuUs: number;
  databaseCpuUs: number;
  /** Statements sent to PostgreSQL during the round (0 on SQLite). */
  statements: number;
  /** Of the wall time, what the round's closing work (sealing) took. */
  settleUs: number;
  /** Of the CPU time (server and database), what the closing work took. */
  settleCpuUs: number;
}

/** What a round of one variant runs: its write, the work that completes the round's writes (sealing), and where its cost is read. */
interface Variant {
  write: Write;
  settle?: () => Promise<unknown>;
  sample: () => Promise<Sample>;
}

/** This process's CPU time: in the service transaction's rounds only their variant runs meanwhile. */
async function sampleThisProcess(): Promise<Sample> {
  const used = process.cpuUsage();
  return { cpuUs: used.user + used.system, statements: statementsSent() };
}

/** CPU µs between two samples: the process's and its database backends'. */
function cpuSpent(before: Sample, after: Sample): { cpuUs: number; databaseCpuUs: number } {
  return { cpuUs: after.cpuUs - before.cpuUs, databaseCpuUs: before.databaseCpu && after.databaseCpu ? cpuBetween(before.databaseCpu, after.databaseCpu) : 0 };
}

/**
 * Runs `count` writes, `inFlight` at a time, then the variant's closing work. Rounds never
 * overlap, so the CPU time read before and after is this round's work (on SQLite all of it, the
 * database's included): it says what a request costs however loaded the machine is, where wall
 * time also counts the waits for a core other processes hold. The samples are read outside the
 * timed parts.
 */
async function runRound(variant: Variant, count: number, inFlight: number): Promise<Spent> {
  let next = 0;
  const before = await variant.sample();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next += 1;
        await variant.write();
      }
    }),
  );
  const writesUs = (performance.now() - started) * 1000;
  const written = variant.settle ? await variant.sample() : undefined;
  const settling = performance.now();
  await variant.settle?.();
  const settleUs = (performance.now() - settling) * 1000;
  const after = await variant.sample();
  const spent = cpuSpent(before, after);
  const settled = written ? cpuSpent(written, after) : { cpuUs: 0, databaseCpuUs: 0 };
  return { wallUs: writesUs + settleUs, ...spent, settleUs, settleCpuUs: settled.cpuUs + settled.databaseCpuUs, statements: after.statements - before.statements };
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
  } satisfies Record<string, { with: Write; without: Write }>;
}

interface Row {
  write: string;
  inFlight: number;
  withUs: number;
  withoutUs: number;
  withCpuUs: number;
  withoutCpuUs: number;
  /** CPU of the PostgreSQL backends per write, through the API on PostgreSQL (else 0). */
  withDatabaseCpuUs: number;
  withoutDatabaseCpuUs: number;
  /** Of `withUs`, the wall time per write spent sealing at the ends of rounds (through the API). */
  withSealUs: number;
  /** Of the CPU per write with the trail (server and database), what sealing took. */
  withSealCpuUs: number;
  /** PostgreSQL statements per write, without and with the trail (sealing included). */
  withoutStatements: number;
  withStatements: number;
  /** With ÷ without, each round's pair (a with round and the without round beside it): wall time and CPU. */
  pairs: Array<{ wall: number; cpu: number }>;
}

/** Runs `rounds` alternating rounds of each variant (with, without; then without, with); per-write means. */
async function alternate(variants: { with: Variant; without: Variant }, perRound: number, inFlight: number): Promise<Omit<Row, 'write' | 'inFlight'>> {
  const zero = (): Spent => ({ wallUs: 0, cpuUs: 0, databaseCpuUs: 0, settleUs: 0, settleCpuUs: 0, statements: 0 });
  const totals = { with: zero(), without: zero() };
  const pairs: Row['pairs'] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
    const pair = { with: zero(), without: zero() };
    for (const name of order) {
      pair[name] = await runRound(variants[name], perRound, inFlight);
      for (const key of Object.keys(pair[name]) as (keyof Spent)[]) totals[name][key] += pair[name][key];
    }
    const cpu = (spent: Spent) => spent.cpuUs + spent.databaseCpuUs;
    pairs.push({ wall: pair.with.wallUs / pair.without.wallUs, cpu: cpu(pair.with) / cpu(pair.without) });
  }
  const per = (us: number) => us / (ROUNDS * perRound);
  return {
    withUs: per(totals.with.wallUs),
    withoutUs: per(totals.without.wallUs),
    withCpuUs: per(totals.with.cpuUs),
    withoutCpuUs: per(totals.without.cpuUs),
    withDatabaseCpuUs: per(totals.with.databaseCpuUs),
    withoutDatabaseCpuUs: per(totals.without.databaseCpuUs),
    withSealUs: per(totals.with.settleUs),
    withSealCpuUs: per(totals.with.settleCpuUs),
    withoutStatements: per(totals.without.statements),
    withStatements: per(totals.with.statements),
    pairs,
  };
}

async function measure(database: Database): Promise<{ rows: Row[]; sealUs: number }> {
  const { db } = database;
  await migrateToLatest(database);
  const all = await writers(db);
  const rows: Row[] = [];
  let records = 0;
  for (const inFlight of IN_FLIGHT) {
    for (const [write, writes] of Object.entries(all)) {
      const variants = { with: { write: writes.with, sample: sampleThisProcess }, without: { write: writes.without, sample: sampleThisProcess } };
      await runRound(variants.with, 20, inFlight);
      await runRound(variants.without, 20, inFlight);
      records += 20 + ROUNDS * PER_ROUND;
      rows.push({ write, inFlight, ...(await alternate(variants, PER_ROUND, inFlight)) });
    }
  }
  const sealer = createAuditSealer({ db, clock: systemClock, macKey: randomBytes(32), signer: { sign: async () => 'unsigned' }, issuer: 'bench', checkpointIntervalMs: 3600_000 });
  const sealStarted = performance.now();
  await sealer.sealPending();
  return { rows, sealUs: ((performance.now() - sealStarted) * 1000) / records };
}

const API_PER_ROUND = Number(process.env.BENCH_API_PER_ROUND ?? 400);

/** Sends `message` to a server process and waits for its answer (one question at a time). */
function ask(child: ChildProcess, message: string): Promise<AuditVariantMessage> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the ${message} server exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (answer: AuditVariantMessage) => {
      child.off('exit', onExit);
      if ('failed' in answer) reject(new Error(answer.failed));
      else resolve(answer);
    });
    if (message !== 'ready') child.send(message);
  });
}

/**
 * A server in a process of its own on `databaseUrl`, with the trail or without it
 * (bench/lib/audit-variant-server.ts), and the writes a client sends it.
 */
async function server(databaseUrl: string, variant: 'with' | 'without') {
  const postgres = databaseUrl.startsWith('postgres') ? postgresCpuOf(databaseUrl) : undefined;
  const child = fork(fileURLToPath(new URL('./lib/audit-variant-server.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx', ...profileFlags()],
    env: { ...process.env, BENCH_AUDIT_VARIANT: variant, BENCH_AUDIT_DATABASE_URL: postgres?.url ?? databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const answer = await ask(child, 'ready');
  if (!('ready' in answer)) throw new Error(`the ${variant} server did not start`);
  const { publicUrl, accessToken, scimToken } = answer.ready;
  const post = (p: string, token: string, type: string, body: unknown) =>
    fetch(publicUrl + p, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': randomUUID() }, body: JSON.stringify(body) }).then(async (r) => {
      await r.arrayBuffer();
      if (r.status !== 201 && r.status !== 200) throw new Error(`${p} answered ${r.status}`);
    });
  let n = 0;
  const statements = async () => {
    const counted = await ask(child, 'statements');
    return 'statements' in counted ? counted.statements : 0;
  };
  return {
    payout: () => post('/v1/payouts', accessToken, 'application/json', { amount: 1, currency: 'EUR', destination: 'iban:DE89370400440532013000' }),
    person: () => {
      n += 1;
      const userName = `person${n}@bench.example`;
      return post('/scim/v2/Users', scimToken, 'application/scim+json', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, externalId: `ext-${n}`, name: { givenName: 'Bench', familyName: `No ${n}` }, emails: [{ value: userName, primary: true }] });
    },
    /** Seals the records written so far, as the background sealer would on its next tick. */
    seal: () => ask(child, 'seal'),
    sample: async (): Promise<Sample> => ({ cpuUs: cpuMicros(child.pid!), databaseCpu: await postgres?.sample(), statements: await statements() }),
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      await exited;
    },
  };
}

/** POST /v1/payouts and POST /scim/v2/Users, through two servers side by side: with the trail and without. */
async function measureApi(withUrl: string, withoutUrl: string): Promise<Row[]> {
  const [withTrail, withoutTrail] = await Promise.all([server(withUrl, process.env.BENCH_AUDIT_AA === '1' ? 'without' : 'with'), server(withoutUrl, 'without')]);
  const rows: Row[] = [];
  try {
    for (const inFlight of IN_FLIGHT) {
      for (const [write, pick] of [['POST /v1/payouts', 'payout'], ['POST /scim/v2/Users', 'person']] as const) {
        const variant = (s: Awaited<ReturnType<typeof server>>): Variant => ({ write: s[pick], settle: s.seal, sample: s.sample });
        const variants = { with: variant(withTrail), without: variant(withoutTrail) };
        // Warm-up: each server's JIT and pools, unmeasured.
        await runRound(variants.with, 100, inFlight);
        await runRound(variants.without, 100, inFlight);
        rows.push({ write, inFlight, ...(await alternate(variants, API_PER_ROUND, inFlight)) });
      }
    }
  } finally {
    await Promise.all([withTrail.close(), withoutTrail.close()]);
  }
  return rows;
}

/** A ratio as the share it adds, in %. */
const added = (ratio: number) => `${((ratio - 1) * 100).toFixed(1)} %`;

/**
 * The median round's pair, and the spread of all of them. Each pair is two rounds run back to back,
 * so a burst of load from a neighbour weighs on one pair, where it would move the mean of all.
 */
function pairedRatio(pairs: Row['pairs'], key: 'wall' | 'cpu'): { median: number; text: string } {
  const ratios = pairs.map((pair) => pair[key]);
  const middle = median(ratios, (ratio) => ratio);
  return { median: middle, text: `${added(middle)} (${added(Math.min(...ratios))} to ${added(Math.max(...ratios))})` };
}

function tableRow(kind: string, r: Row, withSealing = false): string {
  const wall = pairedRatio(r.pairs, 'wall');
  const cpuAdded = pairedRatio(r.pairs, 'cpu');
  // Through the API on PostgreSQL: the server's CPU + its database backends'.
  const cpu = (node: number, database: number) => (database > 0 ? `${node.toFixed(0)} + ${database.toFixed(0)}` : node.toFixed(0));
  return (
    `| ${kind} | ${r.write} | ${r.inFlight} | ${r.withoutUs.toFixed(0)} µs | ${r.withUs.toFixed(0)} µs | ${wall.text} | ${wall.median <= 1.1 ? 'yes' : 'NO'} ` +
    `| ${cpu(r.withoutCpuUs, r.withoutDatabaseCpuUs)} → ${cpu(r.withCpuUs, r.withDatabaseCpuUs)} µs | ${cpuAdded.text} |${withSealing ? ` ${r.withSealUs.toFixed(0)} µs; CPU ${r.withSealCpuUs.toFixed(0)} µs |` : ''}` +
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
  for (const target of PARTS.has('service') ? targets : []) {
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
  for (const kind of PARTS.has('api') ? targets.map((t) => t.kind) : []) {
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
  console.log('| db | write | in flight | without the trail | with it | added: median pair (all pairs) | within 10 % | CPU per write, without → with | CPU added: median pair (all pairs) | PostgreSQL statements per write |');
  console.log('|---|---|---:|---:|---:|---:|---|---:|---:|---:|');
  for (const line of lines) console.log(line);
  console.log(
    `\nThrough the API (${ROUNDS} alternating rounds of ${API_PER_ROUND} requests per server; each server a process of its own, loaded from this one${process.env.BENCH_AUDIT_AA === '1' ? '; A/A: both servers without the trail' : ''}):\n`,
  );
  console.log('| db | request | in flight | without the trail | with it | added: median pair (all pairs) | within 10 % | CPU per request (server + PostgreSQL), without → with | CPU added: median pair (all pairs) | of "with it", sealing (wall; CPU) | PostgreSQL statements per request |');
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
