/**
 * Exactly once under races on the real payout write: 100 identical POST /v1/payouts with one
 * key at the same moment, round after round, pay out once per round (one payout, one
 * `payout.created`, one posting), and every answer is the original, its byte-identical
 * replay or 409 in_use; within one process, and spread over two `gatehouse serve` processes
 * sharing one database. One file per case and database (payouts-races-*.test.ts), so that
 * each stays short on a loaded machine.
 */
import { after, before, it } from 'node:test';
import type { DatabaseKind } from '../../src/config.ts';
import { describeOnDatabase } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { spawnGatehouse, type SpawnedGatehouse } from '../helpers/processes.ts';
import { CONCURRENCY, ROUNDS, paymentState } from './payout-calls.ts';

export function describeOneProcess(kind: DatabaseKind): void {
  describeOnDatabase(kind, `Idempotency-Key on POST /v1/payouts under concurrency (${kind})`, (target) => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'warn', GATEHOUSE_PAYOUT_DELAY: '3600' } });
    });
    after(() => t.close());
    const { hammer } = paymentState(() => t);

    it(`${CONCURRENCY} concurrent identical POST /v1/payouts with one key, ${ROUNDS} rounds → one payout, one payout.created and one posting per round; every answer is the original, its byte-identical replay or 409 in_use`, async () => {
      await hammer([t.publicUrl], kind);
    });
  });
}

export function describeTwoProcesses(kind: DatabaseKind): void {
  describeOnDatabase(kind, `Idempotency-Key on POST /v1/payouts over two server processes on one ${kind === 'postgres' ? 'PostgreSQL database' : 'SQLite file'}`, (target) => {
    let t: TestApp;
    const nodes: SpawnedGatehouse[] = [];
    before(async () => {
      t = await startTestApp(target, { env: { GATEHOUSE_LOG_LEVEL: 'warn' } });
      for (let i = 0; i < 2; i++) nodes.push(await spawnGatehouse({ databaseUrl: t.config.databaseUrl, env: { GATEHOUSE_PAYOUT_DELAY: '3600' } }));
    });
    after(async () => {
      await Promise.all(nodes.map((n) => n.stop()));
      await t.close();
    });
    const { hammer } = paymentState(() => t);

    it(`${CONCURRENCY} concurrent identical POST /v1/payouts spread over two processes, ${ROUNDS} rounds → exactly one payout per round`, async () => {
      await hammer(nodes.map((n) => n.url), `${kind}, two processes`);
    });
  });
}
