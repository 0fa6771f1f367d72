/**
 * `gatehouse audit export` and `gatehouse audit verify` (docs/AUDIT.md). Progress and reports
 * go to standard error and standard output respectively; an export can go to standard output.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { once } from 'node:events';
import { loadConfig } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { openConfiguredDatabase, type Database } from '../platform/db/database.ts';
import { requireMigrated } from '../platform/db/migrate.ts';
import { openAudit } from '../audit/standalone.ts';
import { isInstant } from '../audit/query.ts';
import { parseAnchor } from '../audit/verify.ts';
import { UsageError } from './args.ts';
import { openOutput } from './output.ts';
import type { CommandContext } from './commands.ts';

/**
 * The database whose trail is read: one that exists and holds Gatehouse's schema. A mistyped
 * SQLite path would otherwise be created empty (with a secrets key beside it) and verify as
 * "0 chains", exit 0, and a scheduled check would never alert.
 */
async function openExistingDatabase(config: ReturnType<typeof loadConfig>): Promise<Database> {
  if (config.databaseUrl.startsWith('sqlite:')) {
    const file = path.resolve(config.databaseUrl.slice('sqlite:'.length));
    if (!fs.existsSync(file)) throw new Error(`GATEHOUSE_DATABASE_URL (${config.databaseUrl}) names no database: ${file} does not exist`);
  }
  const database = await openConfiguredDatabase(config);
  try {
    await sql`select 1 from accounts limit 1`.execute(database.db);
  } catch {
    await database.close();
    throw new Error(`GATEHOUSE_DATABASE_URL names a database that holds no Gatehouse data (${database.location}): nothing to read`);
  }
  return database;
}

/** Exit status of a verification that found a problem. */
export const CHAIN_BROKEN = 4;

export async function auditExport({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const out = flags['--out'];
  if (!out) throw new UsageError('audit export needs --out <file> (or --out - for standard output)');
  // A bad bound is a refused command line (exit 2), found before the database is opened.
  for (const flag of ['--since', '--until']) {
    const value = flags[flag];
    if (value !== undefined && !isInstant(value)) throw new UsageError(`audit export: ${flag} must be an RFC 3339 date-time, e.g. 2026-03-01T00:00:00Z (got "${value}")`);
  }
  const database = await openExistingDatabase(config);
  try {
    await requireMigrated(database);
    const audit = await openAudit(database, config, systemClock);
    const request = { accountId: flags['--account'], filters: { since: flags['--since'], until: flags['--until'], action: flags['--action'] } };
    if (request.accountId !== undefined) await audit.queries.requireKnown(request.accountId);
    const stream = out === '-' ? process.stdout : await openOutput(out, 'audit export');
    const total = await audit.queries.count(request);
    process.stderr.write(`gatehouse: exporting ${total} audit records\n`);
    let done = 0;
    let shown = 0;
    for await (const record of audit.queries.stream(request)) {
      if (!stream.write(`${JSON.stringify(record)}\n`)) await once(stream, 'drain');
      done += 1;
      const now = performance.now();
      if (now - shown > 500) {
        shown = now;
        process.stderr.write(`  exported ${done}/${total}\n`);
      }
    }
    if (stream !== process.stdout) await new Promise<void>((resolve, reject) => (stream as fs.WriteStream).end((error?: Error | null) => (error ? reject(error) : resolve())));
    process.stderr.write(`gatehouse: exported ${done} audit records\n`);
    return 0;
  } finally {
    await database.close();
  }
}

export async function auditVerify({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const database = await openExistingDatabase(config);
  try {
    await requireMigrated(database);
    const audit = await openAudit(database, config, systemClock);
    const anchorText = flags['--anchor'];
    const anchor = anchorText === undefined ? undefined : parseAnchor(anchorText);
    if (anchorText !== undefined && (anchor === undefined || flags['--account'] === undefined)) {
      console.error('gatehouse: --anchor takes <seq>:<hash> (a record\'s seq and its 64-character hex hash) and needs --account');
      return 1;
    }
    if (flags['--no-seal'] !== 'true') await audit.sealer.sealPending();
    const report = await audit.verifier.verify(flags['--account'], anchor);
    for (const chain of report.chains) {
      const summary = `${chain.account}: ${chain.records} records (${chain.first_seq}..${chain.head_seq}), ${chain.checkpoints.verified} checkpoints verified`;
      if (chain.problem) {
        const p = chain.problem;
        console.log(`FAIL ${summary}\n  ${p.kind} at ${p.seq}${p.id ? ` (${p.id})` : ''}: ${p.detail}`);
      } else {
        const head = chain.head_hash === null ? '' : `; head ${chain.head_seq}:${chain.head_hash}`;
        console.log(`ok   ${summary}${chain.pending > 0 ? `, ${chain.pending} not yet sealed` : ''}${chain.detached > 0 ? `, ${chain.detached} detached` : ''}${head}`);
      }
    }
    console.log(report.ok ? `gatehouse: ${report.chains.length} chains verify` : 'gatehouse: the audit trail was tampered with');
    return report.ok ? 0 : CHAIN_BROKEN;
  } finally {
    await database.close();
  }
}
