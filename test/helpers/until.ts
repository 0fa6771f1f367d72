/**
 * Waits for a condition a test cannot be told about (another process's output, a state a real
 * server reaches on the real clock), polling; fails naming what it waited for.
 */
export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
