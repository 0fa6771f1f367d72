/** Command-line parsing: `gatehouse <command> [--flag value | --flag=value] [positionals]`. */

export class UsageError extends Error {}

export interface CommandLine {
  command: string | undefined;
  help: boolean;
  flags: Record<string, string>;
  positionals: string[];
}

export function parseCommandLine(argv: string[]): CommandLine {
  const flags: Record<string, string> = {};
  const positionals: string[] = [];
  let command: string | undefined;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        flags[arg.slice(0, eq)] = arg.slice(eq + 1);
      } else {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) flags[arg] = 'true';
        else {
          flags[arg] = next;
          i++;
        }
      }
    } else if (command === undefined) {
      command = arg;
    } else {
      positionals.push(arg);
    }
  }
  return { command, help, flags, positionals };
}
