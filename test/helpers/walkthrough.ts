/**
 * Runs the walk-throughs of docs/ as a newcomer runs them: every ```sh block of each page, in
 * the pages' order, in one bash session (so what one step sets, the next uses), in a directory
 * of its own where `gatehouse serve` keeps its `data/`. Generic by design: a page's new blocks
 * run without the runner knowing them.
 *
 * What a newcomer does besides typing the blocks, the runner does too:
 * - a block that ends in `npm start` (optionally preceded by `NAME=value \` lines) (re)starts
 *   the server with those settings, on the same addresses and database;
 * - a ```js block after "Save as `file`" is saved as that file;
 * - a step that needs a person (a sign-in in a browser) is given by the test as a hook that
 *   runs after the block it follows;
 * - the shell has GATEHOUSE_DATABASE_URL set to the run's database, as a person's shell has it
 *   (a page may reach the database with sqlite3 or psql).
 *
 * Only addresses change: the pages say :8080, :8081 and :4000, the run uses free ports. They are
 * kept for the whole run (a restarted server, a receiver started later, keep the addresses the
 * session already uses), so they are taken from below the system's ephemeral range: a port the
 * system hands out for port 0 or an outgoing connection could otherwise land on one of them
 * between the moment it was chosen and the moment the server or the receiver binds it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixedPort, retryWhilePortTaken, spawnGatehouse, type SpawnedGatehouse } from './processes.ts';
import { until } from './until.ts';
import { secretsKeyEnvFor } from './databases.ts';

export interface Block {
  page: string;
  /** 1-based among the page's runnable blocks. */
  index: number;
  lang: 'sh' | 'js';
  text: string;
  /** For a js block: the file the page says to save it as. */
  saveAs?: string;
}

/** The runnable blocks of a page, in order: every ```sh block, and every ```js block the page says to save. */
export function blocksOf(page: string): Block[] {
  const text = fs.readFileSync(path.join('docs', page), 'utf8');
  const blocks: Block[] = [];
  for (const match of text.matchAll(/^[ \t]*```(sh|js)\n([\s\S]*?)^[ \t]*```/gm)) {
    const lang = match[1] as 'sh' | 'js';
    const before = text.slice(Math.max(0, match.index - 400), match.index);
    const saveAs = lang === 'js' ? /Save as `([^`]+)`[^`]*$/.exec(before)?.[1] : undefined;
    if (lang === 'js' && saveAs === undefined) continue; // a snippet to read, not a step
    blocks.push({ page, index: blocks.length + 1, lang, text: dedent(match[2]!), saveAs });
  }
  return blocks;
}

function dedent(text: string): string {
  const indent = Math.min(...text.split('\n').filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return text
    .split('\n')
    .map((l) => l.slice(indent))
    .join('\n');
}

/** `NAME=value \` lines before a final `npm start`, or undefined when the block starts no server. */
export function serverStart(block: Block): Record<string, string> | undefined {
  const lines = block.text.trim().split('\n');
  if (block.lang !== 'sh' || lines.at(-1)!.trim() !== 'npm start') return undefined;
  const env: Record<string, string> = {};
  for (const line of lines.slice(0, -1)) {
    const assignment = /^([A-Z_][A-Z0-9_]*)=(\S+)\s*\\$/.exec(line.trim());
    if (!assignment) throw new Error(`${block.page}: cannot read the server settings line ${JSON.stringify(line)}`);
    env[assignment[1]!] = assignment[2]!;
  }
  return env;
}

export interface BlockRun {
  block: Block;
  output: string;
}

/** After `block` ran: what a person does next (sign in, watch a receiver), given the run so far. */
export type PersonStep = {
  page: string;
  after: RegExp;
  run: (walk: Walkthrough, output: string) => Promise<void>;
};

export class Walkthrough {
  readonly dir: string;
  readonly runs: BlockRun[] = [];
  gatehouse!: SpawnedGatehouse;
  #shell!: ChildProcess;
  #stdout = '';
  #stderr = '';
  #ports!: { port: number; adminPort: number; receiver: number };
  #count = 0;

  constructor(readonly databaseUrl: (dataDir: string) => string) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-walkthrough-'));
  }

  /** Everything the shell and its background jobs printed so far. */
  get stdout(): string {
    return this.#stdout;
  }

  /** A fresh start: an empty data directory and database, the server started as `npm start` does. */
  async start(): Promise<void> {
    const dataDir = path.join(this.dir, 'data');
    fs.mkdirSync(dataDir);
    // Packages a saved snippet imports resolve as they would in the repository.
    fs.symlinkSync(path.resolve('node_modules'), path.join(this.dir, 'node_modules'));
    // Another run (of another checkout) may hold a port chosen here: then the server says so and
    // new ones are chosen.
    await retryWhilePortTaken(async () => {
      this.#ports = { port: await fixedPort(), adminPort: await fixedPort(), receiver: await fixedPort() };
      await this.#startServer({});
    });
    this.#shell = spawn('bash', [], {
      cwd: this.dir,
      detached: true, // its own process group: the receivers it starts end with it
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PATH: `${toolsDir(this.dir, dataDir, this.databaseUrl(dataDir))}:${process.env.PATH}`,
        // As in the shell of a person running Gatehouse on a database other than the default
        // file: a page that reaches the database with its own client (sqlite3, psql) reads it here.
        GATEHOUSE_DATABASE_URL: this.databaseUrl(dataDir),
        // And, on PostgreSQL, the secrets key its nodes and commands are given.
        ...secretsKeyEnvFor(this.databaseUrl(dataDir)),
      },
    });
    this.#shell.stdout!.on('data', (chunk: Buffer) => (this.#stdout += chunk.toString('utf8')));
    this.#shell.stderr!.on('data', (chunk: Buffer) => (this.#stderr += chunk.toString('utf8')));
    this.#shell.stdin!.write('set -u\n');
  }

  async #startServer(settings: Record<string, string>): Promise<void> {
    await this.gatehouse?.stop();
    const dataDir = path.join(this.dir, 'data');
    this.gatehouse = await spawnGatehouse({
      databaseUrl: this.databaseUrl(dataDir),
      ports: this.#ports,
      env: {
        GATEHOUSE_DATA_DIR: dataDir,
        // As `npm start`: the admin token is generated on first start into data/admin-token, and
        // the background work runs in the process.
        GATEHOUSE_ADMIN_TOKEN: undefined,
        GATEHOUSE_IN_PROCESS_WORKERS: 'on',
        ...settings,
      },
    });
  }

  /** The page's text with the pages' addresses replaced by the run's. */
  localise(text: string): string {
    return text
      .replaceAll('http://localhost:8080', this.gatehouse.url)
      .replaceAll('http://127.0.0.1:8081', this.gatehouse.adminUrl)
      .replaceAll('127.0.0.1:4000', `127.0.0.1:${this.#ports.receiver}`)
      .replaceAll('.listen(4000,', `.listen(${this.#ports.receiver},`)
      .replaceAll('npx gatehouse ', 'gatehouse ');
  }

  /** Runs the pages in order; `steps` are what a person does between blocks. */
  async runPages(pages: string[], steps: PersonStep[] = []): Promise<void> {
    for (const page of pages) {
      for (const block of blocksOf(page)) {
        const output = await this.#runBlock(block);
        this.runs.push({ block, output });
        for (const step of steps) {
          if (step.page === page && step.after.test(block.text)) await step.run(this, output);
        }
      }
    }
  }

  async #runBlock(block: Block): Promise<string> {
    if (block.saveAs) {
      fs.writeFileSync(path.join(this.dir, block.saveAs), this.localise(block.text));
      return '';
    }
    const settings = serverStart(block);
    if (settings) {
      await this.#startServer(settings);
      return '';
    }
    return this.shell(this.localise(block.text), `${block.page} block ${block.index}`);
  }

  /**
   * Runs `script` in the session (from a file, with stdin closed, so no command in it can read
   * the rest of the session) and answers what it printed. A failing command does not stop the
   * walk-through, as it would not stop a person; an unset variable ends the session (set -u).
   */
  async shell(script: string, label = 'step'): Promise<string> {
    const n = ++this.#count;
    const file = path.join(this.dir, `.step-${n}.sh`);
    fs.writeFileSync(file, script);
    const begin = `\n::begin ${n} ${label}\n`;
    const end = `\n::end ${n}\n`;
    this.#shell.stdin!.write(`printf '${begin.replaceAll('\n', '\\n')}'\n. ${file} </dev/null\nprintf '${end.replaceAll('\n', '\\n')}'\n`);
    await until(
      () => {
        if (this.#shell.exitCode !== null) throw new Error(`the shell ended during ${label}:\n${this.#stderr}\n${this.#stdout.slice(-2000)}`);
        return this.#stdout.includes(end);
      },
      120_000,
      `${label} to finish`,
    );
    return this.#stdout.slice(this.#stdout.indexOf(begin) + begin.length, this.#stdout.indexOf(end));
  }

  /** The value of a shell variable the walk-through set. */
  async variable(name: string): Promise<string> {
    return this.shell(`printf %s "$${name}"`, `read $${name}`);
  }

  /** The output of the first block of `page` whose text includes `needle`. */
  output(page: string, needle: string): string {
    const run = this.runs.find((r) => r.block.page === page && r.block.text.includes(needle));
    if (!run) throw new Error(`${page} has no block with ${JSON.stringify(needle)}`);
    return run.output;
  }

  async stop(): Promise<void> {
    const shell = this.#shell;
    if (shell?.pid !== undefined && shell.exitCode === null) {
      const ended = new Promise((resolve) => shell.once('exit', resolve));
      process.kill(-shell.pid, 'SIGTERM');
      await ended;
    }
    await this.gatehouse?.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The tools the pages list, where the machine lacks them: a uuidgen stand-in printing a random
 * UUID; and `gatehouse`, the command an installation puts on PATH, working on the run's database.
 */
function toolsDir(dir: string, dataDir: string, databaseUrl: string): string {
  const tools = path.join(dir, '.tools');
  fs.mkdirSync(tools);
  if (spawnSync('sh', ['-c', 'command -v uuidgen']).status !== 0) {
    fs.writeFileSync(path.join(tools, 'uuidgen'), `#!/bin/sh\nexec "${process.execPath}" -e 'console.log(crypto.randomUUID())'\n`, { mode: 0o755 });
  }
  const bin = path.resolve('bin/gatehouse.js');
  fs.writeFileSync(
    path.join(tools, 'gatehouse'),
    `#!/bin/sh\nGATEHOUSE_DATA_DIR='${dataDir}' GATEHOUSE_DATABASE_URL='${databaseUrl}' exec "${process.execPath}" '${bin}' "$@"\n`,
    { mode: 0o755 },
  );
  return tools;
}
