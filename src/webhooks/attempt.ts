/**
 * One POST to a receiver (interface endpoint 10). Only a 2xx acknowledges; a redirect is a
 * failure and is never followed (it could lead anywhere, including inside the network).
 * The attempt is bounded by the per-attempt timeout (to connect, to the response headers,
 * and between body chunks); connection errors, resets and
 * timeouts are failures like any non-2xx. The response is kept only as a short excerpt.
 */
import net from 'node:net';
import { request, type Agent } from 'undici';
import type { TargetPolicy } from './target-policy.ts';
import { hostnameOf } from './target-policy.ts';

export const RESPONSE_EXCERPT_BYTES = 1024;
const READ_LIMIT_BYTES = 64 * 1024;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  retryAfter: string | undefined;
  excerpt: string | null;
  error: string | null;
  latencyMs: number;
}

export async function postOnce(input: {
  agent: Agent;
  policy: TargetPolicy;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const url = new URL(input.url);
    // A literal address never goes through the guarded lookup, so check it here.
    const host = hostnameOf(url);
    if (net.isIP(host)) input.policy.checkAddress(host);
    const response = await request(url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      dispatcher: input.agent,
      headersTimeout: input.timeoutMs,
      bodyTimeout: input.timeoutMs,
    });
    const excerpt = await readExcerpt(response.body);
    const retryAfter = response.headers['retry-after'];
    return {
      ok: response.statusCode >= 200 && response.statusCode < 300,
      status: response.statusCode,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      excerpt,
      error: null,
      latencyMs: elapsed(),
    };
  } catch (error) {
    return { ok: false, status: null, retryAfter: undefined, excerpt: null, error: describe(error, input.timeoutMs), latencyMs: elapsed() };
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
    size += chunk.length;
    if (size > READ_LIMIT_BYTES) {
      body.destroy();
      break;
    }
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

function describe(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timeout: no response within ${timeoutMs} ms`;
  }
  if (e.code === 'EREFUSEDTARGET' || e.cause?.code === 'EREFUSEDTARGET' || e.constructor?.name === 'RefusedTarget') {
    return `refused: ${e.message ?? e.cause?.message}`;
  }
  const code = e.code ?? e.cause?.code;
  return `${code ? `${code}: ` : ''}${(e.message ?? String(error)).slice(0, 200)}`;
}
