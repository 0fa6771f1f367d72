/** Readiness: how long a database is given to answer a trivial query. */

/**
 * How long `ping` waits for the database. Under a second, so readiness answers within the
 * default timeout of a Kubernetes probe (1 s) even when the database does not answer at all.
 */
export const PING_BOUND_MS = 800;

/** Rejects with `unavailable` when `work` has not settled within `ms`; `work` is left to settle alone. */
export async function within<T>(work: Promise<T>, ms: number, unavailable: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function pingTimedOut(): Error {
  return Object.assign(new Error(`the database did not answer within ${PING_BOUND_MS} ms`), { code: 'ETIMEDOUT' });
}
