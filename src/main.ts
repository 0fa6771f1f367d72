/**
 * The `gatehouse` command: parses the command line, loads the config, runs one command.
 * Commands live in src/cli/; this file only dispatches. A refused command line is exit 2 with
 * one line on standard error; a command that fails is exit 1 (or its own code).
 */
import fs from 'node:fs';
import { COMMANDS, flagsOf } from './cli/commands.ts';
import { ConfigError } from './config.ts';
import { parseCommandLine, UsageError } from './cli/args.ts';
import { commandHelp, usage } from './cli/help.ts';

/** The version of this release, as package.json states it. */
export function version(): string {
  const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv, (name) => (Object.hasOwn(COMMANDS, name) ? flagsOf(COMMANDS[name]!) : undefined));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`gatehouse: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (parsed.version) {
    console.log(`gatehouse ${version()}`);
    return 0;
  }
  const command = parsed.command === undefined ? undefined : COMMANDS[parsed.command];
  if (!command) {
    const out = parsed.help ? console.log : console.error;
    out(usage(Object.values(COMMANDS)));
    return parsed.help ? 0 : 2;
  }
  if (parsed.help) {
    console.log(commandHelp(command));
    return 0;
  }
  try {
    return await command.run({ flags: parsed.flags, env: process.env });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof UsageError) {
      console.error(`gatehouse: ${error.message}`);
      return 2;
    }
    console.error(`gatehouse: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
