/**
 * The command line of every command, parsed as `gatehouse` parses it: a command takes exactly
 * the flags of the settings it reads and its own options, and refuses anything else (an
 * unknown or misspelt flag, a flag of a setting it does not read, a stray argument, a flag
 * without its value) with one message naming each, so that a typo never starts a process on
 * a default.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine, UsageError } from '../../src/cli/args.ts';
import { COMMANDS, flagsOf } from '../../src/cli/commands.ts';
import { commandHelp } from '../../src/cli/help.ts';
import { SETTINGS } from '../../src/config.ts';

const parse = (argv: string[]) => parseCommandLine(argv, (name) => (Object.hasOwn(COMMANDS, name) ? flagsOf(COMMANDS[name]!) : undefined));

function refusal(argv: string[]): string {
  try {
    parse(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError);
    assert.ok(!error.message.includes('\n'), 'one line');
    return error.message;
  }
  assert.fail(`${argv.join(' ')} was accepted`);
}

describe('command line', () => {
  for (const command of Object.values(COMMANDS)) {
    it(`${command.name}: a misspelt flag and a stray argument are refused, each named`, () => {
      assert.equal(
        refusal([command.name, '--prot', '38096', 'stray']),
        `${command.name}: unknown option --prot; unexpected argument "stray" (gatehouse ${command.name} --help lists what it takes)`,
      );
      assert.match(refusal([command.name, '--prot=38096']), /unknown option --prot/);
      assert.match(refusal([command.name, '-x']), /unknown option -x/);
    });

    it(`${command.name}: takes the flag of every setting it reads, with a value, and of no other setting`, () => {
      for (const setting of SETTINGS) {
        const argv = [command.name, setting.flag, 'value'];
        if (command.settings.includes(setting.key)) {
          assert.equal(parse(argv).flags[setting.flag], 'value');
          assert.equal(parse([command.name, `${setting.flag}=a=b`]).flags[setting.flag], 'a=b');
          assert.match(refusal([command.name, setting.flag]), new RegExp(`${setting.flag} needs a value`));
        } else {
          assert.match(refusal(argv), new RegExp(`unknown option ${setting.flag}\\b`));
        }
      }
    });

    it(`${command.name}: --help lists exactly the settings it reads`, () => {
      const listed = [...commandHelp(command).matchAll(/^ {2}(--[a-z-]+), GATEHOUSE_/gm)].map((m) => m[1]);
      assert.deepEqual(listed, SETTINGS.filter((s) => command.settings.includes(s.key)).map((s) => s.flag));
    });
  }

  it('every setting is read by some command', () => {
    const read = new Set(Object.values(COMMANDS).flatMap((c) => c.settings));
    assert.deepEqual(SETTINGS.filter((s) => !read.has(s.key)).map((s) => s.env), []);
  });

  it('options of a command: a value where one is taken ("-" included), none where none is', () => {
    assert.deepEqual(parse(['export', '--out', '-']).flags, { '--out': '-' });
    assert.deepEqual(parse(['import', '--replace', '--in', 'x.ndjson']).flags, { '--replace': 'true', '--in': 'x.ndjson' });
    assert.match(refusal(['import', '--replace=yes']), /--replace takes no value/);
    assert.match(refusal(['import', '--in']), /--in needs a value/);
    assert.match(refusal(['migrate', '--out', 'x']), /unknown option --out/);
  });

  it('flags come after the command; --help and --version go anywhere and win', () => {
    assert.match(refusal(['--port', '8080', 'serve']), /^serve: --port must come after the command/);
    assert.match(refusal(['frobnicate']), /^unknown command "frobnicate"/);
    assert.equal(parse(['serve', '--prot', '1', '--help']).help, true);
    assert.equal(parse(['-v']).version, true);
    assert.deepEqual(parse([]), { command: undefined, help: false, version: false, flags: {} });
  });
});
