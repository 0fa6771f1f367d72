/**
 * A Redis server of a test's own on a free port (nothing saved to disk), for tests that stop
 * or freeze it: never the machine's shared one. `redisServerMissing()` says why there is none
 * when redis-server is not installed, so a suite can skip visibly.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './processes.ts';
import { until } from './until.ts';
import net from 'node:net';

export interface ThrowawayRedis {
  url: string;
  /** Stops the process where it stands (SIGSTOP): connections stay open and nothing answers. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
  close(): Promise<void>;
}

export function redisServerMissing(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'redis-server not found; install redis-server';
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until(() => answersPing(port), 10_000, `redis-server on port ${port}`);
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
