/**
 * What the pg clients of this process send: counting round trips is how a test holds a write path
 * to its number of statements, whichever pool connection each one takes.
 */
import pg from 'pg';

export interface SentStatement {
  client: pg.Client;
  text: string;
}

/** The statements pg clients of this process send while `work` runs, in the order sent. */
export async function statementsSentDuring(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const sent: SentStatement[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    sent.push({ client: this, text: typeof config === 'string' ? config : (config.text ?? '') });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}
