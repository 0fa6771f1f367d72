/**
 * Admin routes for accounts: create, list (cursor paging), get, update (name and sign-in
 * branding), and close (DELETE; see closing.ts for what it means).
 */
import type { FastifyInstance } from 'fastify';
import { auditBy } from '../audit/index.ts';
import type { Accounts, AccountPatch } from './service.ts';
import type { AccountState } from './store.ts';
import type { Paging } from '../paging/page.ts';
import { pageQueryProperties, pageSchema } from '../paging/page.ts';
import { errorResponses } from '../platform/http/schemas.ts';
import { component } from '../platform/http/openapi-components.ts';
import { COLOR_PATTERN, LOGO_MAX_BYTES, LOGO_MAX_LENGTH, LOGO_TYPES } from './branding.ts';

const brandColor = {
  type: ['string', 'null'],
  pattern: COLOR_PATTERN,
  description: 'The sign-in pages\' brand colour, #rrggbb (buttons and the top bar; their text is black or white, whichever contrasts more); null for the default',
  examples: ['#0b5fff'],
} as const;
const logo = {
  type: ['string', 'null'],
  maxLength: LOGO_MAX_LENGTH,
  description: `The logo shown on the sign-in pages, as a data: URI (${LOGO_TYPES.join(', ')}; at most ${LOGO_MAX_BYTES} bytes of image), carried by the page itself so the browser fetches nothing from elsewhere; null for none`,
  examples: ['data:image/png;base64,iVBORw0KGgo…'],
} as const;

const accountSchema = component('Account', {
  type: 'object',
  required: ['id', 'object', 'name', 'brand_color', 'logo', 'created_at', 'updated_at', 'closed_at'],
  properties: {
    id: { type: 'string', examples: ['acct_4fJ1tX9v0QmB7dP2sK8r'] },
    object: { type: 'string', const: 'account' },
    name: { type: 'string', description: 'Shown on the sign-in, consent and sign-out pages' },
    brand_color: brandColor,
    logo,
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: ['string', 'null'], format: 'date-time' },
    closed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the account was closed (DELETE); null while it is open' },
  },
} as const);

const params = { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 64 } } } as const;
const name = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;

export function registerAccountRoutes(app: FastifyInstance, deps: { accounts: Accounts; paging: Paging; forgetClientsOf: (accountId: string) => void }): void {
  const { accounts, paging } = deps;

  app.post<{ Body: { name: string } }>(
    '/admin/v1/accounts',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'createAccount',
        summary: 'Create an account (a tenant)',
        body: { type: 'object', required: ['name'], additionalProperties: false, properties: { name } },
        response: { 201: accountSchema, ...errorResponses(400, 401, 415) },
      },
    },
    async (request, reply) => {
      const account = await accounts.create(request.body, auditBy(request));
      reply.code(201).header('location', `/admin/v1/accounts/${account.id}`);
      return account;
    },
  );

  app.get<{ Querystring: { limit?: number; after?: string; state?: AccountState } }>(
    '/admin/v1/accounts',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'listAccounts',
        summary: 'List the open accounts (or with state=closed the closed ones), newest first, page by page (cursor)',
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { ...pageQueryProperties, state: { type: 'string', enum: ['open', 'closed'], default: 'open', description: 'Which accounts: open (the default) or closed' } },
        },
        response: { 200: pageSchema(accountSchema, 'A page of accounts'), ...errorResponses(400, 401) },
      },
    },
    async (request) => accounts.list(paging, request.query),
  );

  app.get<{ Params: { id: string } }>(
    '/admin/v1/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'getAccount',
        summary: 'Get an account, open or closed (a closed account has closed_at set; every other route of it answers 404 account_not_found)',
        params,
        response: { 200: accountSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => accounts.get(request.params.id),
  );

  app.patch<{ Params: { id: string }; Body: AccountPatch }>(
    '/admin/v1/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'updateAccount',
        summary: 'Change an account\'s name or the branding of its sign-in pages (the fields given; null removes the colour or logo)',
        params,
        body: { type: 'object', additionalProperties: false, minProperties: 1, properties: { name, brand_color: brandColor, logo } },
        response: { 200: accountSchema, ...errorResponses(400, 401, 404, 415) },
      },
    },
    async (request) => accounts.update(request.params.id, request.body, auditBy(request)),
  );

  app.delete<{ Params: { id: string } }>(
    '/admin/v1/accounts/:id',
    {
      schema: {
        tags: ['accounts'],
        operationId: 'deleteAccount',
        summary:
          'Close an account: refused (409) while it holds an available balance or pending payouts; otherwise its clients, tokens, sessions, people and SCIM tokens go, its webhook endpoints are disabled (disabled_reason account_closed), and its ledger, payouts, invoices, events and audit trail are kept',
        params,
        response: { 204: { type: 'null', description: 'Closed' }, ...errorResponses(401, 404, 409) },
      },
    },
    async (request, reply) => {
      await accounts.close(request.params.id, auditBy(request));
      // Its clients are gone: this node's token endpoint forgets them now, not in a second.
      deps.forgetClientsOf(request.params.id);
      reply.code(204).send();
    },
  );
}
