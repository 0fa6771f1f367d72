/**
 * What an account still holds on the platform: money in its available balance and payouts on
 * their way. An account holding either cannot be closed (accounts/closing.ts): the money would be
 * stranded with nobody left to pay it out or to be told what became of it.
 */
import { sql, type Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import { dialectOf } from '../platform/db/dialect.ts';

export interface Holdings {
  /**
   * Currencies whose available balance is not zero, with the amount in minor units as decimal
   * digits: a balance is a sum of settlements and may pass 2^53, beyond a JavaScript number.
   */
  balances: Array<{ currency: string; available: string }>;
  /** Payouts still `pending`. */
  pendingPayouts: number;
}

/**
 * Reads the account's holdings, locking its balance rows (PostgreSQL) so that no payout or
 * settlement moves them before the closing transaction commits; SQLite's one writer does the same.
 */
export async function accountHoldings(trx: Transaction<Tables>, accountId: string): Promise<Holdings> {
  const balances = await dialectOf(trx)
    .lockForWrite(
      trx
        .selectFrom('balances')
        .select(['currency', sql<string>`cast(available as text)`.as('available')])
        .where('account_id', '=', accountId),
    )
    .execute();
  const pending = await trx.selectFrom('payouts').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('state', '=', 'pending').executeTakeFirstOrThrow();
  return {
    balances: balances.filter((b) => b.available !== '0'),
    pendingPayouts: Number(pending.n),
  };
}
