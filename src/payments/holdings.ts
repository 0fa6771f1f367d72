/**
 * What an account still holds on the platform: money in its available balance and payouts on
 * their way. An account holding either cannot be closed (accounts/closing.ts): the money would be
 * stranded with nobody left to pay it out or to be told what became of it.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import { dialectOf } from '../platform/db/dialect.ts';

export interface Holdings {
  /** Currencies whose available balance is not zero, with the amount (minor units). */
  balances: Array<{ currency: string; available: number }>;
  /** Payouts still `pending`. */
  pendingPayouts: number;
}

/**
 * Reads the account's holdings, locking its balance rows (PostgreSQL) so that no payout or
 * settlement moves them before the closing transaction commits; SQLite's one writer does the same.
 */
export async function accountHoldings(trx: Transaction<Tables>, accountId: string): Promise<Holdings> {
  const balances = await dialectOf(trx)
    .lockForWrite(trx.selectFrom('balances').select(['currency', 'available']).where('account_id', '=', accountId))
    .execute();
  const pending = await trx.selectFrom('payouts').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).where('state', '=', 'pending').executeTakeFirstOrThrow();
  return {
    balances: balances.filter((b) => Number(b.available) !== 0).map((b) => ({ currency: b.currency, available: Number(b.available) })),
    pendingPayouts: Number(pending.n),
  };
}
