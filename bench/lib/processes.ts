/** Starts the servers under test as separate processes, so load generation never shares their event loop. */
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface Server {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
  /** Peak resident memory in MiB as seen by /proc, sampled while running. */
  peakRssMiB(): number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs `args` with node and waits until it is ready: a line matching `ready` (whose first
 * group is the URL), or, with `healthUrl`, a 200 from that URL.
 */
export async function startNode(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; ready?: RegExp; onReady?: (match: RegExpExecArray) => void; healthUrl?: string; url?: string; readyTimeoutMs?: number; stdout?: number },
): Promise<Server> {
  // `stdout`: a file descriptor the process writes its standard output to (then `ready` cannot be used).
  const child = spawn(process.execPath, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'] });
  // Sampled from the start: a process may do its measured work before it reports ready.
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      /* process gone */
    }
  }, 250);
  child.once('exit', () => clearInterval(sampler));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = options.ready?.exec(output);
      if (match) {
        options.onReady?.(match);
        resolve(options.url ?? match[1]!);
      }
    };
    if (options.healthUrl) {
      const poll = async () => {
        try {
          if ((await fetch(options.healthUrl!)).ok) return resolve(options.url ?? options.healthUrl!);
        } catch {
          /* not listening yet */
        }
        if (child.exitCode === null) setTimeout(poll, 100);
      };
      void poll();
    }
    child.stdout?.on('data', onData);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before it was ready:\n${output}`)));
    const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
    setTimeout(() => reject(new Error(`not ready after ${readyTimeoutMs / 1000} s:\n${output}`)), readyTimeoutMs).unref();
  });
  child.stdout?.resume();
  child.stderr!.resume();
  return {
    url,
    process: child,
    peakRssMiB: () => Math.round(peak),
    async stop() {
      clearInterval(sampler);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The release of a package installed in the project's node_modules (the one a peer imports). */
export function installedVersion(name: string): string {
  return (JSON.parse(fs.readFileSync(path.join('node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

export interface CeilingServer extends Server {
  /** The fastify release it runs: Gatehouse's own (the same node_modules). */
  fastify: string;
}

/** The fastify hello-world ceiling (bench/peers/hello-fastify.ts), in its own process. */
export async function startCeiling(): Promise<CeilingServer> {
  let fastify = '';
  const server = await startNode(['--import', 'tsx', 'bench/peers/hello-fastify.ts'], {
    ready: /listening (\S+) fastify (\S+)\n/,
    onReady: (match) => (fastify = match[2]!),
  });
  return { ...server, fastify };
}

export interface GatehouseServer extends Server {
  adminUrl: string;
  adminToken: string;
  dataDir: string;
}

/**
 * The secrets key of every Gatehouse the benchmarks start, and of the seeding that writes into
 * their databases before they start: PostgreSQL requires one, and one key on both databases
 * keeps the runs alike.
 */
export const BENCH_SECRETS_KEY = createHash('sha256').update('gatehouse benchmarks: secrets key').digest('base64');

/** With BENCH_PROFILE_DIR=<dir>, each Gatehouse process writes a V8 CPU profile there when it stops. */
export function profileFlags(): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

/** A real `gatehouse serve` on a fresh data dir (SQLite) or the given database URL. */
export async function startGatehouse(options: { databaseUrl?: string; env?: NodeJS.ProcessEnv; stdout?: number } = {}): Promise<GatehouseServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-'));
  const [port, adminPort] = [await freePort(), await freePort()];
  const adminToken = 'bench-admin-token-0123456789abcdef';
  const server = await startNode([...profileFlags(), 'bin/gatehouse.js', 'serve'], {
    env: {
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_PORT: String(port),
      GATEHOUSE_ADMIN_PORT: String(adminPort),
      GATEHOUSE_HOST: '127.0.0.1',
      GATEHOUSE_ISSUER: `http://127.0.0.1:${port}`,
      GATEHOUSE_ADMIN_TOKEN: adminToken,
      GATEHOUSE_LOG_LEVEL: 'warn',
      GATEHOUSE_RATE_LIMITS: 'off',
      // No balancer to drain away from: stop at once.
      GATEHOUSE_SHUTDOWN_GRACE: '0',
      GATEHOUSE_SECRETS_KEY: BENCH_SECRETS_KEY,
      ...(options.databaseUrl ? { GATEHOUSE_DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    healthUrl: `http://127.0.0.1:${port}/readyz`,
    url: `http://127.0.0.1:${port}`,
    stdout: options.stdout,
  });
  return {
    ...server,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    adminToken,
    dataDir,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
