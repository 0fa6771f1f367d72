/**
 * The `gatehouse` command: parses the command line, loads the config, runs one command.
 * Commands live in src/cli/; this file only dispatches.
 */
import { COMMANDS, type Command } from './cli/commands.ts';
import { ConfigError, describeSettings } from './config.ts';
import { parseCommandLine, UsageError } from './cli/args.ts';

const USAGE = `Usage: gatehouse <command> [options]

Gatehouse: OAuth 2.0, idempotent writes, SCIM 2.0, signed webhooks and cursor paging
for a payments API, in one service.

Commands:
${Object.values(COMMANDS)
  .map((c, _i, all) => `  ${c.name.padEnd(Math.max(...all.map((x) => x.name.length)) + 1)} ${c.summary}`)
  .join('\n')}

Run "gatehouse <command> --help" for a command's options.`;

export function commandHelp(command: Command): string {
  return `Usage: gatehouse ${command.name} ${command.usage ?? '[options]'}

${command.description}
${command.options ? `\nOptions:\n${command.options}\n` : ''}
Settings (flag or environment variable; flags win):
${describeSettings()}`;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`gatehouse: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  if (!parsed.command) {
    const out = parsed.help ? console.log : console.error;
    out(USAGE);
    return parsed.help ? 0 : 2;
  }
  const command = COMMANDS[parsed.command];
  if (!command) {
    console.error(`gatehouse: unknown command "${parsed.command}"\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    console.log(commandHelp(command));
    return 0;
  }
  try {
    return await command.run({ flags: parsed.flags, positionals: parsed.positionals, env: process.env });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(`gatehouse: ${error.message}`);
      return 2;
    }
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
