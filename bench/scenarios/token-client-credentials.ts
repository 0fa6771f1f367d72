/**
 * POST /token (client_credentials, client_secret_basic, 50 connections) on a Gatehouse at the
 * default log level (info: a request line each, its standard output going to a file as a log
 * collector takes it), against oidc-provider (in-memory, opaque tokens) and the fastify
 * hello-world ceiling taking the same form POST on Gatehouse's own fastify, each in its own
 * process. Targets on every database: ≥ 3 × oidc-provider and ≥ 0.4 × the ceiling, no non-2xx.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { measureWithCpu } from '../lib/load.ts';
import { installedVersion, startCeiling, startGatehouse, startNode } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Scenario } from '../run.ts';

const NAME = 'token-client-credentials';
const BODY = 'grant_type=client_credentials&scope=invoices%3Aread';
const TARGET_VS_PEER = 3;
const TARGET_VS_CEILING = 0.4;

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
    const secret = 'bench-client-secret-0123456789abcdef';
    const ceiling = await startCeiling();
    // Like for like: the ceiling takes the same form POST (headers and body, which it parses with
    // @fastify/formbody, as Gatehouse does) and answers hello-world.
    const top = await measureWithCpu(ceiling.process.pid!, tokenRequest(ceiling.url, basic('bench-client', secret)));
    rows.push({ scenario: NAME, subject: `fastify ${ceiling.fastify} hello-world, same form POST (ceiling; ${top.cpu})`, database: '-', ...top, peakRssMiB: ceiling.peakRssMiB() });
    await ceiling.stop();

    const peer = await startNode(['--import', 'tsx', 'bench/peers/oidc-provider.ts'], { ready: /listening (\S+)/, env: { BENCH_CLIENT_SECRET: secret } });
    const reference = await measureWithCpu(peer.process.pid!, tokenRequest(`${peer.url}/token`, basic('bench-client', secret)));
    rows.push({ scenario: NAME, subject: `oidc-provider ${installedVersion('oidc-provider')} (reference; ${reference.cpu})`, database: 'memory', ...reference, peakRssMiB: peer.peakRssMiB() });
    await peer.stop();

    const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-token-'));
    try {
      for (const database of databases) {
        let url = database.url;
        let schema: string | undefined;
        if (url) {
          schema = `bench_oauth_${randomBytes(4).toString('hex')}`;
          const u = new URL(url);
          u.searchParams.set('schema', schema);
          url = u.href;
        }
        const log = fs.openSync(path.join(logDir, `${database.kind}.log`), 'a');
        const gatehouse = await startGatehouse({ databaseUrl: url, env: { GATEHOUSE_LOG_LEVEL: 'info' }, stdout: log }).finally(() => fs.closeSync(log));
        try {
          const account = await admin(gatehouse.adminUrl, gatehouse.adminToken, '/admin/v1/accounts', { name: 'Bench' });
          const client = await admin(gatehouse.adminUrl, gatehouse.adminToken, `/admin/v1/accounts/${account.id}/clients`, { grant_types: ['client_credentials'], scope: 'invoices:read' });
          const result = await measureWithCpu(gatehouse.process.pid!, tokenRequest(`${gatehouse.url}/token`, basic(client.client_id!, client.client_secret!)));
          const vsPeer = result.requestsPerSecond / reference.requestsPerSecond;
          const vsCeiling = result.requestsPerSecond / top.requestsPerSecond;
          rows.push({
            scenario: NAME,
            subject: `gatehouse POST /token, log level info (${result.cpu})`,
            database: database.kind,
            ...result,
            peakRssMiB: gatehouse.peakRssMiB(),
            ratio: `${vsPeer.toFixed(2)} × oidc-provider, ${vsCeiling.toFixed(2)} × ceiling`,
            target: `≥ ${TARGET_VS_PEER} × oidc-provider, ≥ ${TARGET_VS_CEILING} × ceiling`,
            pass: result.non2xx === 0 && result.errors === 0 && vsPeer >= TARGET_VS_PEER && vsCeiling >= TARGET_VS_CEILING,
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
    } finally {
      fs.rmSync(logDir, { recursive: true, force: true });
    }
    return rows;
  },
};
