/**
 * An account's balance, by currency (GET /v1/balance, as Stripe's balance answers "what can be
 * paid out"): `available`, what a payout may take now (settled invoices less payouts not failed,
 * the amount each payout debits under its lock), and `pending_payouts`, what payouts on their way
 * hold (already taken from `available`; a failed one gives it back). One statement, so both are
 * read at one instant. Amounts are minor units written as the database holds them, digit for
 * digit: a balance is a sum of settlements and may pass 2^53.
 */
import { sql } from 'kysely';
import type { Db } from '../platform/db/database.ts';

interface BalanceRow {
  currency: string;
  available: string;
  pending: string;
  pending_count: number | string;
}

export function createBalance(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** The balance as JSON text (exact digits), currencies in alphabetical order; those holding nothing left out. */
    async readJson(accountId: string): Promise<string> {
      const { rows } = await sql<BalanceRow>`
        select b.currency,
               cast(b.available as text) as available,
               cast(coalesce(p.amount, 0) as text) as pending,
               coalesce(p.count, 0) as pending_count
          from balances b
          left join (select currency, sum(amount) as amount, count(*) as count
                       from payouts
                      where account_id = ${accountId} and state = 'pending'
                      group by currency) p on p.currency = b.currency
         where b.account_id = ${accountId}
         order by b.currency`.execute(db);
      const held = rows.filter((r) => r.available !== '0' || r.pending !== '0');
      const available = held.map((r) => `{"currency":${JSON.stringify(r.currency)},"amount":${r.available}}`);
      const pending = held.filter((r) => r.pending !== '0').map((r) => `{"currency":${JSON.stringify(r.currency)},"amount":${r.pending},"count":${Number(r.pending_count)}}`);
      return `{"object":"balance","available":[${available.join(',')}],"pending_payouts":[${pending.join(',')}]}`;
    },
  };
}

export type Balance = ReturnType<typeof createBalance>;
