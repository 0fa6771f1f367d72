/**
 * A typed client of the Gatehouse APIs: openapi-fetch over the types generated from the API
 * documents (public.d.ts, admin.d.ts; regenerate with npm run openapi). Paths, parameters,
 * bodies and answers are checked by the compiler against the documents the server publishes.
 *
 *   const gatehouse = createGatehouseClient({ baseUrl: 'https://gatehouse.acme.test', token });
 *   const { data, error } = await gatehouse.POST('/v1/invoices', {
 *     params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
 *     body: { amount: 1250, currency: 'EUR' },
 *   });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './public.d.ts';
import type { paths as adminPaths } from './admin.d.ts';

export type { paths, components, operations } from './public.d.ts';
export type { paths as adminPaths, components as adminComponents, operations as adminOperations } from './admin.d.ts';

export interface ClientOptions {
  baseUrl: string;
  /** An access token (or, for /scim/v2, a SCIM token), sent as Authorization: Bearer. */
  token?: string;
  fetch?: typeof fetch;
}

function headersOf(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** The public API: OAuth 2.0 endpoints, /v1 and /scim/v2. */
export function createGatehouseClient(options: ClientOptions): Client<paths> {
  return createClient<paths>({ baseUrl: options.baseUrl, headers: headersOf(options.token), fetch: options.fetch });
}

/** The admin API, with the operator's admin token. */
export function createGatehouseAdminClient(options: ClientOptions): Client<adminPaths> {
  return createClient<adminPaths>({ baseUrl: options.baseUrl, headers: headersOf(options.token), fetch: options.fetch });
}
