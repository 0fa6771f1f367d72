/** A SCIM client for tests: an account, a SCIM token from the admin API, and JSON requests. */
import assert from 'node:assert/strict';
import { createAccount } from '../helpers/fixtures.ts';
import { json, type Json } from '../helpers/http.ts';
import type { TestApp } from '../helpers/test-app.ts';

export interface ScimClient {
  accountId: string;
  token: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: Json }>;
}

export async function scimClient(t: TestApp, name = 'Directory'): Promise<ScimClient> {
  const accountId = await createAccount(t, name);
  const issued = await t.admin('POST', `/admin/v1/accounts/${accountId}/scim-tokens`, { description: 'IdP' });
  assert.equal(issued.status, 201);
  const token = issued.body.token as string;
  return {
    accountId,
    token,
    async call(method, path, body, headers = {}) {
      const response = await fetch(`${t.publicUrl}/scim/v2${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, body: await json(response) };
    },
  };
}

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
