/**
 * The CLI's commands. Each one loads the config itself, so `--help` never needs a database.
 * Each names the settings it reads: those are the only setting flags it takes and the only
 * settings its `--help` lists.
 */
import { SETTINGS, type Config } from '../config.ts';
import type { FlagSpec } from './args.ts';

// Each command's code is loaded only when it runs, so `--help` answers at once.
const serve = async (c: CommandContext) => (await import('./serve.ts')).serve(c);
const migrate = async (c: CommandContext) => (await import('./migrate.ts')).migrate(c);
const exportCommand = async (c: CommandContext) => (await import('./transfer.ts')).exportCommand(c);
const importCommand = async (c: CommandContext) => (await import('./transfer.ts')).importCommand(c);
const rotateKeys = async (c: CommandContext) => (await import('./rotate-keys.ts')).rotateKeys(c);
const worker = async (c: CommandContext) => (await import('./worker.ts')).worker(c);
const auditExport = async (c: CommandContext) => (await import('./audit.ts')).auditExport(c);
const auditVerify = async (c: CommandContext) => (await import('./audit.ts')).auditVerify(c);

export interface CommandContext {
  flags: Record<string, string>;
  env: NodeJS.ProcessEnv;
}

/** A flag of one command that is not a setting (e.g. export's `--out`). */
export interface CommandOption {
  flag: string;
  /** How the value is written in help, e.g. `<file|->`; absent for a flag that takes none. */
  value?: string;
  description: string;
}

export type SettingKey = keyof Config;

export interface Command {
  name: string;
  summary: string;
  description: string;
  usage?: string;
  /** The settings the command reads. */
  settings: readonly SettingKey[];
  options?: readonly CommandOption[];
  run(context: CommandContext): Promise<number>;
}

/** Where the database is and how it is used: every command that opens one reads these (openConfiguredDatabase). */
const DATABASE: readonly SettingKey[] = ['dataDir', 'databaseUrl', 'databasePoolSize', 'databaseStatementTimeout', 'databaseAcquireTimeout'];

/** Read only by `gatehouse worker`. */
const WORKER_ONLY: readonly SettingKey[] = ['workerMetricsPort'];

export const COMMANDS: Record<string, Command> = {
  serve: {
    name: 'serve',
    summary: 'Run the service (public and admin listeners, in-process workers)',
    description:
      'Applies pending migrations, binds both listeners (or exits 1 naming the setting when one cannot be bound),\n' +
      'then starts the in-process workers. On SIGTERM or SIGINT it answers /readyz with 503 and closes each\n' +
      'connection after its response for GATEHOUSE_SHUTDOWN_GRACE (a second signal cuts that short), then stops\n' +
      'accepting connections, finishes requests in flight, stops the workers (both within\n' +
      'GATEHOUSE_SHUTDOWN_TIMEOUT), closes the database and exits 0.',
    // serve reads every setting but those of other commands, including any added later.
    settings: SETTINGS.map((s) => s.key).filter((key) => !WORKER_ONLY.includes(key)),
    run: serve,
  },
  migrate: {
    name: 'migrate',
    summary: 'Apply pending database migrations and exit',
    description: 'Applies every pending migration to the configured database, printing each one, and exits.',
    settings: DATABASE,
    run: migrate,
  },
  export: {
    name: 'export',
    summary: 'Write every table of the installation to an NDJSON file',
    description:
      'Exports the configured database (one consistent snapshot) as NDJSON: a header with the schema version\n' +
      'and row counts, then one line per row. Use it with import to move from SQLite to PostgreSQL or back.\n' +
      'The secrets key that opens its sealed values is not in it: the header names the key by a one-way id,\n' +
      'and the target must be given that key.',
    usage: '--out <file|-> [options]',
    settings: [...DATABASE, 'secretsKey'],
    options: [{ flag: '--out', value: '<file|->', description: 'where to write the export (- for standard output); created with mode 0600' }],
    run: exportCommand,
  },
  import: {
    name: 'import',
    summary: 'Load an export into the configured database and verify every count',
    description:
      'Migrates the configured database, then loads an export made by "gatehouse export" of the same version,\n' +
      'showing progress and verifying each table\'s row count at the end. Refuses a non-empty database\n' +
      'unless --replace is given (exit 3), and a database that does not hold the secrets key the export names\n' +
      '(exit 3; set GATEHOUSE_SECRETS_KEY to the source\'s key), before loading a row. The import is one\n' +
      'transaction: an export cut short or damaged, or a count that does not match, is refused (exit 3)\n' +
      'and the database is left as it was, its contents included with --replace.',
    usage: '--in <file|-> [--replace] [options]',
    settings: [...DATABASE, 'secretsKey'],
    options: [
      { flag: '--in', value: '<file|->', description: 'the export to load (- for standard input)' },
      { flag: '--replace', description: "delete the target's contents first" },
    ],
    run: importCommand,
  },
  'rotate-keys': {
    name: 'rotate-keys',
    summary: 'New OAuth server keys: published first, signing once every cached JWKS holds them',
    usage: '[--revoke] [options]',
    description:
      'Generates a new ES256 signing key (and RS256, if one is in use) and a new token sealing key. The signing\n' +
      'key is published in /.well-known/jwks.json at once and starts signing 6 minutes later, when every JWKS\n' +
      'a relying party may have cached (for 5 minutes) has expired; the old key signs until then. The sealing\n' +
      'key seals at once.\n' +
      'Retired keys stay published and accepted for the access-token lifetime; then their private parts are\n' +
      'dropped. Running nodes pick up the new sealing key within a minute. With --revoke the new keys sign at\n' +
      'once and every earlier key is withdrawn: access tokens it sealed stop working within a minute (clients\n' +
      'fetch new ones); relying parties accept what it signed until their cached JWKS expires.',
    settings: [...DATABASE, 'secretsKey', 'accessTokenTtl'],
    options: [{ flag: '--revoke', description: 'for a key that may have leaked: the new keys sign at once and every earlier key is withdrawn now' }],
    run: rotateKeys,
  },
  audit: {
    name: 'audit',
    summary: 'The audit trail: "audit export" and "audit verify"',
    description: 'Run "gatehouse audit export --help" or "gatehouse audit verify --help".',
    settings: [],
    run: async () => {
      console.error('gatehouse: audit needs a command: export or verify (gatehouse audit export --help)');
      return 2;
    },
  },
  'audit export': {
    name: 'audit export',
    summary: 'Stream audit records of a range as NDJSON, oldest first, with progress',
    description:
      'Writes every audit record of the range (one account, or all) as one JSON line each, in the API\'s\n' +
      'representation, oldest first; progress goes to standard error.',
    usage: '--out <file|-> [--account <id>] [--since <RFC 3339>] [--until <RFC 3339>] [--action <prefix>] [options]',
    settings: [...DATABASE, 'secretsKey', 'issuer', 'accessTokenTtl', 'cursorKeys', 'cursorTtl', 'auditRetention', 'auditCheckpointInterval'],
    options: [
      { flag: '--out', value: '<file|->', description: 'where to write (- for standard output); created with mode 0600' },
      { flag: '--account', value: '<id>', description: 'only this account (default: every account)' },
      { flag: '--since', value: '<RFC 3339>', description: 'records at or after this instant' },
      { flag: '--until', value: '<RFC 3339>', description: 'records before this instant' },
      { flag: '--action', value: '<prefix>', description: 'only actions starting with this text' },
    ],
    run: auditExport,
  },
  'audit verify': {
    name: 'audit verify',
    summary: 'Check the audit hash chains and their signed checkpoints; name the first record altered, removed or reordered',
    description:
      'Seals pending records first (unless --no-seal), then walks each account\'s chain from its oldest kept\n' +
      'record and checks every signed checkpoint. Exits 0 when every chain verifies, 4 when one does not.\n' +
      'The checkpoints live in the same database: give --anchor a head kept elsewhere (a SIEM\'s copy of a\n' +
      'record\'s seq and hash) to find records cut off together with their checkpoints.',
    usage: '[--account <id> [--anchor <seq>:<hash>]] [--no-seal] [options]',
    settings: [...DATABASE, 'secretsKey', 'issuer', 'accessTokenTtl', 'cursorKeys', 'cursorTtl', 'auditRetention', 'auditCheckpointInterval'],
    options: [
      { flag: '--account', value: '<id>', description: 'only this account' },
      { flag: '--anchor', value: '<seq>:<hash>', description: 'the chain must still pass through this record (with --account)' },
      { flag: '--no-seal', description: 'verify what is sealed without sealing first' },
    ],
    run: auditVerify,
  },
  worker: {
    name: 'worker',
    summary: 'Deliver webhooks and back-channel logouts, process payouts and seal the audit trail as a separate process (any number may share the database)',
    description:
      'Runs the background work without the HTTP listeners: the webhook dispatcher (claims due deliveries\n' +
      'with a lease, signs and POSTs them, retries on the schedule and parks what never succeeds), back-channel\n' +
      'logout delivery, the payout processor (each payout processed once however many run), audit sealing\n' +
      '(hash chains and signed checkpoints) and the sweepers of expired OAuth state, idempotency records and\n' +
      'audit records past their retention. Run several for scale, and set GATEHOUSE_IN_PROCESS_WORKERS=off\n' +
      'on serve nodes to keep this work off them. GATEHOUSE_WORKER_METRICS_PORT serves /metrics there (bound\n' +
      'before any work starts; exits 1 naming the setting when it cannot be). Stops on SIGTERM or SIGINT: claimed deliveries\n' +
      'not yet sent are released, attempts in flight are recorded, and whatever is still running after\n' +
      'GATEHOUSE_SHUTDOWN_TIMEOUT is abandoned (its leases expire); a worker killed outright loses nothing.',
    settings: [
      ...DATABASE,
      'logLevel',
      'issuer',
      'secretsKey',
      'webhookAllowNetworks',
      'webhookRetrySchedule',
      'webhookTimeout',
      'webhookConcurrency',
      'webhookDisableAfter',
      'adminHost',
      'workerMetricsPort',
      'bodyLimit',
      'shutdownTimeout',
      // The metrics listener's limits, like the admin listener's.
      'httpRequestTimeout',
      'httpHeadersTimeout',
      'httpKeepAliveTimeout',
      'httpMaxConnections',
      // The audit trail it seals and sweeps (audit/standalone.ts) and the signing keys it signs checkpoints and logout tokens with.
      'accessTokenTtl',
      'cursorKeys',
      'cursorTtl',
      'auditRetention',
      'auditCheckpointInterval',
    ],
    run: worker,
  },
};

/** The flags a command takes: its settings' (each with a value) and its own options. */
export function flagsOf(command: Command): FlagSpec[] {
  const settings = SETTINGS.filter((s) => command.settings.includes(s.key)).map((s) => ({ flag: s.flag, takesValue: true }));
  const options = (command.options ?? []).map((o) => ({ flag: o.flag, takesValue: o.value !== undefined }));
  return [...settings, ...options];
}
