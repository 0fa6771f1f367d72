/**
 * POST /v1/payouts through the whole write path (bearer token, schema, Idempotency-Key claim,
 * balance debit, payout row, ledger posting, outbox event, stored response, one commit):
 *
 * - `create-payout`: a fresh Idempotency-Key on every request, so every request pays out;
 * - `replay-payout`: one key and body repeated, so every request is answered from the stored
 *   response (`Idempotent-Replay: true`) and performs nothing.
 *
 * Both run in one pass beside the fastify hello-world ceiling taking the same POST (selecting either name runs
 * both, since the replay's target is measured against the create's latency). Targets: replay
 * p50 ≤ create p50 on every database; create ≥ 0.2 × the ceiling on SQLite. The account is
 * funded first with one large settled invoice through the API; payouts stay pending for the
 * run (GATEHOUSE_PAYOUT_DELAY), so the payout processor does no work while measuring.
 *
 * Two shapes of load, on every database:
 * - one hot account (`create-payout`): every payout debits the same balance row, which each
 *   must hold until its commit (PostgreSQL) or which shares the one writer (SQLite). On SQLite
 *   the payouts that arrive together share one commit (group commit,
 *   src/platform/db/group-commit.ts); on PostgreSQL those of one account do, written by one statement
 *   (src/payments/payout-batch-statement.ts).
 *   Target on PostgreSQL: ≥ 1,000 payouts/s.
 * - a platform (`create-payout-accounts`): ACCOUNTS funded accounts (1,000 by default), each
 *   request from one picked at random, so payouts of different accounts run side by side.
 *   Targets on PostgreSQL: Gatehouse's CPU per request ≤ 1.5 × SQLite's, ≥ 0.06 × the ceiling.
 * On PostgreSQL each row also gives the CPU of the database's backends serving Gatehouse's
 * connections per request (lib/postgres-cpu.ts).
 */
import { randomUUID } from 'node:crypto';
import { measureWithCpu } from '../lib/load.ts';
import { BENCH_SECRETS_KEY, startCeiling, startGatehouse, type GatehouseServer } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';
import { databaseFor } from './list-invoices.ts';
import { postgresCpuOf, type PostgresCpu } from '../lib/postgres-cpu.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import { createAccessTokens } from '../../src/oauth/access-tokens.ts';
import { openKeyVault } from '../../src/platform/secrets-key.ts';
import { MAX_AMOUNT } from '../../src/payments/currencies.ts';

const PAYOUT = JSON.stringify({ amount: 1, currency: 'EUR', destination: 'iban:DE89370400440532013000' });
/** How many accounts the platform-shaped load spreads its payouts over. */
const ACCOUNTS = Number(process.env.BENCH_PAYOUT_ACCOUNTS ?? 1000);

/**
 * `funded` new accounts, each with a balance far above what a run pays out, and one more
 * account (the hot one, funded through the API later); a token for each that may create
 * invoices and payouts. Written straight to the store.
 */
async function seedAccounts(databaseUrl: string, funded: number): Promise<{ hot: string; many: string[] }> {
  const database = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    await migrateToLatest(database);
    const { db } = database;
    const tokens = createAccessTokens({ db, clock: systemClock, vault: await openKeyVault({ database, configured: BENCH_SECRETS_KEY }) });
    const issue = async (funds: number | undefined) => {
      const accountId = newId('acct');
      const now = Date.now();
      await db.insertInto('accounts').values({ id: accountId, name: 'Bench', created_at: now }).execute();
      if (funds !== undefined) await db.insertInto('balances').values({ account_id: accountId, currency: 'EUR', available: funds, updated_at: now }).execute();
      const issued = await tokens.issue({ accountId, clientId: 'bench', scopes: ['invoices:write', 'payouts:write'], ttlSeconds: 24 * 3600 });
      return issued.token;
    };
    const hot = await issue(undefined);
    const many: string[] = [];
    for (let i = 0; i < funded; i++) many.push(await issue(MAX_AMOUNT));
    return { hot, many };
  } finally {
    await database.close();
  }
}

async function send(gatehouse: GatehouseServer, path: string, token: string, key: string, body?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${gatehouse.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/** Settles one invoice of the largest allowed amount: far more balance than any run pays out. */
async function fund(gatehouse: GatehouseServer, token: string): Promise<void> {
  const invoice = await send(gatehouse, '/v1/invoices', token, randomUUID(), JSON.stringify({ amount: MAX_AMOUNT, currency: 'EUR' }));
  if (invoice.status !== 201) throw new Error(`funding invoice answered ${invoice.status}: ${invoice.text}`);
  const settled = await send(gatehouse, `/v1/invoices/${(JSON.parse(invoice.text) as { id: string }).id}/settle`, token, randomUUID());
  if (settled.status !== 200) throw new Error(`settling answered ${settled.status}: ${settled.text}`);
}

export const payouts: Scenario = {
  name: 'create-payout',
  aliases: ['replay-payout', 'create-payout-accounts'],
  async run({ databases }) {
    const rows: Row[] = [];
    const ceiling = await startCeiling();
    // Like for like: the ceiling takes the same POST (headers and JSON body, which it parses) and
    // answers hello-world. Reading a request body costs fastify about as much again as a GET's
    // whole answer, so a GET would measure the framework's body handling as Gatehouse's work.
    const top = await measureWithCpu(ceiling.process.pid!, {
      url: ceiling.url,
      method: 'POST',
      headers: { authorization: `Bearer gh_at_${'x'.repeat(43)}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: PAYOUT,
    });
    rows.push({ scenario: 'create-payout', subject: `fastify ${ceiling.fastify} hello-world, same JSON POST (ceiling; ${top.cpu})`, database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    await ceiling.stop();

    /** Gatehouse's CPU per request over many accounts on SQLite, which PostgreSQL's is held to. */
    let sqliteManyCpu: number | undefined;
    for (const database of databases) {
      const target = await databaseFor(database);
      try {
        const tokens = await seedAccounts(target.url, ACCOUNTS);
        const postgres: PostgresCpu | undefined = database.kind === 'postgres' ? postgresCpuOf(target.url) : undefined;
        const gatehouse = await startGatehouse({ databaseUrl: postgres?.url ?? target.url, env: { GATEHOUSE_PAYOUT_DELAY: '86400' } });
        try {
          await fund(gatehouse, tokens.hot);
          const base = {
            url: `${gatehouse.url}/v1/payouts`,
            method: 'POST' as const,
            headers: { authorization: `Bearer ${tokens.hot}`, 'content-type': 'application/json' },
            body: PAYOUT,
          };
          const fresh = {
            ...base,
            setupRequest: (request: { headers?: Record<string, string> }) => ({
              ...request,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
            }),
          };
          const create = await measureWithCpu(gatehouse.process.pid!, fresh, { postgres });

          const key = randomUUID();
          const original = await send(gatehouse, '/v1/payouts', tokens.hot, key, PAYOUT);
          if (original.status !== 201) throw new Error(`payout answered ${original.status}: ${original.text}`);
          const repeated = { ...base, headers: { ...base.headers, 'idempotency-key': key } };
          const replay = await measureWithCpu(gatehouse.process.pid!, repeated, { postgres });

          const spread = {
            ...base,
            setupRequest: (request: { headers?: Record<string, string> }) => ({
              ...request,
              headers: {
                ...request.headers,
                authorization: `Bearer ${tokens.many[Math.floor(Math.random() * tokens.many.length)]!}`,
                'idempotency-key': randomUUID(),
              },
            }),
          };
          const many = await measureWithCpu(gatehouse.process.pid!, spread, { postgres });

          const vsCeiling = create.requestsPerSecond / top.requestsPerSecond;
          rows.push({
            scenario: 'create-payout',
            subject: `POST /v1/payouts, one account, fresh key per request (${create.cpu})`,
            database: database.kind,
            ...create,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${vsCeiling.toFixed(2)} × ceiling`,
            ...(database.kind === 'sqlite'
              ? { target: '≥ 0.2', pass: vsCeiling >= 0.2 && create.non2xx === 0 }
              : { target: '≥ 1,000/s', pass: create.requestsPerSecond >= 1000 && create.non2xx === 0 }),
          });
          const latencyRatio = replay.p50Ms / Math.max(create.p50Ms, 0.001);
          rows.push({
            scenario: 'replay-payout',
            subject: `POST /v1/payouts, one key repeated (replays; ${replay.cpu})`,
            database: database.kind,
            ...replay,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${latencyRatio.toFixed(2)} × create p50`,
            target: '≤ 1',
            pass: latencyRatio <= 1 && replay.non2xx === 0,
          });
          const manyVsCeiling = many.requestsPerSecond / top.requestsPerSecond;
          if (database.kind === 'sqlite') sqliteManyCpu = many.cpuMicrosPerRequest;
          const cpuVsSqlite = sqliteManyCpu === undefined || database.kind === 'sqlite' ? undefined : many.cpuMicrosPerRequest / sqliteManyCpu;
          rows.push({
            scenario: 'create-payout-accounts',
            subject: `POST /v1/payouts over ${ACCOUNTS.toLocaleString('en')} accounts, one at random per request (${many.cpu})`,
            database: database.kind,
            ...many,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${manyVsCeiling.toFixed(3)} × ceiling${cpuVsSqlite === undefined ? '' : `; CPU/req ${cpuVsSqlite.toFixed(2)} × SQLite's`}`,
            ...(database.kind === 'sqlite'
              ? { pass: many.non2xx === 0 }
              : {
                  target: '≥ 0.06 × ceiling; CPU/req ≤ 1.5 × SQLite\'s',
                  pass: manyVsCeiling >= 0.06 && (cpuVsSqlite === undefined || cpuVsSqlite <= 1.5) && many.non2xx === 0,
                }),
          });
        } finally {
          await gatehouse.stop();
        }
      } finally {
        await target.drop();
      }
    }
    return rows;
  },
};
