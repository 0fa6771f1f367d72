/**
 * The stop signals of a long-running command. The first SIGTERM or SIGINT starts the stop; a
 * second one cuts the shutdown grace short (an operator pressing Ctrl-C twice), while requests
 * in flight are still let finish. Listening starts before the command binds anything, so a
 * signal during start-up is not lost.
 */
export interface StopSignal {
  /** True once a stop signal has arrived. */
  readonly received: boolean;
  /** Resolves with the name of the first signal. */
  readonly first: Promise<NodeJS.Signals>;
  /** Aborted by the second signal. */
  readonly again: AbortSignal;
  /** Stops listening; a later signal has its default effect. */
  dispose(): void;
}

const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export function stopSignal(): StopSignal {
  let received = 0;
  let resolveFirst!: (signal: NodeJS.Signals) => void;
  const first = new Promise<NodeJS.Signals>((resolve) => (resolveFirst = resolve));
  const second = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    received++;
    if (received === 1) resolveFirst(signal);
    else second.abort();
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    get received() {
      return received > 0;
    },
    first,
    again: second.signal,
    dispose() {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}

/**
 * Ends the process `ms` after a long-running command has stopped, with `code`, unless it has
 * ended by itself by then: a handle a library left open (a socket a hung peer holds, a pool
 * still closing after the shutdown timeout) must not keep a stopped node alive. The timer
 * itself keeps nothing alive. Only for `serve` and `worker`: a command writing to a slow pipe
 * must be let finish its output.
 */
export function exitAfterStop(code: number, ms = 2000): void {
  setTimeout(() => process.exit(code), ms).unref();
}
