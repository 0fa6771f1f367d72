/**
 * HTTP for the business collections under /v1: invoices, payouts and ledger entries, and the
 * balance they leave.
 * Bearer tokens with the collection's scope (`invoices:read`, `invoices:write`,
 * `payouts:read`, `payouts:write`, `ledger:read`); every query is scoped to the token's
 * account, so another account's object answers 404 exactly like a missing one. Every POST
 * runs through the write runner, which owns the transaction (and Idempotency-Key).
 */
import type { FastifyInstance } from 'fastify';
import { bearerAccess, principalOf, protectedRoute, type BearerVerifier } from '../platform/auth.ts';
import { auditBy } from '../audit/record.ts';
import { errorResponses, noMembers } from '../platform/http/schemas.ts';
import type { WriteRunner } from '../idempotency/write-runner.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';
import { PAGE_CONTENT_TYPE, pageQueryProperties, pageSchema } from '../paging/page.ts';
import { currencySchema } from './currencies.ts';
import type { InvoiceFilters, Invoices, NewInvoice } from './invoices.ts';
import type { NewPayout, Payout, PayoutFilters, Payouts } from './payouts.ts';
import { createdRangeQueryProperties } from './collection-reads.ts';
import { INVOICE_STATES, PAYOUT_STATES } from './tables.ts';
import type { Balance } from './balance.ts';
import type { IdempotencyRow } from '../idempotency/tables.ts';
import { LEDGER_ACCOUNTS, type LedgerEntries, type LedgerFilters } from './ledger-entries.ts';
import {
  balanceSchema,
  idParams,
  idempotencyHeader,
  invoiceSchema,
  ledgerEntrySchema,
  newInvoiceSchema,
  newPayoutSchema,
  payoutSchema,
} from './schemas.ts';

export interface PaymentRouteDeps {
  verifier: BearerVerifier;
  writes: WriteRunner;
  invoices: Invoices;
  payouts: Payouts;
  ledgerEntries: LedgerEntries;
  balance: Balance;
  /** Where payouts created are counted (the processor counts the later transitions). */
  metrics?: MetricsRegistry;
}

interface PageQuery {
  limit?: number;
  after?: string;
}

const ORDER_NOTE = 'Newest first by (created_at, id). Pass next_cursor as after to read on; the read ends when next_cursor is null.';
const FILTERED_ORDER_NOTE = `${ORDER_NOTE} Filters narrow the read; a cursor only continues a read with the same filters.`;

/** The query of a collection narrowed by state and creation time. */
function stateFilteredQuery(states: readonly string[], what: string) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...pageQueryProperties,
      state: { type: 'string', enum: states, description: `Only ${what} in this state` },
      ...createdRangeQueryProperties,
    },
  } as const;
}

export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps): void {
  const { verifier, writes, invoices, payouts, ledgerEntries, balance } = deps;
  const created = deps.metrics?.counter('gatehouse_payouts_transitions_total', 'Payout state transitions, by from and to state', ['from', 'to']);
  created?.inc({ from: 'none', to: 'pending' }, 0);
  const access = bearerAccess(verifier);

  app.post<{ Body: NewInvoice }>(
    '/v1/invoices',
    protectedRoute(access('invoices:write'), {
      schema: {
        tags: ['invoices'],
        operationId: 'createInvoice',
        summary: 'Create an invoice (state open)',
        headers: idempotencyHeader,
        body: newInvoiceSchema,
        response: { 201: invoiceSchema, ...errorResponses(400, 401, 403, 409, 415, 429) },
      },
    }),
    async (request, reply) => {
      const { accountId } = principalOf(request);
      return writes.runWrite(request, reply, async (trx) => {
        const invoice = await invoices.create(trx, accountId, request.body, auditBy(request));
        return { status: 201, body: invoice, headers: { location: `/v1/invoices/${invoice.id}` } };
      });
    },
  );

  app.get<{ Querystring: PageQuery & InvoiceFilters }>(
    '/v1/invoices',
    protectedRoute(access('invoices:read'), {
      schema: {
        tags: ['invoices'],
        operationId: 'listInvoices',
        summary: 'List invoices, a page at a time',
        description: FILTERED_ORDER_NOTE,
        querystring: stateFilteredQuery(INVOICE_STATES, 'invoices'),
        response: { 200: pageSchema(invoiceSchema, 'A page of invoices'), ...errorResponses(400, 401, 403, 429) },
      },
    }),
    async (request, reply) => {
      const { limit, after, state, since, until } = request.query;
      const page = await invoices.listJson({ accountId: principalOf(request).accountId, limit, after, filters: { state, since, until } });
      return reply.type(PAGE_CONTENT_TYPE).send(page);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/invoices/:id',
    protectedRoute(access('invoices:read'), {
      schema: {
        tags: ['invoices'],
        operationId: 'getInvoice',
        summary: 'Get an invoice',
        params: idParams,
        response: { 200: invoiceSchema, ...errorResponses(401, 403, 404, 429) },
      },
    }),
    async (request) => invoices.get(principalOf(request).accountId, request.params.id),
  );

  app.post<{ Params: { id: string } }>(
    '/v1/invoices/:id/settle',
    protectedRoute(access('invoices:write'), {
      schema: {
        tags: ['invoices'],
        operationId: 'settleInvoice',
        summary: 'Settle an open invoice',
        description: 'Moves the invoice to settled, posts cash/balance ledger entries, credits the available balance and emits invoice.settled. A settled invoice answers 409 invoice_already_settled.',
        headers: idempotencyHeader,
        params: idParams,
        body: noMembers,
        response: { 200: invoiceSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    }),
    async (request, reply) => {
      const { accountId } = principalOf(request);
      return writes.runWrite(request, reply, async (trx) => ({
        status: 200,
        body: await invoices.settle(trx, accountId, request.params.id, auditBy(request)),
      }));
    },
  );

  app.post<{ Body: NewPayout }>(
    '/v1/payouts',
    protectedRoute(access('payouts:write'), {
      // On PostgreSQL the payout and its claim's completion are one statement (payout-statement.ts).
      config: { writesInOneStatement: true },
      schema: {
        tags: ['payouts'],
        operationId: 'createPayout',
        summary: 'Create a payout (state pending)',
        description: 'Takes the amount from the available balance in its currency at once; a larger amount answers 422 insufficient_funds.',
        headers: idempotencyHeader,
        body: newPayoutSchema,
        response: { 201: payoutSchema, ...errorResponses(400, 401, 403, 409, 415, 422, 429) },
      },
    }),
    async (request, reply) => {
      const { accountId } = principalOf(request);
      const sent = await writes.runWrite(request, reply, async (trx, completion) => {
        const answer = (payout: Payout) => ({ status: 201, body: payout, headers: { location: `/v1/payouts/${payout.id}` } });
        // The payout's statement completes the Idempotency-Key's claim itself where it can.
        const claim = completion && {
          inserting: completion.inserting,
          valuesFor: (payout: Payout) => completion.valuesFor(answer(payout)),
          lost: (seen?: IdempotencyRow) => completion.lost(seen),
        };
        return answer(await payouts.create(trx, accountId, request.body, auditBy(request), claim));
      });
      // Counted once committed, and not again when a retry replays it.
      if (reply.statusCode === 201 && reply.getHeader('idempotent-replay') === undefined) created?.inc({ from: 'none', to: 'pending' });
      return sent;
    },
  );

  app.get<{ Querystring: PageQuery & PayoutFilters }>(
    '/v1/payouts',
    protectedRoute(access('payouts:read'), {
      schema: {
        tags: ['payouts'],
        operationId: 'listPayouts',
        summary: 'List payouts, a page at a time',
        description: FILTERED_ORDER_NOTE,
        querystring: stateFilteredQuery(PAYOUT_STATES, 'payouts'),
        response: { 200: pageSchema(payoutSchema, 'A page of payouts'), ...errorResponses(400, 401, 403, 429) },
      },
    }),
    async (request, reply) => {
      const { limit, after, state, since, until } = request.query;
      const page = await payouts.listJson({ accountId: principalOf(request).accountId, limit, after, filters: { state, since, until } });
      return reply.type(PAGE_CONTENT_TYPE).send(page);
    },
  );

  app.get<{ Params: { id: string } }>(
    '/v1/payouts/:id',
    protectedRoute(access('payouts:read'), {
      schema: {
        tags: ['payouts'],
        operationId: 'getPayout',
        summary: 'Get a payout',
        params: idParams,
        response: { 200: payoutSchema, ...errorResponses(401, 403, 404, 429) },
      },
    }),
    async (request) => payouts.get(principalOf(request).accountId, request.params.id),
  );

  app.get(
    '/v1/balance',
    protectedRoute(access('payouts:read'), {
      schema: {
        tags: ['payouts'],
        operationId: 'getBalance',
        summary: 'The account\'s balance: what a payout may take now, and what pending payouts hold, by currency',
        response: { 200: balanceSchema, ...errorResponses(401, 403, 429) },
      },
    }),
    async (request, reply) => reply.type('application/json; charset=utf-8').send(await balance.readJson(principalOf(request).accountId)),
  );

  app.get<{ Querystring: PageQuery & LedgerFilters }>(
    '/v1/ledger/entries',
    protectedRoute(access('ledger:read'), {
      schema: {
        tags: ['ledger'],
        operationId: 'listLedgerEntries',
        summary: 'List ledger entries, a page at a time',
        description: FILTERED_ORDER_NOTE,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            ...pageQueryProperties,
            ledger_account: { type: 'string', enum: LEDGER_ACCOUNTS, description: 'Only entries of this ledger account' },
            direction: { type: 'string', enum: ['debit', 'credit'], description: 'Only debits or only credits' },
            currency: { ...currencySchema, description: 'Only entries in this currency: its ISO 4217 code, upper case (e.g. EUR)' },
            ...createdRangeQueryProperties,
          },
        },
        response: { 200: pageSchema(ledgerEntrySchema, 'A page of ledger entries'), ...errorResponses(400, 401, 403, 429) },
      },
    }),
    async (request, reply) => {
      const { limit, after, ledger_account, direction, currency, since, until } = request.query;
      const page = await ledgerEntries.listJson({
        accountId: principalOf(request).accountId,
        limit,
        after,
        filters: { ledger_account, direction, currency, since, until },
      });
      return reply.type(PAGE_CONTENT_TYPE).send(page);
    },
  );
}
