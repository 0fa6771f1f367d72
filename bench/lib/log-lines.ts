/** Counting the request lines a server wrote to its log file. */
import fs from 'node:fs';

/** Request lines in a log file, read in chunks (the file holds millions of lines). */
export function requestLines(file: string): number {
  const fd = fs.openSync(file, 'r');
  const buffer = Buffer.alloc(1 << 20);
  const marker = Buffer.from('"msg":"request"');
  let count = 0;
  let carry = Buffer.alloc(0);
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      const chunk = Buffer.concat([carry, buffer.subarray(0, read)]);
      for (let at = chunk.indexOf(marker); at >= 0; at = chunk.indexOf(marker, at + marker.length)) count++;
      carry = Buffer.from(chunk.subarray(Math.max(0, chunk.length - marker.length + 1)));
    }
  } finally {
    fs.closeSync(fd);
  }
  return count;
}
