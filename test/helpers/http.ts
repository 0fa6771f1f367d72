/** Small fetch helpers for tests: JSON bodies are read as `any` so assertions can walk them. */
import { randomUUID } from 'node:crypto';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function json(response: Response): Promise<Json> {
  const text = await response.text();
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * One call to the public API as an integrator makes it: a bearer token, a fresh Idempotency-Key
 * on every POST (a new logical operation each time), a JSON body when there is one.
 */
export async function bearerCall(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await json(response) };
}
