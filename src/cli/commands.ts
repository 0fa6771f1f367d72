/** The CLI's commands. Each one loads the config itself, so `--help` never needs a database. */
// Each command's code is loaded only when it runs, so `--help` answers at once.
const serve = async (c: CommandContext) => (await import('./serve.ts')).serve(c);
const migrate = async (c: CommandContext) => (await import('./migrate.ts')).migrate(c);
const exportCommand = async (c: CommandContext) => (await import('./transfer.ts')).exportCommand(c);
const importCommand = async (c: CommandContext) => (await import('./transfer.ts')).importCommand(c);
const rotateKeys = async (c: CommandContext) => (await import('./rotate-keys.ts')).rotateKeys(c);
const worker = async (c: CommandContext) => (await import('./worker.ts')).worker(c);

export interface CommandContext {
  flags: Record<string, string>;
  positionals: string[];
  env: NodeJS.ProcessEnv;
}

export interface Command {
  name: string;
  summary: string;
  description: string;
  usage?: string;
  options?: string;
  run(context: CommandContext): Promise<number>;
}

export const COMMANDS: Record<string, Command> = {
  serve: {
    name: 'serve',
    summary: 'Run the service (public and admin listeners, in-process workers)',
    description:
      'Applies pending migrations, then serves the public API and the admin API until SIGTERM or SIGINT,\n' +
      'when it stops accepting connections, finishes requests in flight and exits 0.',
    run: serve,
  },
  migrate: {
    name: 'migrate',
    summary: 'Apply pending database migrations and exit',
    description: 'Applies every pending migration to the configured database, printing each one, and exits.',
    run: migrate,
  },
  export: {
    name: 'export',
    summary: 'Write every table of the installation to an NDJSON file',
    description:
      'Exports the configured database (one consistent snapshot) as NDJSON: a header with the schema version\n' +
      'and row counts, then one line per row. Use it with import to move from SQLite to PostgreSQL or back.',
    usage: '--out <file|-> [options]',
    options: '  --out <file|->  where to write the export (- for standard output); created with mode 0600',
    run: exportCommand,
  },
  import: {
    name: 'import',
    summary: 'Load an export into the configured database and verify every count',
    description:
      'Migrates the configured database, then loads an export made by "gatehouse export" of the same version,\n' +
      'showing progress and verifying each table\'s row count at the end. Refuses a non-empty database\n' +
      'unless --replace is given (exit 3).',
    usage: '--in <file|-> [--replace] [options]',
    options: '  --in <file|->   the export to load (- for standard input)\n  --replace       delete the target\'s contents first',
    run: importCommand,
  },
  'rotate-keys': {
    name: 'rotate-keys',
    summary: 'Make new OAuth server keys active; old keys stay valid until what they signed expires',
    description:
      'Generates a new ES256 signing key (published in /.well-known/jwks.json) and a new token sealing key,\n' +
      'and makes them the active ones. Retired keys stay published and accepted for the access-token\n' +
      'lifetime, then are removed. Running nodes pick up the new keys within a minute.',
    run: rotateKeys,
  },
  worker: {
    name: 'worker',
    summary: 'Deliver webhooks and process payouts as a separate process (any number may share the database)',
    description:
      'Runs the background work without the HTTP listeners: the webhook dispatcher (claims due deliveries\n' +
      'with a lease, signs and POSTs them, retries on the schedule and parks what never succeeds), the payout\n' +
      'processor (each payout processed once however many run) and the sweepers of expired OAuth state and\n' +
      'idempotency records. Run several for scale, and set GATEHOUSE_IN_PROCESS_WORKERS=off on serve nodes to\n' +
      'keep this work off them. GATEHOUSE_WORKER_METRICS_PORT serves /metrics there. Stops on SIGTERM or SIGINT\n' +
      'after recording the work in flight; a worker killed outright loses nothing (its leases expire).',
    run: worker,
  },
};
