/**
 * A PostgreSQL cluster of a test's own (initdb and pg_ctl in a temporary directory, on a free
 * port), for tests that stop, restart or cut the database: never the machine's shared one.
 * As root the cluster runs as the `postgres` user (initdb refuses root). When the server's
 * binaries are not installed, `postgresBinaries()` says why, so a suite can skip visibly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DatabaseTarget } from './databases.ts';
import { fixedPort, PortInUse, retryWhilePortTaken } from './processes.ts';

export interface ThrowawayPostgres {
  port: number;
  /** URL of database `name` (default `postgres`) as the `postgres` superuser, trust auth. */
  url(name?: string): string;
  /** A database target (see databases.ts) whose databases live in this cluster. */
  target(): DatabaseTarget;
  /** Stops the server: `fast` ends sessions cleanly, `immediate` as a crash does (recovery at the next start). */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops every process of the server where it stands (SIGSTOP): connections stay open and nothing answers. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
  /** Ends every session on database `name` but the caller's own; returns how many were ended. */
  terminateSessions(name: string): Promise<number>;
  close(): Promise<void>;
}

/** The directory holding initdb, pg_ctl and postgres, or why there is none. */
export function postgresBinaries(): { dir: string } | { missing: string } {
  const candidates = [
    ...(process.env.PG_BIN_DIR ? [process.env.PG_BIN_DIR] : []),
    ...listVersions('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`),
    ...(process.env.PATH ?? '').split(path.delimiter),
  ];
  const dir = candidates.find((d) => d && fs.existsSync(path.join(d, 'initdb')) && fs.existsSync(path.join(d, 'pg_ctl')));
  return dir ? { dir } : { missing: 'PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql or set PG_BIN_DIR' };
}

function listVersions(root: string): string[] {
  try {
    return fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

/** How to run the server's commands: as `postgres` when this process is root. */
function runner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root and there is no postgres user to run a throwaway cluster as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const found = postgresBinaries();
  if ('missing' in found) throw new Error(found.missing);
  const bin = (name: string) => path.join(found.dir, name);
  const user = runner();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-pg-'));
  const data = path.join(dir, 'data');
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const run = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { uid: user?.uid, gid: user?.gid, encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${path.basename(command)} failed: ${result.stderr || result.stdout || result.error}`);
  };
  run(bin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // The server is stopped and killed, never the machine: what it wrote to the operating system
  // survives, so it may skip flushing to disk. Commits stay synchronous (its WAL is written
  // before a commit is acknowledged), so an immediate stop loses nothing acknowledged.
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'full_page_writes = off',
      'max_connections = 200',
      'shared_buffers = 32MB',
      '',
    ].join('\n'),
  );
  const log = path.join(dir, 'server.log');
  const start = async () => run(bin('pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '30', 'start']);
  const stop = async (mode: 'fast' | 'immediate') => run(bin('pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
  // PostgreSQL cannot be told to pick its own port, so a port found free is given, one that a
  // restart keeps (fixedPort). Another process may take it first: then the server does not
  // start, its log says why, and a new one is chosen (the file's last `port` line counts).
  const port = await retryWhilePortTaken(async () => {
    const chosen = await fixedPort();
    fs.appendFileSync(path.join(data, 'postgresql.conf'), `port = ${chosen}\n`);
    const logged = fs.existsSync(log) ? fs.statSync(log).size : 0;
    try {
      await start();
      return chosen;
    } catch (error) {
      const said = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(logged) : '';
      throw /could not bind .*Address already in use/.test(said) ? new PortInUse((error as Error).message) : error;
    }
  });
  const url = (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`;
  async function admin<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], database = 'postgres'): Promise<R[]> {
    const client = new pg.Client({ connectionString: url(database) });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end().catch(() => {});
    }
  }
  /** The server's processes: the postmaster (first line of postmaster.pid) and its children. */
  const serverProcesses = (): number[] => {
    const postmaster = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' }).stdout;
    return [postmaster, ...children.split('\n').map((l) => Number(l.trim())).filter((pid) => pid > 0)];
  };
  const signalServer = (signal: NodeJS.Signals) => {
    for (const pid of serverProcesses()) {
      try {
        process.kill(pid, signal);
      } catch {
        /* a backend that has just ended */
      }
    }
  };
  let closed = false;
  return {
    port,
    url,
    target: () => ({
      kind: 'postgres',
      async create() {
        const name = `gatehouse_t_${randomBytes(6).toString('hex')}`;
        await admin(`create database ${name} template template0`);
        return { url: url(name), drop: () => admin(`drop database if exists ${name} with (force)`).then(() => {}) };
      },
    }),
    stop,
    start,
    freeze: () => signalServer('SIGSTOP'),
    thaw: () => signalServer('SIGCONT'),
    async terminateSessions(name) {
      const rows = await admin<{ ended: boolean }>(
        'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      return rows.filter((r) => r.ended).length;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        signalServer('SIGCONT');
      } catch {
        /* not running */
      }
      try {
        execFileSync(bin('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], { uid: user?.uid, gid: user?.gid, stdio: 'ignore' });
      } catch {
        /* already stopped */
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
