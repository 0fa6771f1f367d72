/**
 * Requests that arrive together, handled as one batch: what is submitted while the event loop
 * handles one round of I/O is queued, and once that round is over (`setImmediate`, never a
 * timer) handed to `handle` at most `max` at a time. A request alone is a batch of one. For
 * work whose cost on PostgreSQL is mostly its round trip (a statement written to the socket,
 * parsed, run, its answer read), so that several requests share one.
 */
export function arrivingTogether<T>(handle: (batch: T[]) => void, max: number): (item: T) => void {
  const queue: T[] = [];
  function flush(): void {
    const batch = queue.splice(0, max);
    if (queue.length > 0) setImmediate(flush);
    if (batch.length > 0) handle(batch);
  }
  return (item) => {
    queue.push(item);
    if (queue.length === 1) setImmediate(flush);
  };
}
