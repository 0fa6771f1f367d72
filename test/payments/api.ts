/** Calls the /v1 API as an integrator would: bearer token, JSON, a fresh Idempotency-Key per POST. */
import { randomUUID } from 'node:crypto';
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.ts';
import { json, type Json } from '../helpers/http.ts';
import { createAccount, mintAccessToken } from '../helpers/fixtures.ts';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: Json;
}

export async function api(t: TestApp, token: string, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (method === 'POST') headers['idempotency-key'] = randomUUID();
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(t.publicUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, headers: response.headers, body: await json(response) };
}

export const ALL_SCOPES = ['invoices:read', 'invoices:write', 'payouts:read', 'payouts:write', 'ledger:read'];

/** A new account and a token carrying `scopes` (all payment scopes by default). */
export async function newTenant(t: TestApp, scopes: string[] = ALL_SCOPES): Promise<{ accountId: string; token: string }> {
  const accountId = await createAccount(t);
  return { accountId, token: await mintAccessToken(t, { accountId, scopes }) };
}

/** Creates and settles an invoice, giving the account `amount` of available balance. */
export async function fund(t: TestApp, token: string, amount: number, currency = 'EUR'): Promise<string> {
  const created = await api(t, token, 'POST', '/v1/invoices', { amount, currency });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const settled = await api(t, token, 'POST', `/v1/invoices/${created.body.id}/settle`);
  assert.equal(settled.status, 200, JSON.stringify(settled.body));
  return created.body.id as string;
}

/** Every page of a collection, following next_cursor until it is null. */
export async function readAll(t: TestApp, token: string, path: string, limit: number): Promise<{ rows: Json[]; pages: number }> {
  const rows: Json[] = [];
  let after: string | null = null;
  let pages = 0;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const url: string = `${path}${sep}limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
    const page = await api(t, token, 'GET', url);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    rows.push(...page.body.data);
    after = page.body.next_cursor;
    pages += 1;
  } while (after !== null);
  return { rows, pages };
}
