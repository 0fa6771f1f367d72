/**
 * Retention: records older than GATEHOUSE_AUDIT_RETENTION days are deleted, oldest first along
 * each account's chain, in small batches of their own short transactions (writers never wait
 * on them: a write inserts and touches no chain row). Each batch moves the chain's start to its
 * first kept record in the same transaction, so the chain stays verifiable from there, and
 * drops the checkpoints that pointed into what was pruned. Pruning is not tampering, and says
 * so: the new start is signed (START_TYPE, with the server's key, as checkpoints are), so that a
 * start moved by hand, to hide the oldest records deleted, is not taken for pruning (verify.ts).
 */
import type { Db } from '../platform/db/database.ts';
import { transactWithRetry } from '../platform/db/database.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Clock } from '../platform/clock.ts';
import { runInRounds } from '../platform/rounds.ts';
import type { CheckpointSigner } from './sealer.ts';

const DAY_MS = 24 * 3600 * 1000;

/** The typ of retention's signed statement of a chain's start. */
export const START_TYPE = 'audit-start+jwt';

export function createAuditRetention(deps: { db: Db; clock: Clock; retentionDays: number; signer: CheckpointSigner; issuer: string }) {
  const { db, clock } = deps;

  /** The signed statement that `accountId`'s chain starts at `firstSeq`, after `firstPrevHash`. */
  const signedStart = (accountId: string, firstSeq: number, firstPrevHash: string) =>
    deps.signer.sign({ iss: deps.issuer, sub: accountId, first_seq: firstSeq, first_prev_hash: firstPrevHash, at: clock.now() }, START_TYPE);

  /** Prunes one batch of `accountId`'s chain; returns how many records it deleted. */
  async function pruneBatch(accountId: string, cutoff: number, batchSize: number): Promise<number> {
    // What to cut, and its signed statement, are settled before the transaction: signing reads
    // the active key, which on SQLite's one connection cannot wait inside a transaction. Sealed
    // records never change, so the transaction only checks that the start has not moved since.
    const chain = await db.selectFrom('audit_chains').select(['first_seq']).where('account_id', '=', accountId).executeTakeFirst();
    if (!chain) return 0;
    const firstSeq = Number(chain.first_seq);
    const rows = await db
      .selectFrom('audit_events')
      .select(['seq', 'hash', 'occurred_at'])
      .where('account_id', '=', accountId)
      .where('seq', '>=', firstSeq)
      .orderBy('seq')
      .limit(batchSize)
      .execute();
    // The longest run from the chain's start that is all past retention.
    let last: { seq: number; hash: string } | undefined;
    for (const row of rows) {
      if (Number(row.occurred_at) >= cutoff) break;
      last = { seq: Number(row.seq), hash: row.hash! };
    }
    if (!last) return 0;
    const cut = last;
    const firstJws = await signedStart(accountId, cut.seq + 1, cut.hash);
    return transactWithRetry(db, async (trx) => {
      // Locked: sweeps of one account on two nodes take turns, so the chain's start only moves on;
      // a sweep that finds it moved since it looked leaves the batch to the next round.
      const locked = await dialectOf(trx).lockForWrite(trx.selectFrom('audit_chains').select(['first_seq']).where('account_id', '=', accountId)).executeTakeFirst();
      if (!locked || Number(locked.first_seq) !== firstSeq) return 0;
      const deleted = await trx
        .deleteFrom('audit_events')
        .where('account_id', '=', accountId)
        .where('seq', '>=', firstSeq)
        .where('seq', '<=', cut.seq)
        .executeTakeFirst();
      await trx.updateTable('audit_chains').set({ first_seq: cut.seq + 1, first_prev_hash: cut.hash, first_jws: firstJws }).where('account_id', '=', accountId).execute();
      await trx.deleteFrom('audit_checkpoints').where('account_id', '=', accountId).where('seq', '<=', cut.seq).execute();
      return Number(deleted.numDeletedRows);
    });
  }

  /** Deletes the records past retention as of the clock's now; returns how many. */
  async function sweep(options: { batchSize?: number; maxBatches?: number } = {}): Promise<number> {
    const batchSize = options.batchSize ?? 500;
    let budget = options.maxBatches ?? 100;
    const cutoff = clock.now() - deps.retentionDays * DAY_MS;
    const accounts = await db.selectFrom('audit_chains').select('account_id').execute();
    let total = 0;
    for (const { account_id } of accounts) {
      while (budget > 0) {
        budget -= 1;
        const n = await pruneBatch(account_id, cutoff, batchSize);
        total += n;
        if (n < batchSize) break;
      }
    }
    return total;
  }

  function start(options: { intervalMs: number; onError(error: unknown): void }): () => Promise<void> {
    return runInRounds(sweep, options).stop;
  }

  return { sweep, start };
}

export type AuditRetention = ReturnType<typeof createAuditRetention>;
