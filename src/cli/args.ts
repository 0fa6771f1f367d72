/**
 * Command-line parsing: `gatehouse <command> [--flag value | --flag=value]…`.
 *
 * A command takes only its own flags (the settings it reads and its options) and no stray
 * arguments. Anything else is refused with one line naming it: a misspelt `--prot 38096` that
 * were ignored would start a node on the default port, with nothing said. `--help` and
 * `--version` are taken anywhere and win over everything else on the line.
 */

export class UsageError extends Error {}

/** A flag a command takes: a setting's (always with a value) or an option of its own. */
export interface FlagSpec {
  flag: string;
  takesValue: boolean;
}

export interface CommandLine {
  command: string | undefined;
  help: boolean;
  version: boolean;
  /** By flag, with its dashes (`--port`); a flag without a value is `'true'`. */
  flags: Record<string, string>;
}

const HELP = new Set(['--help', '-h']);
const VERSION = new Set(['--version', '-v']);

/**
 * `flagsOf(command)` lists what a command takes, or is undefined for an unknown command.
 * Throws UsageError for an unknown command, and (unless help or the version is asked for)
 * for every unknown flag, flag without its value and stray argument, all named in one line.
 */
export function parseCommandLine(argv: readonly string[], flagsOf: (command: string) => readonly FlagSpec[] | undefined): CommandLine {
  const line: CommandLine = { command: undefined, help: false, version: false, flags: {} };
  const problems: string[] = [];
  let specs: readonly FlagSpec[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (HELP.has(arg)) {
      line.help = true;
    } else if (VERSION.has(arg)) {
      line.version = true;
    } else if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const flag = eq > 0 ? arg.slice(0, eq) : arg;
      const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
      const next = argv[i + 1];
      const nextIsValue = next !== undefined && !next.startsWith('--');
      const spec = specs.find((s) => s.flag === flag);
      if (!spec) {
        problems.push(line.command === undefined ? `${flag} must come after the command` : `unknown option ${flag}`);
        // `--prot 38096`: the value belongs to the misspelt flag, not a stray argument of its own.
        if (inline === undefined && nextIsValue) i++;
      } else if (!spec.takesValue) {
        if (inline !== undefined) problems.push(`${flag} takes no value`);
        line.flags[flag] = 'true';
      } else if (inline !== undefined) {
        line.flags[flag] = inline;
      } else if (nextIsValue) {
        line.flags[flag] = next;
        i++;
      } else {
        problems.push(`${flag} needs a value`);
      }
    } else if (line.command !== undefined && !arg.startsWith('-') && flagsOf(`${line.command} ${arg}`) !== undefined) {
      // A command of a group, e.g. `audit verify`.
      line.command = `${line.command} ${arg}`;
      specs = flagsOf(line.command)!;
    } else if (line.command === undefined && !arg.startsWith('-')) {
      line.command = arg;
      const known = flagsOf(arg);
      if (known === undefined) throw new UsageError(`unknown command "${arg}" (gatehouse --help lists the commands)`);
      specs = known;
    } else {
      problems.push(arg.startsWith('-') && arg.length > 1 ? `unknown option ${arg}` : `unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  if (problems.length > 0 && !line.help && !line.version) {
    const where = line.command === undefined ? '' : `${line.command}: `;
    const hint = line.command === undefined ? 'gatehouse --help' : `gatehouse ${line.command} --help`;
    throw new UsageError(`${where}${problems.join('; ')} (${hint} lists what it takes)`);
  }
  return line;
}
