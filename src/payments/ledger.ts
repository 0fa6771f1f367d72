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
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { presentLedgerEntry } from './ledger-entries.ts';
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

type EntryPair = Omit<Posting, 'source'> & {
  transactionId: string;
  debitId: string;
  creditId: string;
  sourceObject: Posting['source']['object'];
  sourceId: string;
  /** The credit's amount: minus the posting's */
  creditAmount: number;
  debitRepresentation: string;
  creditRepresentation: string;
};

/** Both entries of a posting in one statement. */
const insertEntryPair = preparedQuery((db, value: Placeholder<EntryPair>) => {
  const common = {
    account_id: value('accountId'),
    transaction_id: value('transactionId'),
    currency: value('currency'),
    source_object: value('sourceObject'),
    source_id: value('sourceId'),
    created_at: value('at'),
  };
  const entries: LedgerEntryRow[] = [
    { ...common, id: value('debitId'), ledger_account: value('debit'), direction: 'debit', amount: value('amount'), representation: value('debitRepresentation') },
    {
      ...common,
      id: value('creditId'),
      ledger_account: value('credit'),
      direction: 'credit',
      amount: value('creditAmount'),
      representation: value('creditRepresentation'),
    },
  ];
  return db.insertInto('ledger_entries').values(entries);
});

/** The two entries of one posting: the debit, then the credit. */
export function postingEntries(posting: Posting): [LedgerEntryRow, LedgerEntryRow] {
  const transactionId = newTimeOrderedId('ltx', posting.at);
  const common = {
    account_id: posting.accountId,
    transaction_id: transactionId,
    currency: posting.currency,
    source_object: posting.source.object,
    source_id: posting.source.id,
    created_at: posting.at,
  };
  const debit = { ...common, id: newTimeOrderedId('le', posting.at), ledger_account: posting.debit, direction: 'debit', amount: posting.amount } as const;
  const credit = { ...common, id: newTimeOrderedId('le', posting.at), ledger_account: posting.credit, direction: 'credit', amount: -posting.amount } as const;
  return [
    { ...debit, representation: JSON.stringify(presentLedgerEntry(debit)) },
    { ...credit, representation: JSON.stringify(presentLedgerEntry(credit)) },
  ];
}

/** Writes the two entries of one posting in `trx`; returns its transaction id. */
export async function post(trx: Db, posting: Posting): Promise<string> {
  const [debit, credit] = postingEntries(posting);
  await insertEntryPair.execute(trx, {
    ...posting,
    transactionId: debit.transaction_id,
    debitId: debit.id,
    creditId: credit.id,
    sourceObject: posting.source.object,
    sourceId: posting.source.id,
    creditAmount: credit.amount,
    debitRepresentation: debit.representation,
    creditRepresentation: credit.representation,
  });
  return debit.transaction_id;
}

interface BalanceChange {
  accountId: string;
  currency: string;
  amount: number;
  at: number;
}

/** The conditional debit every payout runs. */
const debitIfCovered = preparedQuery((db, value: Placeholder<BalanceChange>) =>
  db
    .updateTable('balances')
    .set((eb) => ({ available: eb('available', '-', value('amount')), updated_at: value('at') }))
    .where('account_id', '=', value('accountId'))
    .where('currency', '=', value('currency'))
    .where('available', '>=', value('amount')),
);

/** Adds `amount` to the available balance, creating the row on first use. */
export async function creditBalance(trx: Db, input: BalanceChange): Promise<void> {
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
export async function debitBalance(trx: Db, input: BalanceChange): Promise<boolean> {
  const result = await debitIfCovered.execute(trx, input);
  return Number(result.numAffectedRows) === 1;
}

