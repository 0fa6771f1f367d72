/**
 * Load generation in a process of its own: `loadInProcess(options)` runs lib/load.ts's `load` in a
 * child node process and returns its figures. Two loads run at the same time this way do not share
 * an event loop, so neither generator slows the other's requests.
 */
import { spawn } from 'node:child_process';
import { load, type LoadOptions, type LoadResult } from './load.ts';

const CHILD_FLAG = '--bench-load-child';

export function loadInProcess(options: Omit<LoadOptions, 'setupRequest'>): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/load-process.ts', CHILD_FLAG, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load process exited (${code}): ${output}`));
      resolve(JSON.parse(output) as LoadResult);
    });
  });
}

if (process.argv[2] === CHILD_FLAG) {
  const result = await load(JSON.parse(process.argv[3]!) as LoadOptions);
  process.stdout.write(JSON.stringify(result));
}
