/**
 * `gatehouse export` and `gatehouse import`: move an installation between databases
 * (see src/platform/db/transfer.ts for the format and guarantees). Progress goes to standard
 * error, so the export itself can go to standard output.
 */
import fs from 'node:fs';
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import readline from 'node:readline';
import { once } from 'node:events';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import { exportDatabase, importDatabase, ImportRefused, type ImportResult, type Progress } from '../platform/db/transfer.ts';
import { UsageError } from './args.ts';
import { openOutput } from './output.ts';
import { PLATFORM_ACCOUNT } from '../audit/catalogue.ts';
import { cliActor, recordAudit } from '../audit/record.ts';
import { systemClock } from '../platform/clock.ts';
import { existingSecretsKey, loadSecretsKey, secretsKeyId } from '../platform/secrets-key.ts';
import type { CommandContext } from './commands.ts';

function progressPrinter(verb: string): Progress {
  let last = 0;
  return (table, done, total) => {
    const now = Date.now();
    if (done === total || now - last > 500) {
      last = now;
      process.stderr.write(`  ${verb} ${table}: ${done}/${total}\n`);
    }
  };
}

export async function exportCommand({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const out = flags['--out'];
  if (!out) throw new UsageError('export needs --out <file> (or --out - for standard output)');
  const database = await openConfiguredDatabase(config);
  let stream: NodeJS.WritableStream = process.stdout;
  try {
    if (out !== '-') stream = await openOutput(out, 'export');
    process.stderr.write(`gatehouse: exporting ${database.dialect.name} database at ${database.location}\n`);
    const write = async (line: string) => {
      if (!stream.write(`${line}\n`)) await once(stream, 'drain');
    };
    // The key itself stays behind: the header names it, and the target must be given it.
    const secretsKey = await loadSecretsKey({ database, configured: config.secretsKey });
    const header = await exportDatabase(database, write, progressPrinter('exported'), { keyId: secretsKeyId(secretsKey) });
    const rows = header.tables.reduce((sum, t) => sum + t.rows, 0);
    process.stderr.write(`gatehouse: exported ${rows} rows from ${header.tables.length} tables (schema ${header.schema})\n`);
    process.stderr.write(`gatehouse: its secrets are sealed under secrets key ${header.sealed_under}, which the export does not hold: give the target that key\n`);
    return 0;
  } finally {
    if (stream !== process.stdout) await new Promise((resolve) => (stream as fs.WriteStream).end(resolve));
    await database.close();
  }
}

export async function importCommand({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const input = flags['--in'];
  if (!input) throw new UsageError('import needs --in <file> (or --in - for standard input)');
  const database = await openConfiguredDatabase(config);
  try {
    process.stderr.write(`gatehouse: importing into ${database.dialect.name} database at ${database.location}\n`);
    await migrateToLatest(database);
    const lines = readline.createInterface({ input: input === '-' ? process.stdin : fs.createReadStream(input), crlfDelay: Infinity });
    const replace = flags['--replace'] === 'true';
    const held = await existingSecretsKey({ database, configured: config.secretsKey });
    // The import's record commits with it, written once the counts are checked.
    const record = async (trx: Transaction<Tables>, result: ImportResult) => {
      const rows = result.tables.reduce((sum, t) => sum + t.imported, 0);
      const changes = { tables: { after: result.tables.length }, rows: { after: rows }, replaced: { after: replace }, verified: { after: true } };
      await recordAudit(trx, cliActor, { accountId: PLATFORM_ACCOUNT, action: 'data.imported', target: { type: 'database', id: database.dialect.name }, changes, at: systemClock.now() });
    };
    const result = await importDatabase(database, lines, { replace, progress: progressPrinter('imported'), heldKeyId: held && secretsKeyId(held), record });
    for (const t of result.tables) process.stderr.write(`  ok       ${t.name}: ${t.imported}/${t.expected}\n`);
    process.stderr.write('gatehouse: import complete; every table count verified\n');
    return 0;
  } catch (error) {
    if (error instanceof ImportRefused) {
      process.stderr.write(`gatehouse: import refused, nothing changed: ${error.message}\n`);
      return 3;
    }
    throw error;
  } finally {
    await database.close();
  }
}
