/**
 * `node --import tsx bench/audit-cost.ts`: what the audit trail adds to the write path, measured
 * side by side in one run on each database (SQLite, and PostgreSQL when BENCH_DATABASE_URL or
 * GATEHOUSE_TEST_DATABASE_URL is set). Interleaved rounds, one connection's worth of sequential
 * transactions each, so the machine's load weighs on every figure alike:
 *
 * - payout: the create-payout transaction as the API runs it (payout, ledger postings, outbox
 *   event, balance debit and its audit record);
 * - twice: the same transaction with one more audit record.
 *
 * The difference is what one record adds to a payout's transaction (its INSERT and index
 * entries; the commit is shared, as it is in the API); the payout without its record is the
 * payout less that. Sealing is measured apart (per record, in the background, off the request's
 * path).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../src/platform/db/database.ts';
import { migrateToLatest } from '../src/platform/db/migrate.ts';
import { systemClock } from '../src/platform/clock.ts';
import { newId } from '../src/platform/ids.ts';
import { createPaging } from '../src/paging/page.ts';
import { createKeyRing } from '../src/paging/cursor.ts';
import { createInvoices } from '../src/payments/invoices.ts';
import { createPayouts } from '../src/payments/payouts.ts';
import { recordAudit, type AuditBy } from '../src/audit/record.ts';
import { createAuditSealer } from '../src/audit/sealer.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? 300);
const by: AuditBy = { actor: { type: 'client', id: 'client_bench' }, requestId: 'req-bench', idempotencyKey: 'key-bench', sourceAddress: '127.0.0.1', userAgent: 'bench/1' };

async function measure(database: Database) {
  const { db } = database;
  await migrateToLatest(database);
  const paging = createPaging({ ring: createKeyRing([{ id: 'b', key: randomBytes(32) }]), clock: systemClock, cursorTtlMs: 60_000 });
  const invoices = createInvoices({ db, clock: systemClock, paging });
  const payouts = createPayouts({ db, clock: systemClock, paging, delayMs: 3600_000 });
  const accountId = newId('acct');
  await db.insertInto('accounts').values({ id: accountId, name: 'Bench', created_at: Date.now() }).execute();
  await db.transaction().execute(async (trx) => {
    const invoice = await invoices.create(trx, accountId, { amount: 1_000_000_000, currency: 'EUR' }, by);
    await invoices.settle(trx, accountId, invoice.id, by);
  });
  const createPayout = (trx: typeof db) => payouts.create(trx, accountId, { amount: 1, currency: 'EUR', destination: 'iban:DE89370400440532013000' }, by);
  const oneMoreRecord = (trx: typeof db) =>
    recordAudit(trx, by, { accountId, action: 'payout.created', target: { type: 'payout', id: newId('po') }, changes: { amount: { after: 1 }, currency: { after: 'EUR' } }, at: Date.now() });
  const runs = {
    payout: () => db.transaction().execute((trx) => createPayout(trx)),
    twice: () =>
      db.transaction().execute(async (trx) => {
        await createPayout(trx);
        await oneMoreRecord(trx);
      }),
  };
  const totals = { payout: 0, twice: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['payout', 'twice'] as const) {
      const started = performance.now();
      for (let i = 0; i < PER_ROUND; i++) await runs[name]();
      totals[name] += performance.now() - started;
    }
  }
  const per = (ms: number) => (ms * 1000) / (ROUNDS * PER_ROUND);
  const withRecord = per(totals.payout);
  // The marginal cost of a record in a payout's transaction: a second one, measured beside it.
  const record = per(totals.twice) - withRecord;
  const sealer = createAuditSealer({ db, clock: systemClock, macKey: randomBytes(32), signer: { sign: async () => 'unsigned' }, issuer: 'bench', checkpointIntervalMs: 3600_000 });
  const pending = 3 * ROUNDS * PER_ROUND;
  const sealStarted = performance.now();
  await sealer.sealPending();
  const seal = ((performance.now() - sealStarted) * 1000) / pending;
  return { payout: withRecord, record, share: record / (withRecord - record), seal };
}

async function main() {
  const rows: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-bench-'));
  const targets: Array<{ kind: string; url: string; drop(): Promise<void> }> = [
    { kind: 'sqlite', url: `sqlite:${path.join(dir, 'bench.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) },
  ];
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.GATEHOUSE_TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `bench_audit_${randomBytes(4).toString('hex')}`;
    const url = new URL(pgUrl);
    url.searchParams.set('schema', schema);
    targets.push({
      kind: 'postgres',
      url: url.href,
      drop: async () => {
        const client = new pg.Client({ connectionString: pgUrl });
        await client.connect();
        await client.query(`drop schema if exists ${schema} cascade`);
        await client.end();
      },
    });
  }
  for (const target of targets) {
    const database = await openDatabase({ databaseUrl: target.url });
    try {
      const r = await measure(database);
      rows.push(
        `| ${target.kind} | ${r.payout.toFixed(0)} µs | ${(r.payout - r.record).toFixed(0)} µs | ${r.record.toFixed(0)} µs | ${(r.share * 100).toFixed(1)} % | ${r.seal.toFixed(0)} µs |`,
      );
    } finally {
      await database.close();
      await target.drop();
    }
  }
  console.log(`audit write-path cost: ${ROUNDS} interleaved rounds of ${PER_ROUND} sequential transactions; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log('| db | create-payout transaction (with its record) | without the record | the record | share | sealing, per record (background) |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
}

await main();
