/** Calls of the idempotency probe route as an integrator's client makes them. */
import type { Json } from './http.ts';

export interface ProbeCall {
  token: string;
  /** null: send no Idempotency-Key header */
  key: string | null;
  body?: unknown;
  /** Exact body text, to test spelling (key order, whitespace) that JSON.stringify would normalise. */
  rawBody?: string;
  bucket?: string;
  headers?: Record<string, string>;
}

export interface ProbeResponse {
  status: number;
  headers: Headers;
  /** The body exactly as received. */
  text: string;
  body: Json;
  replayed: boolean;
}

export const PROBE_BODY = { amount: 1250, currency: 'EUR', destination: 'acct_dest_1', metadata: { order: 'A-1', batch: '7' } };

export async function callProbe(baseUrl: string, call: ProbeCall): Promise<ProbeResponse> {
  const response = await fetch(`${baseUrl}/v1/idempotency-probe/${call.bucket ?? 'main'}/effects`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${call.token}`,
      'content-type': 'application/json',
      ...(call.key === null ? {} : { 'idempotency-key': call.key }),
      ...call.headers,
    },
    body: call.rawBody ?? JSON.stringify(call.body ?? PROBE_BODY),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text ? JSON.parse(text) : undefined,
    replayed: response.headers.get('idempotent-replay') === 'true',
  };
}
