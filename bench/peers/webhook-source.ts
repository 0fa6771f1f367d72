// A Gatehouse node with its in-process dispatcher, raising events the way business code does
// (recordEvent inside a committed transaction) and reporting when each was committed.
//   phase "burst": WARMUP events delivered untimed, then EVENTS events committed in one
//     transaction, so the drain measures delivery alone from that commit (written as "__start");
//     the instant every acknowledgement is recorded (not only received) goes to ACKED_FILE, with
//     the CPU time per delivery that this process, the receiver (RECEIVER_PID) and PostgreSQL's
//     server processes spent over the drain;
//   phase "paced": PACED events, one per transaction, at PACED_RATE per second.
// Writes {eventId: epochMs of commit} to COMMITS_FILE (after the drain in phase "burst", so that
// nothing but delivery runs during it), then prints "raised <n>".
import fs from 'node:fs';
import { loadConfig } from '../../src/config.ts';
import { createGatehouse } from '../../src/app.ts';
import { recordEvent } from '../../src/events/outbox.ts';
import { cpuMicros } from '../lib/load.ts';

const env = process.env;
const config = loadConfig({ ...env, GATEHOUSE_PORT: '0', GATEHOUSE_ADMIN_PORT: '0', GATEHOUSE_IN_PROCESS_WORKERS: env.PHASE === 'burst' ? 'off' : 'on', GATEHOUSE_LOG_LEVEL: 'warn' });
const gatehouse = await createGatehouse(config);
// Listening is what starts the in-process dispatcher (background work waits for the listeners).
await gatehouse.listen();
const { db } = gatehouse.database;
const account = await gatehouse.services.accounts.create({ name: 'bench' });
await db.transaction().execute((trx) => gatehouse.services.webhooks.endpoints.create(trx, account.id, { url: env.RECEIVER_URL!, event_types: ['*'] }));

/** Raises `n` events in one transaction; their ids and the instant it committed. */
async function raise(n: number): Promise<{ ids: string[]; committed: number }> {
  const ids = await db.transaction().execute(async (trx) => {
    const raised: string[] = [];
    for (let i = 0; i < n; i++) {
      const at = Date.now();
      raised.push((await recordEvent(trx, { accountId: account.id, type: 'invoice.settled', object: 'invoice', objectId: `inv_${i}`, state: 'settled', data: { id: `inv_${i}`, object: 'invoice', state: 'settled' }, at })).id);
    }
    return raised;
  });
  return { ids, committed: Date.now() };
}

/** {eventId: epochMs of its commit}, for COMMITS_FILE. */
const commits: Record<string, number> = {};

function noteCommits(raised: { ids: string[]; committed: number }): void {
  for (const id of raised.ids) commits[id] = raised.committed;
}

/** When the dispatcher has recorded `n` acknowledgements (its own counter, read in memory). */
async function recordedAll(n: number): Promise<number> {
  const attempts = gatehouse.metrics.counter('gatehouse_webhook_attempts_total', '', ['outcome']);
  const succeeded = async () => (await attempts.get()).values.find((v) => v.labels.outcome === 'succeeded')?.value ?? 0;
  while ((await succeeded()) < n) await new Promise((r) => setTimeout(r, 5));
  return Date.now();
}

/**
 * CPU time (µs) used so far by this process, the receiver and every PostgreSQL server process
 * (0 on SQLite): on a machine of few cores they share it, so it bounds what a drain can reach.
 */
function drainCpu(): { gatehouse: number; receiver: number; postgres: number } {
  const own = process.cpuUsage();
  let postgres = 0;
  if (!config.databaseUrl.startsWith('sqlite:')) {
    for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgres += cpuMicros(Number(pid));
      } catch {
        // gone meanwhile, or not ours to read
      }
    }
  }
  return { gatehouse: own.user + own.system, receiver: cpuMicros(Number(env.RECEIVER_PID)), postgres };
}

const phase = env.PHASE ?? 'burst';
if (phase === 'burst') {
  // Untimed warm-up, as the reference loop has: the first deliveries of a process run cold.
  const warmUp = Number(env.WARMUP ?? 0);
  for (let done = 0; done < warmUp; done += 100) await raise(100);
  await gatehouse.services.webhooks.dispatcher.start();
  await recordedAll(warmUp);
  // The backlog, committed in one transaction: the running dispatcher finds all of it at once.
  const events = Number(env.EVENTS ?? 20000);
  const backlog = await raise(events);
  const cpuAtCommit = drainCpu();
  // Nothing else runs here until the drain is over: the commit instants are written afterwards.
  const at = await recordedAll(warmUp + events);
  const cpu = drainCpu();
  const perDelivery = (key: keyof typeof cpu) => Math.round((cpu[key] - cpuAtCommit[key]) / events);
  fs.writeFileSync(env.ACKED_FILE!, JSON.stringify({ at, cpu: { gatehouse: perDelivery('gatehouse'), receiver: perDelivery('receiver'), postgres: perDelivery('postgres') } }));
  // Every event of the backlog carries the instant of its one commit.
  noteCommits(backlog);
  commits.__start = backlog.committed;
} else {
  const total = Number(env.PACED ?? 1000);
  const gap = 1000 / Number(env.PACED_RATE ?? 200);
  const start = Date.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * gap;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    noteCommits(await raise(1));
  }
}
fs.writeFileSync(env.COMMITS_FILE!, JSON.stringify(commits));
console.log(`raised ${Object.keys(commits).length}`);
// Keep delivering until the harness stops us.
process.once('SIGTERM', () => void gatehouse.close().then(() => process.exit(0)));
