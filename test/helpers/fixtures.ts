/**
 * Fixtures made through the real service: accounts through the admin API, access tokens
 * through the real token store (the same rows and verification a granted token has).
 */
import assert from 'node:assert/strict';
import type { TestApp } from './test-app.ts';

export async function createAccount(t: TestApp, name = 'Test account'): Promise<string> {
  const response = await t.admin('POST', '/admin/v1/accounts', { name });
  assert.equal(response.status, 201);
  return response.body.id as string;
}

/**
 * The client a minted token names unless told: one per account, as every account's own
 * integration is a client of its own (API rate limits are counted per client).
 */
export const testClientOf = (accountId: string): string => `test-client-${accountId}`;

export async function mintAccessToken(
  t: TestApp,
  input: { accountId: string; scopes: string[]; clientId?: string; userId?: string | null },
): Promise<string> {
  const issued = await t.gatehouse.services.accessTokens.issue({
    accountId: input.accountId,
    clientId: input.clientId ?? testClientOf(input.accountId),
    userId: input.userId ?? null,
    scopes: input.scopes,
    ttlSeconds: 3600,
  });
  return issued.token;
}

/** A logo for an account's sign-in pages: the smallest PNG, one transparent pixel, as a data: URI. */
export const PNG_PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
