/**
 * Tables of the business collections (DDL in migrations/0200_payments.ts and 0202). Money is
 * integer minor units.
 *
 * Invoices, payouts and ledger entries each keep `representation`: the JSON text of the row
 * as the API shows it, written by the same transaction as every change to the row, so that a
 * page of a collection is the stored texts joined (see paging/keyset.ts).
 */

/** A row's columns other than its representation: what a presenter renders it from. */
export type Unrendered<Row extends { representation: string }> = Omit<Row, 'representation'>;

export const INVOICE_STATES = ['open', 'settled'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const PAYOUT_STATES = ['pending', 'paid', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];
export type LedgerAccount = 'cash' | 'balance' | 'payouts_pending';
export type Direction = 'debit' | 'credit';

export interface InvoiceRow {
  id: string;
  account_id: string;
  amount: number;
  currency: string;
  description: string | null;
  /** JSON object of string values */
  metadata: string;
  state: InvoiceState;
  created_at: number;
  settled_at: number | null;
  /** JSON.stringify(presentInvoice(row)) of the other columns. */
  representation: string;
}

export interface PayoutRow {
  id: string;
  account_id: string;
  amount: number;
  currency: string;
  destination: string;
  state: PayoutState;
  failure_code: string | null;
  created_at: number;
  /** When the processor may move it out of `pending`. */
  due_at: number;
  processed_at: number | null;
  /** JSON.stringify(presentPayout(row)) of the other columns. */
  representation: string;
}

export interface LedgerEntryRow {
  id: string;
  account_id: string;
  /** Groups the entries of one posting; they sum to zero. */
  transaction_id: string;
  ledger_account: LedgerAccount;
  direction: Direction;
  /** Signed: debits positive, credits negative. */
  amount: number;
  currency: string;
  source_object: 'invoice' | 'payout';
  source_id: string;
  created_at: number;
  /** JSON.stringify(presentLedgerEntry(row)) of the other columns. */
  representation: string;
}

export interface BalanceRow {
  account_id: string;
  currency: string;
  available: number;
  updated_at: number;
}

export interface PaymentTables {
  invoices: InvoiceRow;
  payouts: PayoutRow;
  ledger_entries: LedgerEntryRow;
  balances: BalanceRow;
}
