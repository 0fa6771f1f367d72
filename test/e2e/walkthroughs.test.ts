/**
 * docs/PAYMENTS.md then docs/IDEMPOTENCY.md, run as a newcomer runs them: every ```sh block of
 * each page, in order, in one bash session, against a real `gatehouse serve` on a fresh SQLite
 * database. Only the addresses (the pages say :8080 and :8081) and the admin token file are
 * replaced. The tools the pages list (curl, jq, uuidgen) are used as installed; where uuidgen is
 * missing, a stand-in prints a random UUID.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';

const ADMIN = 'spawned-admin-token-0123456789abcdef';

/** The page's shell blocks, each announced by a marker line so its output can be found. */
function shellOf(page: string, gatehouse: SpawnedGatehouse): string {
  const text = fs.readFileSync(path.join('docs', page), 'utf8');
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  assert.ok(blocks.length > 0, `${page} has shell blocks`);
  return blocks
    .map((block, i) => `echo "::${page} block ${i + 1}"\n${block}`)
    .join('\n')
    .replaceAll('http://localhost:8080', gatehouse.url)
    .replaceAll('http://127.0.0.1:8081', gatehouse.adminUrl)
    .replaceAll('$(cat data/admin-token)', `'${ADMIN}'`);
}

/** A directory for PATH holding a uuidgen stand-in when the machine has none. */
function toolsDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-tools-'));
  if (spawnSync('sh', ['-c', 'command -v uuidgen']).status !== 0) {
    fs.writeFileSync(path.join(dir, 'uuidgen'), `#!/bin/sh\nexec "${process.execPath}" -e 'console.log(crypto.randomUUID())'\n`, { mode: 0o755 });
  }
  return dir;
}

function outputOf(stdout: string, marker: string): string {
  const start = stdout.indexOf(`::${marker}\n`);
  assert.ok(start >= 0, `${marker} ran`);
  const next = stdout.indexOf('\n::', start + 1);
  return stdout.slice(start, next < 0 ? undefined : next);
}

describe('the walk-throughs of docs/, run in order from a fresh start', () => {
  let gatehouse: SpawnedGatehouse;
  let tools: string;
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-walkthroughs-'));
    gatehouse = await spawnGatehouse({ databaseUrl: `sqlite:${path.join(dir, 'gatehouse.db')}` });
    tools = toolsDir();
  });
  after(async () => {
    await gatehouse?.stop();
  });

  it('PAYMENTS then IDEMPOTENCY: each step answers as the pages say', async () => {
    const script = ['set -u', shellOf('PAYMENTS.md', gatehouse), shellOf('IDEMPOTENCY.md', gatehouse)].join('\n');
    const run = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, PATH: `${tools}:${process.env.PATH}` }, timeout: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    const stdout = run.stdout;

    // PAYMENTS: the invoice settles, the payout is made, the pages and the ledger read.
    assert.match(outputOf(stdout, 'PAYMENTS.md block 2'), /"state":"settled"/);
    assert.match(outputOf(stdout, 'PAYMENTS.md block 3'), /"object":"payout"/);
    assert.match(outputOf(stdout, 'PAYMENTS.md block 4'), /"state":"settled"/);
    assert.match(outputOf(stdout, 'PAYMENTS.md block 5'), /"ledger_account":"balance"/);

    // IDEMPOTENCY: its own invoice funds the payout, which is made once and replayed after.
    assert.match(outputOf(stdout, 'IDEMPOTENCY.md block 1'), /^settled$/m);
    const payouts = outputOf(stdout, 'IDEMPOTENCY.md block 2');
    assert.match(payouts, /HTTP\/1\.1 201 Created/);
    assert.match(payouts, /idempotent-replay: true/i);
    assert.doesNotMatch(payouts, /insufficient_funds/);
    assert.match(outputOf(stdout, 'IDEMPOTENCY.md block 4'), /idempotency_key_reused|idempotency_key_mismatch|409/);
    assert.match(outputOf(stdout, 'IDEMPOTENCY.md block 5'), /insufficient_funds/);
  });
});
