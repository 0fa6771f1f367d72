/**
 * One POST to a receiver (interface endpoint 10). Only a 2xx acknowledges; a redirect is a
 * failure and is never followed (it could lead anywhere, including inside the network).
 * The whole attempt, from its dispatch to the end of the response, is bounded by the
 * per-attempt timeout; undici's own timers (to connect, to the response headers, between body
 * chunks) are restarted by every interim 1xx answer and every body chunk, so a receiver that
 * trickles them would otherwise hold the attempt, its slot and its lease indefinitely. An
 * attempt cut off at the deadline is a failure even when a 2xx status had arrived: the
 * event is sent again, as after any lost response. Connection errors, resets and timeouts are
 * failures like any non-2xx. The response is kept only as a short excerpt.
 *
 * It goes through the agent's `dispatch` with a handler of its own rather than `request`:
 * the answer is a status, one header and at most an excerpt, so there is no use for a
 * response stream, and skipping it roughly halves the client's CPU per attempt.
 */
import net from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import type { TargetPolicy } from './target-policy.ts';
import { hostnameOf } from './target-policy.ts';

export const RESPONSE_EXCERPT_BYTES = 1024;
const READ_LIMIT_BYTES = 64 * 1024;
/** The code of the error that ends an attempt at the per-attempt timeout. */
const ATTEMPT_TIMEOUT = 'EATTEMPTTIMEOUT';
/** Errors that mean the receiver took too long: ours, and undici's to connect, to the headers, between body chunks. */
const TIMEOUT_CODES = new Set([ATTEMPT_TIMEOUT, 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  retryAfter: string | undefined;
  excerpt: string | null;
  error: string | null;
  latencyMs: number;
}

/** A receiver URL taken apart once, for every attempt at it. */
interface Target {
  origin: string;
  path: string;
  /** Why the policy refuses it (an IP literal outside the allowed networks), if it does. */
  refused: unknown;
}

export interface Targets {
  /** Throws when `url` is not an absolute URL or its literal address is refused. */
  of(url: string): Target;
}

/**
 * Parsed receiver URLs by text (a changed URL is another entry), bounded. A literal address
 * never goes through the guarded lookup, so it is checked here: once per URL, as the policy
 * is fixed for the life of the process and a literal always names the same address.
 */
export function createTargets(policy: TargetPolicy, max = 1000): Targets {
  const parsed = new Map<string, Target>();
  return {
    of(url) {
      let target = parsed.get(url);
      if (target === undefined) {
        const u = new URL(url);
        const host = hostnameOf(u);
        target = { origin: u.origin, path: `${u.pathname}${u.search}`, refused: undefined };
        try {
          if (net.isIP(host)) policy.checkAddress(host);
        } catch (error) {
          target.refused = error;
        }
        if (parsed.size >= max) parsed.clear();
        parsed.set(url, target);
      }
      if (target.refused !== undefined) throw target.refused;
      return target;
    },
  };
}

export function postOnce(input: {
  agent: Agent;
  targets: Targets;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
}): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const answer = new Answer(input.timeoutMs, resolve);
    answer.startDeadline();
    try {
      const target = input.targets.of(input.url);
      input.agent.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers: input.headers,
          body: input.body,
          headersTimeout: input.timeoutMs,
          bodyTimeout: input.timeoutMs,
        },
        answer,
      );
    } catch (error) {
      answer.failed(error);
    }
  });
}

/** Collects the receiver's answer as the agent reports it, and settles once. */
class Answer implements Dispatcher.DispatchHandler {
  readonly #started = performance.now();
  readonly #timeoutMs: number;
  readonly #resolve: (result: AttemptResult) => void;
  #settled = false;
  #deadline: NodeJS.Timeout | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #status = 0;
  #retryAfter: string | undefined;
  readonly #chunks: Buffer[] = [];
  #size = 0;

  constructor(timeoutMs: number, resolve: (result: AttemptResult) => void) {
    this.#timeoutMs = timeoutMs;
    this.#resolve = resolve;
  }

  /** Ends the attempt as a timeout once the per-attempt timeout has passed, whatever is still arriving. */
  startDeadline(): void {
    this.#deadline = setTimeout(() => {
      const error = Object.assign(new Error(`no complete response within ${this.#timeoutMs} ms`), { code: ATTEMPT_TIMEOUT });
      this.failed(error);
      this.#controller?.abort(error);
    }, this.#timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    // Settled before the request started (the deadline passed while it waited): it goes no further.
    if (this.#settled) controller.abort(new Error('the attempt is over'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // 1xx informational answers come before the final one.
    if (statusCode < 200) return;
    this.#status = statusCode;
    const value = headers['retry-after'];
    this.#retryAfter = Array.isArray(value) ? value[0] : value;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#size < RESPONSE_EXCERPT_BYTES) this.#chunks.push(chunk);
    this.#size += chunk.length;
    if (this.#size > READ_LIMIT_BYTES) {
      // Enough is known; the rest of an oversized answer is not read.
      this.onResponseEnd();
      controller.abort(new Error('response longer than the read limit'));
    }
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#deadline);
    const status = this.#status;
    this.#resolve({
      ok: status >= 200 && status < 300,
      status,
      retryAfter: this.#retryAfter,
      excerpt: excerptOf(this.#chunks, this.#size),
      error: null,
      latencyMs: this.#elapsed(),
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.failed(error);
  }

  failed(error: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#deadline);
    this.#resolve({ ok: false, status: null, retryAfter: undefined, excerpt: null, error: describe(error, this.#timeoutMs), latencyMs: this.#elapsed() });
  }

  #elapsed(): number {
    return Math.round(performance.now() - this.#started);
  }
}

function excerptOf(chunks: Buffer[], size: number): string | null {
  if (size === 0) return null;
  const head = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  // PostgreSQL text cannot hold NUL, and an excerpt is for reading.
  return head.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replaceAll('\0', '\uFFFD');
}

/** Shorter values are not looked for: they would match ordinary words and are no credential. */
const MIN_ECHOED_LENGTH = 6;
const ECHO_REDACTED = '[redacted]';

/** The ways an error page writes a value back: as sent, JSON-escaped, HTML-escaped (named or numbered), base64. */
function echoedForms(value: string): Set<string> {
  const html = (quote: string, apostrophe: string) =>
    value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', quote).replaceAll("'", apostrophe);
  const base64 = Buffer.from(value, 'utf8').toString('base64');
  return new Set([value, JSON.stringify(value).slice(1, -1), html('&quot;', '&#39;'), html('&#34;', '&#x27;'), base64, base64.replace(/=+$/, '')]);
}

/**
 * The excerpt without what the delivery carried that may be a credential (see
 * `credentialsSent`), should the receiver's answer echo the request back: excerpts are stored
 * in clear and shown on the API. Each value goes in every form an error page writes it in
 * (`echoedForms`), and so does the start of one that the excerpt's end cuts short.
 */
export function withoutEchoes(excerpt: string, values: readonly string[]): string {
  let out = excerpt;
  for (const value of values) {
    if (value.length < MIN_ECHOED_LENGTH) continue;
    for (const form of echoedForms(value)) {
      out = out.replaceAll(form, ECHO_REDACTED);
      for (let cut = Math.min(form.length - 1, out.length); cut >= MIN_ECHOED_LENGTH; cut--) {
        if (out.endsWith(form.slice(0, cut))) {
          out = out.slice(0, out.length - cut) + ECHO_REDACTED;
          break;
        }
      }
    }
  }
  return out;
}

/** What a delivery to `url` with the endpoint's own `headers` sends that may be a credential. */
export function credentialsSent(url: string, headers: Record<string, string> | undefined): string[] {
  const values = headers === undefined ? [] : Object.values(headers);
  const query = url.indexOf('?');
  if (query >= 0) {
    for (const pair of url.slice(query + 1).split('#', 1)[0]!.split('&')) {
      const value = pair.slice(pair.indexOf('=') + 1);
      if (pair.includes('=') && value !== '') values.push(value, ...decoded(value));
    }
  }
  return values;
}

function decoded(value: string): string[] {
  try {
    const plain = decodeURIComponent(value.replaceAll('+', ' '));
    return plain === value ? [] : [plain];
  } catch {
    return [];
  }
}

function describe(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.code !== undefined && TIMEOUT_CODES.has(e.code)) {
    return `timeout: no response within ${timeoutMs} ms`;
  }
  if (e.code === 'EREFUSEDTARGET' || e.cause?.code === 'EREFUSEDTARGET' || e.constructor?.name === 'RefusedTarget') {
    return `refused: ${e.message ?? e.cause?.message}`;
  }
  const code = e.code ?? e.cause?.code;
  return `${code ? `${code}: ` : ''}${(e.message ?? String(error)).slice(0, 200)}`;
}
