/**
 * Background work done in rounds (sweeps, sealing, sending what is due), the one loop every such
 * part runs: a round every `intervalMs` of real time, and one soon after `wake` (work was just
 * made on this node); never two at once, and never a backlog of them: a tick or a wake that
 * finds a round running asks for one more after it, no matter how many arrive. A round that fails
 * is reported to `onError` and the loop goes on. `stop` ends the loop and waits for the round in
 * progress.
 */
export interface Rounds {
  wake(): void;
  stop(): Promise<void>;
}

export function runInRounds(round: () => Promise<unknown>, options: { intervalMs: number; onError(error: unknown): void }): Rounds {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  function next(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .then(() => undefined, options.onError)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          next();
        }
      });
  }

  const timer = setInterval(next, options.intervalMs);
  timer.unref();
  return {
    wake: next,
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await running;
    },
  };
}
