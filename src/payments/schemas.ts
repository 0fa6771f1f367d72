/** JSON schemas of the business objects, shared by validation, serialization and the OpenAPI document. */
import { amountSchema, currencySchema } from './currencies.ts';
import { LEDGER_ACCOUNTS } from './ledger-entries.ts';
import { INVOICE_STATES, PAYOUT_STATES } from './tables.ts';
import { component } from '../platform/http/openapi-components.ts';

const instant = { type: 'string', format: 'date-time', description: 'RFC 3339 instant, UTC' } as const;
const nullableInstant = { type: ['string', 'null'], format: 'date-time', description: 'RFC 3339 instant, UTC; null until it happens' } as const;

export const metadataSchema = {
  type: 'object',
  description: 'Up to 20 keys (1-40 characters) with string values of up to 500 characters, for your own use',
  maxProperties: 20,
  propertyNames: { minLength: 1, maxLength: 40 },
  additionalProperties: { type: 'string', maxLength: 500 },
} as const;

export const invoiceSchema = component('Invoice', {
  type: 'object',
  required: ['id', 'object', 'amount', 'currency', 'description', 'metadata', 'state', 'created_at', 'settled_at'],
  properties: {
    id: { type: 'string', examples: ['inv_4fJ1tX9v0QmB7dP2sK8r'] },
    object: { type: 'string', const: 'invoice' },
    amount: amountSchema,
    currency: { type: 'string', examples: ['EUR'] },
    description: { type: ['string', 'null'] },
    metadata: { type: 'object', additionalProperties: { type: 'string' } },
    state: { type: 'string', enum: INVOICE_STATES, description: 'open → settled (once)' },
    created_at: instant,
    settled_at: nullableInstant,
  },
} as const);

export const newInvoiceSchema = component('NewInvoice', {
  type: 'object',
  required: ['amount', 'currency'],
  additionalProperties: false,
  properties: {
    amount: amountSchema,
    currency: currencySchema,
    description: { type: ['string', 'null'], maxLength: 500, description: 'Free text; null (or absent) for none, as the invoice shows it' },
    metadata: metadataSchema,
  },
} as const);

export const payoutSchema = component('Payout', {
  type: 'object',
  required: ['id', 'object', 'amount', 'currency', 'destination', 'state', 'failure_code', 'created_at', 'processed_at'],
  properties: {
    id: { type: 'string', examples: ['po_8Hq2Lm0ZxR4cW7vN1bT5'] },
    object: { type: 'string', const: 'payout' },
    amount: amountSchema,
    currency: { type: 'string', examples: ['EUR'] },
    destination: { type: 'string' },
    state: { type: 'string', enum: PAYOUT_STATES, description: 'pending → paid, or pending → failed' },
    failure_code: { type: ['string', 'null'], description: 'Why a failed payout failed (destination_rejected); null otherwise' },
    created_at: instant,
    processed_at: nullableInstant,
  },
} as const);

export const newPayoutSchema = component('NewPayout', {
  type: 'object',
  required: ['amount', 'currency', 'destination'],
  additionalProperties: false,
  properties: {
    amount: amountSchema,
    currency: currencySchema,
    destination: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[\\x21-\\x7E]+$',
      description: 'Where the money goes (e.g. a bank account reference); printable ASCII without spaces. Destinations starting with test_fail always fail.',
    },
  },
} as const);

export const ledgerEntrySchema = component('LedgerEntry', {
  type: 'object',
  required: ['id', 'object', 'transaction_id', 'ledger_account', 'direction', 'amount', 'currency', 'source', 'created_at'],
  properties: {
    id: { type: 'string', examples: ['le_2bV9sQ1mK7pX0cZ4rT8y'] },
    object: { type: 'string', const: 'ledger_entry' },
    transaction_id: { type: 'string', description: 'The posting this entry belongs to; its entries sum to zero' },
    ledger_account: { type: 'string', enum: LEDGER_ACCOUNTS },
    direction: { type: 'string', enum: ['debit', 'credit'] },
    amount: { type: 'integer', description: 'Signed minor units: debits positive, credits negative' },
    currency: { type: 'string' },
    source: {
      type: 'object',
      required: ['object', 'id'],
      properties: { object: { type: 'string', enum: ['invoice', 'payout'] }, id: { type: 'string' } },
    },
    created_at: instant,
  },
} as const);

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

export const idempotencyHeader = {
  type: 'object',
  properties: {
    'idempotency-key': {
      type: 'string',
      description: 'A random string you generate per logical operation and reuse for its retries',
    },
  },
} as const;

export const balanceSchema = component('Balance', {
  type: 'object',
  required: ['object', 'available', 'pending_payouts'],
  properties: {
    object: { type: 'string', const: 'balance' },
    available: {
      type: 'array',
      description: 'What a payout may take now, by currency (settled invoices less payouts not failed); currencies holding nothing are left out',
      items: {
        type: 'object',
        required: ['currency', 'amount'],
        properties: { currency: { type: 'string', examples: ['EUR'] }, amount: { type: 'integer', minimum: 0, description: 'Minor units', examples: [125000] } },
      },
    },
    pending_payouts: {
      type: 'array',
      description: 'What payouts still pending hold, by currency: already taken from available, given back if a payout fails',
      items: {
        type: 'object',
        required: ['currency', 'amount', 'count'],
        properties: {
          currency: { type: 'string', examples: ['EUR'] },
          amount: { type: 'integer', minimum: 1, description: 'Minor units', examples: [30000] },
          count: { type: 'integer', minimum: 1, description: 'How many payouts', examples: [2] },
        },
      },
    },
  },
} as const);
