/**
 * The texts of `--help`: the commands, and for each command its options and the settings it
 * reads (and no others), each with its default.
 */
import { loadConfig, SETTINGS, type Config } from '../config.ts';
import type { Command, SettingKey } from './commands.ts';

/** Defaults that depend on the machine or on another setting, said as a rule rather than a value. */
const DEFAULT_TEXT: Partial<Record<SettingKey, string>> = {
  dataDir: './data',
  databaseUrl: 'sqlite:<data dir>/gatehouse.db',
  issuer: 'http://localhost:<port>',
  adminToken: 'generated on first start',
  cursorKeys: 'generated, shared through the database',
  secretsKey: 'SQLite: generated into <database>.secrets-key; PostgreSQL: required',
};

export function usage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 1;
  return `Usage: gatehouse <command> [options]

Gatehouse: OAuth 2.0, idempotent writes, SCIM 2.0, signed webhooks and cursor paging
for a payments API, in one service.

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)} ${c.summary}`).join('\n')}

Run "gatehouse <command> --help" for a command's options, "gatehouse --version" for the version.`;
}

export function commandHelp(command: Command): string {
  const options = (command.options ?? []).map((o) => [o.value ? `${o.flag} ${o.value}` : o.flag, o.description] as const);
  return `Usage: gatehouse ${command.name} ${command.usage ?? '[options]'}

${command.description}
${options.length > 0 ? `\nOptions:\n${columns(options)}\n` : ''}${
    // A command that reads no setting (`audit`, which only names its subcommands) has no such section.
    command.settings.length > 0 ? `\nSettings (flag or environment variable; flags win):\n${describeSettings(command.settings)}` : ''
  }`;
}

/** One line per setting the command reads, in the order of SETTINGS, with its default. */
export function describeSettings(keys: readonly SettingKey[]): string {
  // Defaults as an empty environment resolves them: what the process uses when nothing is set.
  const defaults = loadConfig({}, {});
  const rows = SETTINGS.filter((s) => keys.includes(s.key)).map(
    (s) => [`${s.flag}, ${s.env}`, `${s.description} [default: ${DEFAULT_TEXT[s.key] ?? shown(defaults[s.key])}]`] as const,
  );
  return columns(rows);
}

function shown(value: Config[SettingKey]): string {
  if (value === undefined) return 'unset';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  if (typeof value === 'object' && 'points' in value && 'seconds' in value) return `${value.points}/${value.seconds}`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function columns(rows: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...rows.map(([a]) => a.length));
  return rows.map(([a, b]) => `  ${a.padEnd(width)}  ${b}`).join('\n');
}
