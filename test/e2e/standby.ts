/**
 * Restarts without the cost of loading: a standby `serve` process is spawned with its settings
 * while the current node still runs, and is told to start once the current node is dead
 * (test/e2e/standby-boot.ts). It listens on ports the system picks when it starts (port 0) and
 * is found by its start-up log line: a port reserved at spawn time could be taken by another
 * socket in the seconds a standby waits.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnedNodeEnv, type SpawnedGatehouse } from '../helpers/processes.ts';

const BOOT = path.resolve('test/e2e/standby-boot.ts');

export interface StandbyGatehouse {
  /** Starts `serve` in the loaded process and resolves once it answers /readyz. */
  activate(): Promise<SpawnedGatehouse>;
  /** Ends a standby that was never started. */
  discard(): Promise<void>;
}

export async function standbyGatehouse(options: { databaseUrl: string; env?: Record<string, string> }): Promise<StandbyGatehouse> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-node-'));
  const child = spawn(process.execPath, ['--import', 'tsx', BOOT], {
    env: {
      ...spawnedNodeEnv({ databaseUrl: options.databaseUrl, dataDir, port: 0, adminPort: 0 }),
      GATEHOUSE_ISSUER: 'http://127.0.0.1',
      // The start-up line that names the listeners is logged at info.
      GATEHOUSE_LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  const loaded = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d;
      if (output.includes('gatehouse loaded')) resolve();
    });
    child.stderr!.on('data', (d: Buffer) => (output += d));
    void exited.then(() => reject(new Error(`standby exited while loading:\n${output}`)));
  });
  await loaded;
  const node: SpawnedGatehouse = {
    url: '',
    adminUrl: '',
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return {
    discard: () => node.stop(),
    async activate() {
      child.stdin!.end('start\n');
      for (const deadline = Date.now() + 30_000; ; ) {
        if (Date.now() > deadline) throw new Error(`gatehouse not ready after 30 s:\n${output}`);
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`gatehouse exited before it was ready:\n${output}`);
        const listening = /gatehouse listening on (\S+) \(admin (\S+)\)/.exec(output);
        if (listening) [node.url, node.adminUrl] = [listening[1]!, listening[2]!];
        try {
          if (node.url && (await fetch(`${node.url}/readyz`)).ok) return node;
        } catch {
          /* not listening yet */
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
