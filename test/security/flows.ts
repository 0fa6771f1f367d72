/** A tenant with one of everything, made through the public and admin APIs as a customer would. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';
import { bearerCall, json, type Json } from '../helpers/http.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { Browser, authorizePath, basic, consent, createUser, postForm, redirectParams, registerClient, signIn } from '../oauth/helpers.ts';
import { GROUP, USER } from '../scim/scim-client.ts';
import { sha256Base64Url } from '../../src/platform/crypto.ts';

export const REDIRECT = 'https://app.example/callback';
export const ALL_SCOPES = ['invoices:read', 'invoices:write', 'payouts:read', 'payouts:write', 'ledger:read', 'events:read', 'webhooks:manage'];

export interface Tenant {
  accountId: string;
  token: string;
  scimToken: string;
  client: { client_id: string; client_secret: string };
  userName: string;
  password: string;
  /** Tokens from the code flow (a user is present): access, refresh, and the code redeemed. */
  userTokens: { access_token: string; refresh_token: string; code: string };
  clientToken: string;
  invoiceId: string;
  openInvoiceId: string;
  payoutId: string;
  eventId: string;
  endpoint: { id: string; secret: string };
  scimUserId: string;
  scimGroupId: string;
  csrf: string;
  session: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: Json }>;
  scim(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: Json }>;
}

export const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';

/** Signs in and consents in a browser, and redeems the code: the whole authorization code flow. */
export async function codeFlow(t: TestApp, client: { client_id: string; client_secret: string }, userName: string, password: string, scope = 'invoices:read') {
  const browser = new Browser(t.publicUrl);
  let page = await browser.get(authorizePath({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, scope, state: 'st', code_challenge: sha256Base64Url(VERIFIER), code_challenge_method: 'S256' }));
  assert.equal(page.status, 200);
  page = await signIn(browser, page, userName, password);
  if (page.status === 200) page = await consent(browser, page);
  assert.equal(page.status, 303, page.html);
  const code = redirectParams(page).get('code')!;
  const redeemed = await postForm(`${t.publicUrl}/token`, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER }, { authorization: basic(client.client_id, client.client_secret) });
  assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
  return { code, access_token: redeemed.body.access_token as string, refresh_token: redeemed.body.refresh_token as string, browser };
}

export async function createTenant(t: TestApp, name: string, receiverUrl = 'http://127.0.0.1:9/hook'): Promise<Tenant> {
  const accountId = await createAccount(t, name);
  const token = await mintAccessToken(t, { accountId, scopes: ALL_SCOPES });
  const api = (method: string, path: string, body?: unknown) => bearerCall(t.publicUrl, token, method, path, body);
  const issued = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'IdP' });
  assert.equal(issued.status, 201);
  const scimToken = issued.body.token as string;
  const scim = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${t.publicUrl}/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${scimToken}`, ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: await json(response) };
  };

  const client = await registerClient(t, accountId, { client_name: `${name} app`, redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token', 'client_credentials'], scope: 'invoices:read ledger:read' });
  const userName = `${name.toLowerCase()}-user`;
  const password = `pw-${randomUUID()}`;
  await createUser(t, accountId, userName, password);
  const flow = await codeFlow(t, client, userName, password);
  const cc = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials', scope: 'invoices:read' }, { authorization: basic(client.client_id, client.client_secret) });
  assert.equal(cc.status, 200);

  const endpoint = await api('POST', '/v1/webhook_endpoints', { url: receiverUrl, event_types: ['*'] });
  assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
  const invoice = await api('POST', '/v1/invoices', { amount: 10_000, currency: 'EUR' });
  assert.equal((await api('POST', `/v1/invoices/${invoice.body.id}/settle`)).status, 200);
  const open = await api('POST', '/v1/invoices', { amount: 700, currency: 'EUR' });
  const payout = await api('POST', '/v1/payouts', { amount: 2500, currency: 'EUR', destination: 'acct_dest_1' });
  assert.equal(payout.status, 201, JSON.stringify(payout.body));
  const events = await api('GET', '/v1/events?limit=1');
  const scimUser = await scim('POST', '/Users', { schemas: [USER], userName: `${name.toLowerCase()}@example.com`, externalId: `ext-${name}`, name: { givenName: name, familyName: 'X' } });
  assert.equal(scimUser.status, 201);
  const scimGroup = await scim('POST', '/Groups', { schemas: [GROUP], displayName: `${name} payers`, members: [{ value: scimUser.body.id }] });
  assert.equal(scimGroup.status, 201);

  return {
    accountId, token, scimToken, client, userName, password,
    userTokens: { access_token: flow.access_token, refresh_token: flow.refresh_token, code: flow.code },
    clientToken: cc.body.access_token,
    invoiceId: invoice.body.id, openInvoiceId: open.body.id, payoutId: payout.body.id, eventId: events.body.data[0].id,
    endpoint: { id: endpoint.body.id, secret: endpoint.body.secret },
    scimUserId: scimUser.body.id, scimGroupId: scimGroup.body.id,
    csrf: flow.browser.cookies.get('gh_csrf')!, session: flow.browser.cookies.get('gh_session')!,
    api, scim,
  };
}
