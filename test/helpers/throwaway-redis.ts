/**
 * A Redis server of a test's own on a free port (nothing saved to disk), for tests that stop
 * or freeze it: never the machine's shared one. `redisServerMissing()` says why there is none
 * when redis-server is not installed, so a suite can skip visibly.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort, PortInUse, retryWhilePortTaken } from './processes.ts';
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

/** True once the server listening on `port` is process `pid` (another may hold the port). */
function answersAs(port: number, pid: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (data) => {
      text += data.toString();
      if (!/\r\nprocess_id:\d+\r\n/.test(text)) return;
      socket.destroy();
      resolve(text.includes(`\r\nprocess_id:${pid}\r\n`));
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

export async function startThrowawayRedis(): Promise<ThrowawayRedis> {
  // redis-server cannot be told to pick its own port (0 turns TCP off), so a port found free is
  // given; another socket may take it first. Then the server exits, and a new one is chosen.
  return retryWhilePortTaken(async () => startOn(await freePort()));
}

/** The server on `port`; PortInUse when it exited before answering (its port was taken). */
async function startOn(port: number): Promise<ThrowawayRedis> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  await until(async () => gone || (await answersAs(port, child.pid!)), 10_000, `redis-server on port ${port}`);
  if (gone) throw new PortInUse(`redis-server exited at start on port ${port} (the port was taken)`);
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
