/**
 * One Gatehouse server for bench/audit-cost.ts, in a process of its own: built with the audit
 * trail (`BENCH_AUDIT_VARIANT=with`) or with its recording left out (`without`), on
 * `BENCH_AUDIT_DATABASE_URL`. Forked with an IPC channel: it sends `{ ready }` with what a client
 * needs, then answers `seal` by sealing the records written so far (the background sealer's work,
 * run when the measuring process asks, so it lands in the round that wrote them), `statements`
 * with the count of statements it has sent to PostgreSQL, and `close` by stopping.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { recordNothing } from '../../src/audit/record.ts';
import { createGatehouse } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { countSentStatements } from './postgres-cpu.ts';
import { BENCH_SECRETS_KEY } from './processes.ts';

export interface AuditVariantReady {
  publicUrl: string;
  /** An access token with payouts:write on a funded account. */
  accessToken: string;
  /** A SCIM token of the same account. */
  scimToken: string;
}

/** `statements`: statements sent to PostgreSQL by this process so far (0 on SQLite). */
export type AuditVariantMessage = { ready: AuditVariantReady } | { sealed: number; statements: number } | { statements: number } | { failed: string };

const variant = process.env.BENCH_AUDIT_VARIANT;
const databaseUrl = process.env.BENCH_AUDIT_DATABASE_URL;
if ((variant !== 'with' && variant !== 'without') || !databaseUrl || !process.send) {
  console.error('forked by bench/audit-cost.ts with BENCH_AUDIT_VARIANT=with|without and BENCH_AUDIT_DATABASE_URL');
  process.exit(2);
}
const send = (message: AuditVariantMessage) => process.send!(message);

// The statements a round's requests took (creates that arrive together share one, so the count
// shows how well they met).
const statementsSent = countSentStatements();

const adminToken = randomBytes(24).toString('hex');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-audit-bench-data-'));
const config = loadConfig({
  GATEHOUSE_DATABASE_URL: databaseUrl,
  GATEHOUSE_DATA_DIR: dataDir,
  GATEHOUSE_HOST: '127.0.0.1',
  GATEHOUSE_PORT: '0',
  GATEHOUSE_ADMIN_PORT: '0',
  GATEHOUSE_ADMIN_TOKEN: adminToken,
  // The sealer is run on request (below); dispatch and the other workers are not measured here.
  GATEHOUSE_IN_PROCESS_WORKERS: 'off',
  GATEHOUSE_RATE_LIMITS: 'off',
  GATEHOUSE_SECRETS_KEY: BENCH_SECRETS_KEY,
});
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const gatehouse = await createGatehouse(config, { logDestination: quiet, recordAudit: variant === 'without' ? recordNothing : undefined });
const { publicUrl, adminUrl } = await gatehouse.listen();

async function call(url: string, token: string, body: unknown): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, string>;
}

const account = await call(`${adminUrl}/admin/v1/accounts`, adminToken, { name: 'Bench' });
const scimToken = (await call(`${adminUrl}/admin/v1/accounts/${account.id}/scim-tokens`, adminToken, { description: 'Bench IdP' })).token!;
const issued = await gatehouse.services.accessTokens.issue({ accountId: account.id!, clientId: 'client_bench', userId: null, scopes: ['invoices:write', 'payouts:write'], ttlSeconds: 3600 });
const invoice = await call(`${publicUrl}/v1/invoices`, issued.token, { amount: 1_000_000_000, currency: 'EUR' });
await call(`${publicUrl}/v1/invoices/${invoice.id}/settle`, issued.token, undefined);

process.on('message', (message) => {
  if (message === 'seal') {
    gatehouse.services.audit.sealer.sealPending().then(
      (sealed) => send({ sealed, statements: statementsSent() }),
      (error: unknown) => send({ failed: String(error) }),
    );
  } else if (message === 'statements') {
    send({ statements: statementsSent() });
  } else if (message === 'close') {
    void gatehouse.close().finally(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
send({ ready: { publicUrl, accessToken: issued.token, scimToken } });
