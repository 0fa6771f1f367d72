/**
 * POST /token (client_credentials, client_secret_basic) on a Gatehouse as it runs in production
 * (log level info, a request line each, its standard output going to a file as a log collector
 * takes it; rate limits on, counted in-process, the per-client budget raised so the one bench
 * client is never refused), against oidc-provider set up as its production equivalent
 * (bench/peers/oidc-provider.ts: same authentication, opaque tokens, its own keys, a request line
 * each to a file) and the fastify hello-world ceiling taking the same form POST on Gatehouse's own
 * fastify. Each runs in its own process. Targets on every database: ≥ 3 × oidc-provider and ≥ 0.4 ×
 * the ceiling, no non-2xx.
 *
 * The reference and the ceiling stay up (idle between their turns) and every database is measured
 * in ROUNDS rounds of the three, back to back, the order turning from round to round; every
 * measurement is the same: a 2 s warm-up, then BENCH_SECONDS with CONNECTIONS connections. Each
 * ratio is that of one round (Gatehouse's req/s over the other's, measured seconds apart) and the
 * median round is reported: on a shared machine any one subject's rate moves by half within
 * minutes, and only figures taken side by side compare.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { measureWithCpu } from '../lib/load.ts';
import { freePort, installedVersion, startCeiling, startGatehouse, startNode, type Server } from '../lib/processes.ts';
import { median, type Row } from '../lib/report.ts';
import { requestLines } from '../lib/log-lines.ts';
import type { Scenario } from '../run.ts';

const NAME = 'token-client-credentials';
const BODY = 'grant_type=client_credentials&scope=invoices%3Aread';
const TARGET_VS_PEER = 3;
const TARGET_VS_CEILING = 0.4;
/** Rounds of (reference, Gatehouse, ceiling) per database; the median round of each ratio is reported. */
const ROUNDS = Number(process.env.BENCH_TOKEN_ROUNDS ?? 3);
/** The same for every subject. */
const CONNECTIONS = 50;
/** Production's limits on, with a budget one client at full speed never reaches: the limiter's cost is measured, not its refusals. */
const RATE_LIMITS = { GATEHOUSE_RATE_LIMITS: 'on', GATEHOUSE_RATE_LIMIT_TOKEN: '10000000/1' };

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export const tokenRequest = (url: string, authorization: string) => ({
  url,
  method: 'POST' as const,
  headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
  body: BODY,
  connections: CONNECTIONS,
});

export async function admin(base: string, token: string, path: string, body: unknown) {
  const response = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, string>;
}

/** A subject that refuses the request would be measured answering errors: it must issue a token first. */
async function expectToken(request: ReturnType<typeof tokenRequest>): Promise<void> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const body = (await response.json()) as { access_token?: unknown };
  if (response.status !== 200 || typeof body.access_token !== 'string') throw new Error(`${request.url} answered ${response.status}: ${JSON.stringify(body)}`);
}

type Measured = Awaited<ReturnType<typeof measureWithCpu>>;
interface Round {
  gatehouse: Measured;
  reference: Measured;
  top: Measured;
}
type Subject = keyof Round;

/** The order of round `n`: each subject goes first, second and third in turn. */
function orderOf(n: number): Subject[] {
  const order: Subject[] = ['reference', 'gatehouse', 'top'];
  return [...order.slice(n % 3), ...order.slice(0, n % 3)];
}

/** oidc-provider on a port of the bench's choosing, its standard output (its request log) going to `logFile`. */
async function startReference(secret: string, logFile: string): Promise<Server> {
  const port = await freePort();
  const fd = fs.openSync(logFile, 'a');
  try {
    return await startNode(['--import', 'tsx', 'bench/peers/oidc-provider.ts'], {
      env: { BENCH_CLIENT_SECRET: secret, BENCH_PORT: String(port) },
      healthUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration`,
      url: `http://127.0.0.1:${port}`,
      stdout: fd,
    });
  } finally {
    fs.closeSync(fd);
  }
}

async function databaseUrlFor(url: string | undefined): Promise<{ url: string | undefined; drop(): Promise<void> }> {
  if (!url) return { url, drop: async () => {} };
  const schema = `bench_oauth_${randomBytes(4).toString('hex')}`;
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return {
    url: u.href,
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}

export const tokenClientCredentials: Scenario = {
  name: NAME,
  async run({ databases, note }) {
    const rows: Row[] = [];
    const secret = 'bench-client-secret-0123456789abcdef';
    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-token-'));
    const referenceLog = path.join(logDir, 'oidc-provider.log');
    const ceiling = await startCeiling();
    const peer = await startReference(secret, referenceLog).catch(async (error) => {
      await ceiling.stop();
      throw error;
    });
    const all: Round[] = [];
    try {
      // Like for like: the ceiling takes the same form POST (headers and body, which it parses with
      // @fastify/formbody, as Gatehouse does) and answers hello-world.
      const ceilingRequest = tokenRequest(ceiling.url, basic('bench-client', secret));
      const referenceRequest = tokenRequest(`${peer.url}/token`, basic('bench-client', secret));
      await expectToken(referenceRequest);
      for (const database of databases) {
        const store = await databaseUrlFor(database.url);
        const log = fs.openSync(path.join(logDir, `${database.kind}.log`), 'a');
        const gatehouse = await startGatehouse({ databaseUrl: store.url, env: { GATEHOUSE_LOG_LEVEL: 'info', ...RATE_LIMITS }, stdout: log })
          .catch(async (error: unknown) => {
            await store.drop();
            throw error;
          })
          .finally(() => fs.closeSync(log));
        try {
          const account = await admin(gatehouse.adminUrl, gatehouse.adminToken, '/admin/v1/accounts', { name: 'Bench' });
          const client = await admin(gatehouse.adminUrl, gatehouse.adminToken, `/admin/v1/accounts/${account.id}/clients`, { grant_types: ['client_credentials'], scope: 'invoices:read' });
          const gatehouseRequest = tokenRequest(`${gatehouse.url}/token`, basic(client.client_id!, client.client_secret!));
          await expectToken(gatehouseRequest);
          const measure: Record<Subject, () => Promise<Measured>> = {
            reference: () => measureWithCpu(peer.process.pid!, referenceRequest),
            gatehouse: () => measureWithCpu(gatehouse.process.pid!, gatehouseRequest),
            top: () => measureWithCpu(ceiling.process.pid!, ceilingRequest),
          };
          const rounds: Round[] = [];
          for (let n = 0; n < ROUNDS; n++) {
            const round: Partial<Round> = {};
            for (const subject of orderOf(all.length)) round[subject] = await measure[subject]();
            rounds.push(round as Round);
            all.push(round as Round);
          }
          const vsPeerOf = (r: Round) => r.gatehouse.requestsPerSecond / r.reference.requestsPerSecond;
          const vsCeilingOf = (r: Round) => r.gatehouse.requestsPerSecond / r.top.requestsPerSecond;
          note(
            `${NAME}, ${database.kind}, rounds (× oidc-provider, × ceiling; req/s gatehouse/oidc-provider/ceiling; CPU µs/req the same): ` +
              rounds
                .map((r) => `${vsPeerOf(r).toFixed(2)}, ${vsCeilingOf(r).toFixed(2)} (${r.gatehouse.requestsPerSecond}/${r.reference.requestsPerSecond}/${r.top.requestsPerSecond}; ${r.gatehouse.cpuMicrosPerRequest}/${r.reference.cpuMicrosPerRequest}/${r.top.cpuMicrosPerRequest})`)
                .join('; '),
          );
          const byPeer = median(rounds, vsPeerOf);
          const byCeiling = median(rounds, vsCeilingOf);
          const vsPeer = vsPeerOf(byPeer);
          const vsCeiling = vsCeilingOf(byCeiling);
          const cpuVsPeer = median(rounds, (r) => r.reference.cpuMicrosPerRequest / r.gatehouse.cpuMicrosPerRequest);
          const { gatehouse: result } = byPeer;
          rows.push({
            scenario: NAME,
            subject: `gatehouse POST /token, log level info, rate limits on (${result.cpu}; median of ${ROUNDS} rounds)`,
            database: database.kind,
            ...result,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio:
              `${vsPeer.toFixed(2)} × oidc-provider (its round: ${byPeer.reference.requestsPerSecond}/s), ${vsCeiling.toFixed(2)} × ceiling (its round: ${byCeiling.top.requestsPerSecond}/s); ` +
              `CPU/req: oidc-provider's ÷ Gatehouse's ${(cpuVsPeer.reference.cpuMicrosPerRequest / cpuVsPeer.gatehouse.cpuMicrosPerRequest).toFixed(2)}`,
            target: `≥ ${TARGET_VS_PEER} × oidc-provider, ≥ ${TARGET_VS_CEILING} × ceiling`,
            // A reference answering errors would be measured doing less than the work compared.
            pass: rounds.every((r) => r.gatehouse.non2xx === 0 && r.gatehouse.errors === 0 && r.reference.non2xx === 0) && vsPeer >= TARGET_VS_PEER && vsCeiling >= TARGET_VS_CEILING,
          });
        } finally {
          await gatehouse.stop();
          await store.drop();
        }
      }
    } finally {
      await peer.stop();
      await ceiling.stop();
    }
    const reference = median(all, (r) => r.reference.requestsPerSecond).reference;
    const top = median(all, (r) => r.top.requestsPerSecond).top;
    note(`${NAME}: oidc-provider wrote ${requestLines(referenceLog).toLocaleString('en')} request lines for ${all.reduce((n, r) => n + r.reference.total, 0).toLocaleString('en')} measured requests (and its warm-ups)`);
    fs.rmSync(logDir, { recursive: true, force: true });
    rows.unshift(
      { scenario: NAME, subject: `fastify ${ceiling.fastify} hello-world, same form POST (ceiling; ${top.cpu}; median of ${all.length} rounds)`, database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() },
      {
        scenario: NAME,
        subject: `oidc-provider ${installedVersion('oidc-provider')}, client_secret_basic, opaque tokens, request log at info (reference; ${reference.cpu}; median of ${all.length} rounds)`,
        database: 'memory',
        ...reference,
        peakRssMiB: peer.peakRssMiB(),
      },
    );
    return rows;
  },
};
