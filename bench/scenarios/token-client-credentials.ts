/**
 * POST /token (client_credentials, client_secret_basic, 50 connections): Gatehouse against
 * oidc-provider 9.13.3 (in-memory, opaque tokens) and the fastify hello-world ceiling, each in
 * its own process. Targets on SQLite: ≥ 3× oidc-provider and ≥ 0.5 of the ceiling, no non-2xx.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { measureWithCpu } from '../lib/load.ts';
import { startCeiling, startGatehouse, startNode } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';

const NAME = 'token-client-credentials';
const BODY = 'grant_type=client_credentials&scope=invoices%3Aread';

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export const tokenRequest = (url: string, authorization: string) => ({
  url,
  method: 'POST' as const,
  headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
  body: BODY,
});

export async function admin(base: string, token: string, path: string, body: unknown) {
  const response = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, string>;
}

export const tokenClientCredentials: Scenario = {
  name: NAME,
  async run({ databases }) {
    const rows: Row[] = [];
    const ceiling = await startCeiling();
    // The ceiling parses a small JSON body (fastify has no form parser of its own) and answers.
    const hello = { url: ceiling.url, method: 'POST' as const, body: '{"grant_type":"client_credentials"}', headers: { 'content-type': 'application/json' } };
    const top = await measureWithCpu(ceiling.process.pid!, hello);
    rows.push({ scenario: NAME, subject: `fastify hello-world (ceiling; ${top.cpu})`, database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    await ceiling.stop();

    const secret = 'bench-client-secret-0123456789abcdef';
    const peer = await startNode(['--import', 'tsx', 'bench/peers/oidc-provider.ts'], { ready: /listening (\S+)/, env: { BENCH_CLIENT_SECRET: secret } });
    const reference = await measureWithCpu(peer.process.pid!, tokenRequest(`${peer.url}/token`, basic('bench-client', secret)));
    rows.push({ scenario: NAME, subject: `oidc-provider 9.13.3 (reference; ${reference.cpu})`, database: 'memory', ...reference, peakRssMiB: peer.peakRssMiB() });
    await peer.stop();

    for (const database of databases) {
      let url = database.url;
      let schema: string | undefined;
      if (url) {
        schema = `bench_oauth_${randomBytes(4).toString('hex')}`;
        const u = new URL(url);
        u.searchParams.set('schema', schema);
        url = u.href;
      }
      const gatehouse = await startGatehouse({ databaseUrl: url });
      try {
        const account = await admin(gatehouse.adminUrl, gatehouse.adminToken, '/admin/v1/accounts', { name: 'Bench' });
        const client = await admin(gatehouse.adminUrl, gatehouse.adminToken, `/admin/v1/accounts/${account.id}/clients`, { grant_types: ['client_credentials'], scope: 'invoices:read' });
        const result = await measureWithCpu(gatehouse.process.pid!, tokenRequest(`${gatehouse.url}/token`, basic(client.client_id!, client.client_secret!)));
        const vsPeer = result.requestsPerSecond / reference.requestsPerSecond;
        const vsCeiling = result.requestsPerSecond / top.requestsPerSecond;
        const sqlite = database.kind === 'sqlite';
        rows.push({
          scenario: NAME,
          subject: `gatehouse POST /token (${result.cpu})`,
          database: database.kind,
          ...result,
          peakRssMiB: gatehouse.peakRssMiB(),
          ratio: `${vsPeer.toFixed(2)} × oidc-provider, ${vsCeiling.toFixed(2)} × ceiling`,
          target: sqlite ? '≥ 3 × oidc-provider, ≥ 0.5 × ceiling' : 'reported',
          pass: result.non2xx === 0 && result.errors === 0 && (!sqlite || (vsPeer >= 3 && vsCeiling >= 0.5)),
        });
      } finally {
        await gatehouse.stop();
        if (schema && database.url) {
          const c = new pg.Client({ connectionString: database.url });
          await c.connect();
          await c.query(`drop schema if exists ${schema} cascade`);
          await c.end();
        }
      }
    }
    return rows;
  },
};
