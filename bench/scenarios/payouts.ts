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
 * All payouts come from one account, the worst case: they serialize on its balance row (the
 * debit that keeps the balance from going below zero). On SQLite the payouts that arrive
 * together share one commit (group commit, src/platform/db/group-commit.ts): a payout alone
 * writes about two dozen WAL pages (payout, two postings, event and key, each with its
 * indexes), in a batch about six of its own, the pages they share being written once.
 */
import { randomUUID } from 'node:crypto';
import { measureWithCpu } from '../lib/load.ts';
import { startCeiling, startGatehouse, type GatehouseServer } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';
import { databaseFor } from './list-invoices.ts';
import { openDatabase } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { newId } from '../../src/platform/ids.ts';
import { createAccessTokens } from '../../src/oauth/access-tokens.ts';
import { openKeyVault } from '../../src/platform/secrets-key.ts';
import { MAX_AMOUNT } from '../../src/payments/currencies.ts';

const PAYOUT = JSON.stringify({ amount: 1, currency: 'EUR', destination: 'iban:DE89370400440532013000' });

/** A new account and a token that may create invoices and payouts, written straight to the store. */
async function seedAccount(databaseUrl: string): Promise<string> {
  const database = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    await migrateToLatest(database);
    const accountId = newId('acct');
    await database.db.insertInto('accounts').values({ id: accountId, name: 'Bench', created_at: Date.now() }).execute();
    const issued = await createAccessTokens({ db: database.db, clock: systemClock, vault: await openKeyVault({ db: database.db, clock: systemClock, configured: undefined }) }).issue({
      accountId,
      clientId: 'bench',
      scopes: ['invoices:write', 'payouts:write'],
      ttlSeconds: 24 * 3600,
    });
    return issued.token;
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
  aliases: ['replay-payout'],
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

    for (const database of databases) {
      const target = await databaseFor(database);
      try {
        const token = await seedAccount(target.url);
        const gatehouse = await startGatehouse({ databaseUrl: target.url, env: { GATEHOUSE_PAYOUT_DELAY: '86400' } });
        try {
          await fund(gatehouse, token);
          const base = {
            url: `${gatehouse.url}/v1/payouts`,
            method: 'POST' as const,
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: PAYOUT,
          };
          const fresh = {
            ...base,
            setupRequest: (request: { headers?: Record<string, string> }) => ({
              ...request,
              headers: { ...request.headers, 'idempotency-key': randomUUID() },
            }),
          };
          const create = await measureWithCpu(gatehouse.process.pid!, fresh);

          const key = randomUUID();
          const original = await send(gatehouse, '/v1/payouts', token, key, PAYOUT);
          if (original.status !== 201) throw new Error(`payout answered ${original.status}: ${original.text}`);
          const repeated = { ...base, headers: { ...base.headers, 'idempotency-key': key } };
          const replay = await measureWithCpu(gatehouse.process.pid!, repeated);

          const vsCeiling = create.requestsPerSecond / top.requestsPerSecond;
          rows.push({
            scenario: 'create-payout',
            subject: `POST /v1/payouts, fresh key per request (${create.cpu})`,
            database: database.kind,
            ...create,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${vsCeiling.toFixed(2)} × ceiling`,
            ...(database.kind === 'sqlite' ? { target: '≥ 0.2', pass: vsCeiling >= 0.2 && create.non2xx === 0 } : { pass: create.non2xx === 0 }),
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
