/**
 * The sealer gives each new audit record its place in its account's chain, in the background.
 *
 * Why not in the write's own transaction: chaining there means reading and updating the
 * account's chain head in every write, so on PostgreSQL every write of an account would hold
 * that row's lock until it commits, one after another, whatever else they touch. Here a write
 * inserts its record (seq null) and goes on; the sealer, on any node, locks the head (an
 * UPDATE of the chain row, which serialises sealers per account on PostgreSQL and is the one
 * writer's lock on SQLite), takes the account's unsealed records in (occurred_at, id) order,
 * links them and moves the head, all in one short transaction. A record committed late, after
 * later ones were sealed, is simply sealed in the next round: the chain's order is the order
 * of sealing, which `seq` numbers, and it is total per account. In the same transaction the
 * sealed records go to the account's endpoints subscribed to audit events (stream.ts).
 *
 * Idle, a round is one indexed probe (`accountsToSeal`); a record is sealed within a round of its
 * commit by whichever node probes first, so none is left unsealed whichever node or command wrote it.
 *
 * Checkpoints: at most every `checkpointIntervalMs` per account, after sealing, the head
 * (account, seq, hash) is signed with the server's published ES256 signing key and stored. A
 * rewrite of the chain by someone without the signing key cannot produce a checkpoint to
 * match, and a truncated tail no longer reaches the last checkpoint.
 */
import type { Db } from '../platform/db/database.ts';
import { transactWithRetry } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { sql } from 'kysely';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { runInRounds } from '../platform/rounds.ts';
import { changesMac, genesisHash, recordHash } from './chain.ts';
import { streamSealed } from './stream.ts';
import type { AuditEventRow } from './tables.ts';

export const CHECKPOINT_TYPE = 'audit-checkpoint+jwt';

export interface CheckpointSigner {
  sign(claims: Record<string, unknown>, type: string): Promise<string>;
}

export interface SealerDeps {
  db: Db;
  clock: Clock;
  macKey: Buffer;
  signer: CheckpointSigner;
  /** Issuer named in checkpoints. */
  issuer: string;
  checkpointIntervalMs: number;
  /** Records sealed per account per transaction. */
  batchSize?: number;
}

/**
 * The accounts with records still to seal. The sealer asks every second on every node, and
 * almost always the answer is none: so it is one probe of the index that holds only unsealed
 * records (`audit_events_unsealed`, empty when all is sealed), compiled once and kept prepared
 * on PostgreSQL. An idle round costs that one probe and nothing else.
 */
const ACCOUNTS_PER_PROBE = 100;
export const accountsToSeal = preparedQuery((db) => db.selectFrom('audit_events').select('account_id').distinct().where('seq', 'is', null).limit(ACCOUNTS_PER_PROBE));

/** What sealing writes into a record: its place in the chain, and the MAC of its changes. */
type Placed = Pick<AuditEventRow, 'id' | 'seq' | 'prev_hash' | 'hash' | 'changes_mac'>;

const placeOne = preparedQuery((db, value: Placeholder<Placed>) =>
  db
    .updateTable('audit_events')
    .set({ seq: value('seq'), prev_hash: value('prev_hash'), hash: value('hash'), changes_mac: value('changes_mac') })
    .where('id', '=', value('id')),
);

/** A batch's places as one array per column, each bound as one parameter. */
interface PlacedColumns {
  ids: string[];
  seqs: Array<number | null>;
  prevHashes: Array<string | null>;
  hashes: Array<string | null>;
  macs: Array<string | null>;
}

const placeMany = preparedQuery(
  (_db, value: Placeholder<PlacedColumns>) => sql`
    update audit_events as e set seq = placed.seq, prev_hash = placed.prev_hash, hash = placed.hash, changes_mac = placed.changes_mac
    from unnest(${value('ids')}::text[], ${value('seqs')}::bigint[], ${value('prevHashes')}::text[], ${value('hashes')}::text[], ${value('macs')}::text[])
      as placed (id, seq, prev_hash, hash, changes_mac)
    where e.id = placed.id`,
);

/**
 * Writes the records' places. On PostgreSQL one statement for the whole batch, its columns bound
 * as arrays: a statement per record cost a round trip each, as many as the writes being sealed.
 * SQLite, in process, runs one prepared UPDATE per record.
 */
async function placeInChain(trx: Db, records: readonly Placed[]): Promise<void> {
  if (records.length === 0) return;
  if (!dialectOf(trx).writableCtes) {
    for (const { id, seq, prev_hash, hash, changes_mac } of records) await placeOne.execute(trx, { id, seq, prev_hash, hash, changes_mac });
    return;
  }
  await placeMany.execute(trx, {
    ids: records.map((r) => r.id),
    seqs: records.map((r) => r.seq),
    prevHashes: records.map((r) => r.prev_hash),
    hashes: records.map((r) => r.hash),
    macs: records.map((r) => r.changes_mac),
  });
}

/**
 * Takes the account's chain head (made at genesis if it has none) for the rest of `trx`: the
 * UPDATE takes its row lock, so sealers of one account run one at a time, and whatever else must
 * not interleave with a seal (deleting a person, detach.ts) waits the same way.
 */
export async function holdChainHead(trx: Db, accountId: string, now: number): Promise<void> {
  const genesis = genesisHash(accountId);
  await trx
    .insertInto('audit_chains')
    .values({ account_id: accountId, head_seq: 0, head_hash: genesis, first_seq: 1, first_prev_hash: genesis, checkpointed_at: 0, updated_at: now })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  await trx.updateTable('audit_chains').set({ updated_at: now }).where('account_id', '=', accountId).execute();
}

export function createAuditSealer(deps: SealerDeps) {
  const { db, clock, macKey } = deps;
  const batchSize = deps.batchSize ?? 500;

  async function sealAccount(accountId: string): Promise<{ sealed: number; head: { seq: number; hash: string } }> {
    return transactWithRetry(db, async (trx) => {
      const now = clock.now();
      await holdChainHead(trx, accountId, now);
      const chain = await trx.selectFrom('audit_chains').select(['head_seq', 'head_hash']).where('account_id', '=', accountId).executeTakeFirstOrThrow();
      const rows = await trx
        .selectFrom('audit_events')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('seq', 'is', null)
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(batchSize)
        .execute();
      let seq = Number(chain.head_seq);
      let prev = chain.head_hash;
      const sealed: AuditEventRow[] = [];
      for (const row of rows) {
        const mac = row.detached_at === null ? changesMac(macKey, row.changes) : row.changes_mac;
        const hash = recordHash(prev, { ...row, changes_mac: mac });
        seq += 1;
        sealed.push({ ...row, seq, prev_hash: prev, hash, changes_mac: mac });
        prev = hash;
      }
      await placeInChain(trx, sealed);
      if (rows.length > 0) await trx.updateTable('audit_chains').set({ head_seq: seq, head_hash: prev }).where('account_id', '=', accountId).execute();
      await streamSealed(trx, accountId, sealed);
      return { sealed: rows.length, head: { seq, hash: prev } };
    });
  }

  /** Signs the account's head when its last checkpoint is older than the interval (or `force`). */
  async function checkpoint(accountId: string, force = false): Promise<boolean> {
    const now = clock.now();
    const chain = await db.selectFrom('audit_chains').selectAll().where('account_id', '=', accountId).executeTakeFirst();
    if (!chain || Number(chain.head_seq) === 0) return false;
    if (!force && now - Number(chain.checkpointed_at) < deps.checkpointIntervalMs) return false;
    const seq = Number(chain.head_seq);
    const done = await db.selectFrom('audit_checkpoints').select('seq').where('account_id', '=', accountId).where('seq', '=', seq).executeTakeFirst();
    if (done) return false;
    const jws = await deps.signer.sign({ iss: deps.issuer, sub: accountId, seq, hash: chain.head_hash }, CHECKPOINT_TYPE);
    await db
      .insertInto('audit_checkpoints')
      .values({ account_id: accountId, seq, hash: chain.head_hash, signed_at: now, jws })
      .onConflict((oc) => oc.columns(['account_id', 'seq']).doNothing())
      .execute();
    await db.updateTable('audit_chains').set({ checkpointed_at: now }).where('account_id', '=', accountId).execute();
    return true;
  }

  /**
   * Seals what is pending, account by account, then checkpoints the accounts whose interval
   * has run; returns how many records were sealed.
   *
   * A pass goes round again only while a backlog is left: more accounts than one probe returns,
   * or an account with more records than one batch. Records committed during a pass wait for
   * the next tick. Going round until nothing is pending would chase the writers: under steady
   * writes each round finds the few committed during the last, and the sealer spends a
   * transaction and its round trips on every few records instead of one per batch per tick.
   */
  async function sealPending(options: { forceCheckpoint?: boolean } = {}): Promise<number> {
    let total = 0;
    for (let round = 0; round < 100; round++) {
      const { rows: accounts } = await accountsToSeal.execute(db, {});
      let backlog = accounts.length === ACCOUNTS_PER_PROBE;
      for (const { account_id } of accounts) {
        const result = await sealAccount(account_id);
        total += result.sealed;
        backlog ||= result.sealed === batchSize;
        await checkpoint(account_id, options.forceCheckpoint);
      }
      if (!backlog) break;
    }
    if (options.forceCheckpoint) {
      const chains = await db.selectFrom('audit_chains').select('account_id').execute();
      for (const { account_id } of chains) await checkpoint(account_id, true);
    }
    return total;
  }

  /** Seals every `intervalMs` until the returned stop is called; stop waits for a round in progress. */
  function start(options: { intervalMs: number; onError(error: unknown): void }): () => Promise<void> {
    return runInRounds(() => sealPending(), options).stop;
  }

  return { sealPending, sealAccount, checkpoint, start };
}

export type AuditSealer = ReturnType<typeof createAuditSealer>;
