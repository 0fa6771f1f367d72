/**
 * The double-entry ledger and the available balance it implies.
 *
 * Chart of accounts, per account and currency:
 * - `cash`: money held for the account (an asset);
 * - `balance`: what the account may pay out (owed to it);
 * - `payouts_pending`: money on its way to a destination.
 *
 * Postings (debits positive, credits negative; each posting sums to zero):
 * - invoice settled:  debit cash,            credit balance
 * - payout created:   debit balance,         credit payouts_pending
 * - payout paid:      debit payouts_pending, credit cash
 * - payout failed:    debit payouts_pending, credit balance (the money is available again)
 *
 * The available balance (settled invoices minus payouts not failed) is kept in `balances`,
 * one row per (account, currency), changed only in the transaction that posts. Taking money
 * out is one conditional UPDATE (`… where available >= amount`): the check and the write are
 * one atomic step, which PostgreSQL serializes on the row lock and SQLite on its single
 * writer, so concurrent payouts can never take the balance below zero; a CHECK constraint
 * stands behind it.
 */
import type { Db } from '../platform/db/database.ts';
import { newId } from '../platform/ids.ts';
import type { LedgerAccount, LedgerEntryRow } from './tables.ts';

export interface Posting {
  accountId: string;
  currency: string;
  amount: number;
  debit: LedgerAccount;
  credit: LedgerAccount;
  source: { object: 'invoice' | 'payout'; id: string };
  at: number;
}

/** Writes the two entries of one posting in `trx`; returns its transaction id. */
export async function post(trx: Db, posting: Posting): Promise<string> {
  const transactionId = newId('ltx');
  const common = {
    account_id: posting.accountId,
    transaction_id: transactionId,
    currency: posting.currency,
    source_object: posting.source.object,
    source_id: posting.source.id,
    created_at: posting.at,
  };
  const entries: LedgerEntryRow[] = [
    { ...common, id: newId('le'), ledger_account: posting.debit, direction: 'debit', amount: posting.amount },
    { ...common, id: newId('le'), ledger_account: posting.credit, direction: 'credit', amount: -posting.amount },
  ];
  await trx.insertInto('ledger_entries').values(entries).execute();
  return transactionId;
}

/** Adds `amount` to the available balance, creating the row on first use. */
export async function creditBalance(trx: Db, input: { accountId: string; currency: string; amount: number; at: number }): Promise<void> {
  await trx
    .insertInto('balances')
    .values({ account_id: input.accountId, currency: input.currency, available: input.amount, updated_at: input.at })
    .onConflict((oc) =>
      oc.columns(['account_id', 'currency']).doUpdateSet((eb) => ({
        available: eb('balances.available', '+', eb.ref('excluded.available')),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/**
 * Takes `amount` from the available balance if it covers it, in one atomic statement.
 * Returns false (and changes nothing) when it does not.
 */
export async function debitBalance(trx: Db, input: { accountId: string; currency: string; amount: number; at: number }): Promise<boolean> {
  const result = await trx
    .updateTable('balances')
    .set((eb) => ({ available: eb('available', '-', input.amount), updated_at: input.at }))
    .where('account_id', '=', input.accountId)
    .where('currency', '=', input.currency)
    .where('available', '>=', input.amount)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
