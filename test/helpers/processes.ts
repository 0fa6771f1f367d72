/** `gatehouse serve` (or `worker`) as a real child process, for tests that need several nodes or a real kill -9. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { until } from './until.ts';
import { secretsKeyEnvFor } from './databases.ts';

const BIN = path.resolve('bin/gatehouse.js');

export interface SpawnedGatehouse {
  url: string;
  /** The admin listener (serve) or the metrics listener (worker). */
  adminUrl: string;
  child: ChildProcess;
  /** Resolves when the process has ended, with how it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  stop(): Promise<void>;
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
 * A port free now, between 10000 and the start of the system's ephemeral range, for a server
 * that must keep its port across restarts: the system hands out no port there (neither for
 * port 0 nor for an outgoing connection), so only a process asking for it by number can take it
 * while the server is down. Another such process may still have it: starts retry on EADDRINUSE.
 */
export async function fixedPort(): Promise<number> {
  let ephemeralStart = 32_768; // Linux's default
  try {
    ephemeralStart = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    /* not Linux: its default */
  }
  const top = ephemeralStart > 11_000 ? ephemeralStart : 32_768;
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (top - 10_000));
    if (await bindable(port)) return port;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The environment of a Gatehouse process a test spawns: its own data dir, ports and issuer, quiet logs. */
export function spawnedNodeEnv(node: { databaseUrl: string; dataDir: string; port: number; adminPort: number }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    GATEHOUSE_DATABASE_URL: node.databaseUrl,
    GATEHOUSE_DATA_DIR: node.dataDir,
    GATEHOUSE_HOST: '127.0.0.1',
    GATEHOUSE_PORT: String(node.port),
    GATEHOUSE_ADMIN_PORT: String(node.adminPort),
    GATEHOUSE_ISSUER: `http://127.0.0.1:${node.port}`,
    GATEHOUSE_ADMIN_TOKEN: 'spawned-admin-token-0123456789abcdef',
    GATEHOUSE_LOG_LEVEL: 'warn',
    GATEHOUSE_RATE_LIMITS: 'off',
    // No balancer to drain away from unless a test puts one in front: stop at once.
    GATEHOUSE_SHUTDOWN_GRACE: '0',
    ...secretsKeyEnvFor(node.databaseUrl),
  };
}

/**
 * `env` is laid over the test environment; a variable given as undefined is left unset. `ports`
 * keeps a restarted node on the addresses its clients already use.
 */
export async function spawnGatehouse(options: SpawnOptions): Promise<SpawnedGatehouse> {
  if (options.ports) return spawnOn(options, options.ports);
  // The issuer must name the public port, so the ports are chosen before the start; another
  // socket may take one of them first. Then the process says so and exits, and new ones are chosen.
  return retryWhilePortTaken(async () => spawnOn(options, { port: await freePort(), adminPort: await freePort() }));
}

export interface SpawnOptions {
  databaseUrl: string;
  env?: Record<string, string | undefined>;
  command?: 'serve' | 'worker';
  ports?: { port: number; adminPort: number };
}

/** A start that failed only because a port it was given was taken (the server's own output says so). */
export class PortInUse extends Error {
  override name = 'PortInUse';
}

/**
 * For a server that must be given its ports (it cannot bind port 0 and say which it got):
 * `start` chooses them afresh and starts it, and is run again, up to five times in all, while
 * it fails with PortInUse (`taken`), since another socket may take a chosen port first.
 */
export async function retryWhilePortTaken<T>(start: () => Promise<T>, taken: (error: unknown) => boolean = (error) => error instanceof PortInUse): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (!taken(error) || attempt === 5) throw error;
    }
  }
}

async function spawnOn(options: SpawnOptions, ports: { port: number; adminPort: number }): Promise<SpawnedGatehouse> {
  const command = options.command ?? 'serve';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-node-'));
  const { port, adminPort } = ports;
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [BIN, command], {
    env: {
      ...spawnedNodeEnv({ databaseUrl: options.databaseUrl, dataDir, port, adminPort }),
      GATEHOUSE_IN_PROCESS_WORKERS: 'off',
      // A worker has no public listener; it serves /readyz and /metrics on this port instead.
      ...(command === 'worker' ? { GATEHOUSE_WORKER_METRICS_PORT: String(adminPort) } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  // Wait for readiness (start-up, not time passing): /readyz answers 200 once it serves.
  const readyz = `${command === 'worker' ? `http://127.0.0.1:${adminPort}` : url}/readyz`;
  const ready = async () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`gatehouse exited before it was ready:\n${output}`);
    return fetch(readyz).then(
      (response) => response.ok,
      () => false, // not listening yet
    );
  };
  await until(ready, 60_000, 'readiness (/readyz 200)').catch(async (error: unknown) => {
    // A node that never became ready must not outlive the test that started it.
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    const { code } = await exited;
    const message = `${(error as Error).message}:\n${output}`;
    throw code === 1 && /^gatehouse: GATEHOUSE_[A-Z_]*PORT: \S+ is already in use$/m.test(output) ? new PortInUse(message) : new Error(message);
  });
  return {
    url,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * A `gatehouse` command run to its end (e.g. a start expected to fail), on the given ports,
 * killed after `timeoutMs` if it has not ended by then (then `signal` is SIGKILL).
 */
export async function runToExit(options: {
  command: 'serve' | 'worker';
  databaseUrl: string;
  port: number;
  adminPort: number;
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<Finished> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-node-'));
  const child = spawn(process.execPath, [BIN, options.command], {
    env: { ...spawnedNodeEnv({ databaseUrl: options.databaseUrl, dataDir, port: options.port, adminPort: options.adminPort }), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  // 'close', not 'exit': the output is read to its end.
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  clearTimeout(killer);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { code, signal, stdout, stderr };
}
