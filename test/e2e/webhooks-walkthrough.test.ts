/**
 * docs/WEBHOOKS.md as a newcomer follows it, against a real `gatehouse serve` on SQLite and the
 * receiver snippet taken from that page unchanged (but for its port): register an endpoint,
 * settle an invoice, see the signed event arrive and verify with both stock verifiers, take the
 * receiver down, see the event parked, bring the receiver back and recover what was parked.
 *
 * The server runs on the real clock, so parking takes the schedule's real seconds (1,1,1 here);
 * the test waits for states, never for a fixed time.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { bearerCall, type Json } from '../helpers/http.ts';
import { until } from '../helpers/until.ts';

const ADMIN = 'spawned-admin-token-0123456789abcdef';
const SCOPES = 'webhooks:manage events:read invoices:read invoices:write';

/** The receiver of docs/WEBHOOKS.md, written where it can import the packages the page names. */
function receiverFromDocs(port: number): string {
  const page = fs.readFileSync('docs/WEBHOOKS.md', 'utf8');
  const snippet = /```js\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(snippet !== undefined && snippet.includes(".listen(4000, '127.0.0.1')"), 'docs/WEBHOOKS.md has its receiver snippet');
  const dir = path.resolve('node_modules/.cache/gatehouse-tests');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `receiver-${randomUUID()}.mjs`);
  fs.writeFileSync(file, snippet.replace('.listen(4000,', `.listen(${port},`));
  return file;
}

/** The snippet as a process; its standard output is what the page says a newcomer sees. */
class DocsReceiver {
  #child: ChildProcess | undefined;
  lines: string[] = [];
  constructor(
    readonly file: string,
    readonly port: number,
  ) {}

  async start(secret: string): Promise<void> {
    const child = spawn(process.execPath, [this.file], { env: { ...process.env, WEBHOOK_SECRET: secret }, stdio: ['ignore', 'pipe', 'inherit'] });
    this.#child = child;
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk;
      const complete = pending.split('\n');
      pending = complete.pop()!;
      this.lines.push(...complete);
    });
    // A request that is not a signed delivery is refused, and the receiver goes on.
    await until(async () => {
      try {
        return (await fetch(`http://127.0.0.1:${this.port}/`, { method: 'POST', body: '{}' })).status === 400;
      } catch {
        return false;
      }
    }, 30_000, 'the receiver to listen and refuse an unsigned request');
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('docs/WEBHOOKS.md, followed from registration to recovery (SQLite, real processes)', () => {
  let gatehouse: SpawnedGatehouse;
  let receiver: DocsReceiver;
  let token: string;

  const api = (method: string, route: string, body?: unknown) => bearerCall(gatehouse.url, token, method, route, body);

  async function settledInvoice(): Promise<string> {
    const invoice = await api('POST', '/v1/invoices', { amount: 12500, currency: 'EUR' });
    assert.equal(invoice.status, 201);
    const settled = await api('POST', `/v1/invoices/${String(invoice.body.id)}/settle`);
    assert.equal(settled.status, 200);
    return String(invoice.body.id);
  }

  before(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-walkthrough-'));
    gatehouse = await spawnGatehouse({
      databaseUrl: `sqlite:${path.join(dataDir, 'gatehouse.db')}`,
      env: { GATEHOUSE_IN_PROCESS_WORKERS: 'on', GATEHOUSE_WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8', GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: '1,1,1' },
    });
    const admin = (route: string, body: unknown) =>
      fetch(`${gatehouse.adminUrl}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => (await r.json()) as Record<string, string>);
    const account = await admin('/admin/v1/accounts', { name: 'Acme' });
    const client = await admin(`/admin/v1/accounts/${account.id}/clients`, { client_name: 'Acme hooks', grant_types: ['client_credentials'], scope: SCOPES });
    const tokenResponse = await fetch(`${gatehouse.url}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPES }),
    });
    token = ((await tokenResponse.json()) as { access_token: string }).access_token;
    const port = await freePort();
    receiver = new DocsReceiver(receiverFromDocs(port), port);
  });

  after(async () => {
    await receiver?.stop();
    if (receiver) fs.rmSync(receiver.file, { force: true });
    await gatehouse?.stop();
  });

  it('a settled invoice arrives signed and verified; parked while the receiver is down; recovered once when it is back', async () => {
    // 3. Register the endpoint; the secret is shown once.
    const endpoint = await api('POST', '/v1/webhook_endpoints', { url: `http://127.0.0.1:${receiver.port}/hooks`, event_types: ['invoice.settled', 'payout.paid'] });
    assert.equal(endpoint.status, 201);
    const secret = String(endpoint.body.secret);
    assert.match(secret, /^whsec_/);
    await receiver.start(secret);

    // 4. Settle an invoice: the receiver verifies both signatures, or it would answer 400.
    const first = await settledInvoice();
    await until(() => receiver.lines.some((l) => l.startsWith(`new invoice.settled ${first} settled dlv_`)), 30_000, 'the first event');
    // The receiver prints as it answers; the dispatcher records the acknowledgement just after.
    let acknowledged = await api('GET', `/v1/events?delivery_state=acknowledged`);
    await until(async () => {
      acknowledged = await api('GET', `/v1/events?delivery_state=acknowledged`);
      return acknowledged.body.data.length > 0;
    }, 30_000, 'the first delivery recorded as acknowledged');
    assert.deepEqual(
      acknowledged.body.data.map((e: Json) => [e.type, e.data.id]),
      [['invoice.settled', first]],
    );

    // 5. Take the receiver down and settle another invoice: retried on the schedule, then parked.
    await receiver.stop();
    const second = await settledInvoice();
    const parkedEvent = async (): Promise<Json[]> => (await api('GET', '/v1/events?delivery_state=parked')).body.data;
    await until(async () => (await parkedEvent()).length === 1, 30_000, 'the second event to be parked');
    assert.equal((await parkedEvent())[0].data.id, second);
    const attempts: Json[] = (await api('GET', `/v1/webhook_endpoints/${String(endpoint.body.id)}/deliveries`)).body.data;
    const failed = attempts.filter((a) => a.outcome === 'failed');
    assert.equal(failed.length, 4, 'the first attempt and three retries');
    assert.ok(failed.every((a) => String(a.error).includes('ECONNREFUSED')), JSON.stringify(failed.map((a) => a.error)));
    assert.equal(new Set(failed.map((a) => a.id)).size, 4, 'every attempt has its own Delivery-Id');

    // Bring the receiver back and recover what was parked since before the outage.
    await receiver.start(secret);
    const recovery = await api('POST', `/v1/webhook_endpoints/${String(endpoint.body.id)}/recover`, { since: '2000-01-01T00:00:00Z' });
    assert.equal(recovery.status, 202);
    assert.equal(recovery.body.requeued, 1);
    await until(() => receiver.lines.some((l) => l.startsWith(`new invoice.settled ${second} settled dlv_`)), 30_000, 'the parked event');
    await until(async () => (await parkedEvent()).length === 0, 30_000, 'nothing parked any more');

    // Delivered once each: the first event was not sent again, and nothing came twice.
    const received = receiver.lines.filter((l) => l.includes('invoice.settled'));
    assert.deepEqual(
      received.map((l) => l.split(' ').slice(0, 3).join(' ')),
      [`new invoice.settled ${first}`, `new invoice.settled ${second}`],
    );
  });
});
