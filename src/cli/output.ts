/**
 * The file an export writes (`--out`): mode 0600, since it holds what the database holds; a file
 * that was there is truncated and given that mode before anything is written to it. A path that cannot be written fails the command with one line naming it, before anything
 * is written, instead of an unhandled stream error and its stack.
 */
import fs from 'node:fs';
import { once } from 'node:events';

export async function openOutput(out: string, command: string): Promise<fs.WriteStream> {
  const stream = fs.createWriteStream(out, { mode: 0o600 });
  try {
    const [fd] = (await once(stream, 'open')) as [number];
    fs.fchmodSync(fd, 0o600);
  } catch (error) {
    throw new Error(`${command}: cannot write --out ${out}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return stream;
}
