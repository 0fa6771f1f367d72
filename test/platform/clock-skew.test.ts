/**
 * A node compares its clock with PostgreSQL's at start (platform/db/clock-check.ts): a node whose
 * clock is off judges every token, lease and expiry wrong, and says so only if it is told.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NEEDS_POSTGRES, databaseTargets } from '../helpers/databases.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { CLOCK_SKEW_WARN_MS, clockSkewMs, warnOfClockSkew } from '../../src/platform/db/clock-check.ts';

const postgres = databaseTargets().find((target) => target.kind === 'postgres');

describe('a node\'s clock against the database\'s (postgres)', { skip: postgres ? false : NEEDS_POSTGRES }, () => {
  let database: Database;
  let drop: () => Promise<void>;
  before(async () => {
    const created = await postgres!.create();
    drop = created.drop;
    database = await openDatabase({ databaseUrl: created.url });
  });
  after(async () => {
    await database?.close();
    await drop?.();
  });

  it('measures the difference, and warns naming it only past the bound', async () => {
    const inTime = await clockSkewMs(database);
    assert.ok(inTime !== undefined && Math.abs(inTime) < 500, `skew ${inTime} ms on one machine`);
    const ahead = await clockSkewMs(database, () => Date.now() + 7_200_000);
    assert.ok(ahead !== undefined && Math.abs(ahead - 7_200_000) < 500, `${ahead}`);

    const warnings: Array<{ fields: unknown; message: string }> = [];
    const log = { warn: (fields: unknown, message: string) => warnings.push({ fields, message }) } as never;
    await warnOfClockSkew(database, log);
    assert.equal(warnings.length, 0, `within ${CLOCK_SKEW_WARN_MS} ms: nothing said`);
    await warnOfClockSkew(database, log, () => Date.now() - 7_200_000);
    assert.equal(warnings.length, 1);
    const skew = (warnings[0]!.fields as { clock_skew_ms: number }).clock_skew_ms;
    assert.ok(Math.abs(skew + 7_200_000) < 500, `${skew}`);
    assert.match(warnings[0]!.message, /^this node's clock is 7\d{6} ms behind the database's: .*\(NTP\)$/);
  });
});

describe('a node\'s clock on SQLite', () => {
  it('has nothing to compare with', async () => {
    const sqlite = databaseTargets().find((target) => target.kind === 'sqlite')!;
    const created = await sqlite.create();
    const database = await openDatabase({ databaseUrl: created.url });
    try {
      assert.equal(await clockSkewMs(database), undefined);
    } finally {
      await database.close();
      await created.drop();
    }
  });
});
