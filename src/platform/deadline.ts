/**
 * Waiting with a bound, in real time (shutdown deadlines are the operator's seconds, not the
 * injected clock's): a wait that outlives its bound is given up, never the process.
 */

/** True when `promise` settles (either way) within `ms`; the timer never outlives the wait. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, ms))));
  try {
    return await Promise.race([promise.then(() => true, () => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
