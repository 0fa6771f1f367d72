/**
 * What every fuzz suite shares: seeded, reproducible fast-check runs; a raw HTTP client that
 * sends exactly the bytes it is given (no URL or header normalisation, invalid UTF-8 allowed);
 * a digest of the stored state; and the checks that each protocol answers in its own shape.
 *
 * Runs are bounded for `npm test`; `npm run fuzz` multiplies them (FUZZ_RUNS). The seed is
 * fixed unless FUZZ_SEED is set, and a failure prints the seed and path that reproduce it.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Db } from '../../src/platform/db/database.ts';
import { PROBLEMS } from '../../src/platform/errors/catalogue.ts';
import { OAUTH_ERRORS } from '../../src/oauth/errors.ts';
import type { TestApp } from '../helpers/test-app.ts';

export const FUZZ_SEED = process.env.FUZZ_SEED === undefined ? 0x6a7e5eed : Number(process.env.FUZZ_SEED);
const MULTIPLIER = Math.max(1, Number(process.env.FUZZ_RUNS ?? 1) || 1);

/** fast-check parameters for a property: the fixed (or given) seed, `runs` times the multiplier. */
export function fuzzParameters(runs: number): fc.Parameters<unknown> {
  return { seed: FUZZ_SEED, numRuns: Math.ceil(runs * MULTIPLIER), endOnFailure: true };
}

/** Runs an async property; on failure the message names the seed, path and how to replay it. */
export async function fuzz<T>(arbitrary: fc.Arbitrary<T>, runs: number, predicate: (value: T) => Promise<void>): Promise<void> {
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), fuzzParameters(runs) as fc.Parameters<[T]>);
  if (details.failed) {
    const cause = details.errorInstance;
    const error = cause instanceof Error ? cause : new Error(String(cause));
    throw new Error(
      `fuzz property failed (seed ${details.seed}, path "${details.counterexamplePath}"; replay with FUZZ_SEED=${details.seed})\n` +
        `counterexample: ${fc.stringify(details.counterexample).slice(0, 1500)}\n${error.message.slice(0, 1500)}`,
      { cause: error },
    );
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: string;
  json(): unknown;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh connection (Connection: close), so the
 * target, header values and body reach the server unaltered.
 */
export function rawRequest(
  baseUrl: string,
  input: { method: string; target: string | Buffer; headers?: Array<[string, string | Buffer]>; body?: Buffer | string },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const body = input.body === undefined ? undefined : Buffer.isBuffer(input.body) ? input.body : Buffer.from(input.body, 'utf8');
  const parts: Buffer[] = [Buffer.from(`${input.method} `), Buffer.isBuffer(input.target) ? input.target : Buffer.from(input.target, 'latin1'), Buffer.from(' HTTP/1.1\r\n')];
  const headers: Array<[string, string | Buffer]> = [['host', url.host], ['connection', 'close'], ...(input.headers ?? [])];
  if (body !== undefined) headers.push(['content-length', String(body.length)]);
  for (const [name, value] of headers) parts.push(Buffer.from(`${name}: `), Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'), Buffer.from('\r\n'));
  parts.push(Buffer.from('\r\n'));
  if (body !== undefined) parts.push(body);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(20_000, () => socket.destroy(new Error('raw request timed out')));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    // No half-close: a server may treat the end of the request stream as the client going away.
    socket.write(Buffer.concat(parts));
  });
}

function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP response (${raw.length} bytes: ${raw.toString('latin1').slice(0, 200)})`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
  }
  let body = raw.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  const text = body.toString('utf8');
  return { status, headers, body, text, json: () => JSON.parse(text) };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(out);
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * A digest per table of everything stored: a refused request must leave every one unchanged.
 * Rows are read in a stable order and hashed, so an update is seen as well as an insert.
 */
export async function stateDigest(db: Db, tables: readonly StateTable[] = STATE_TABLES): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows;
    const lines = rows.map((r) => JSON.stringify(Object.keys(r).sort().map((k) => [k, r[k] === null ? null : String(r[k])]))).sort();
    out[table] = `${rows.length}:${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return out;
}

export const STATE_TABLES = [
  'accounts', 'users', 'access_tokens', 'oauth_clients', 'oauth_codes', 'oauth_grants', 'oauth_refresh_tokens',
  'oauth_revoked_tokens', 'oauth_sessions', 'oauth_consents', 'oauth_assertion_jtis', 'invoices', 'payouts',
  'ledger_entries', 'balances', 'idempotency_keys', 'scim_tokens', 'scim_groups', 'scim_group_members',
  'scim_user_values', 'roles', 'role_groups', 'events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_queue', 'webhook_attempts',
] as const;
export type StateTable = (typeof STATE_TABLES)[number];

/** Asserts that nothing stored changed, except the tables named in `allowed`. */
export function assertUnchanged(before: Record<string, string>, after: Record<string, string>, context: string, allowed: string[] = []): void {
  for (const table of Object.keys(before)) {
    if (allowed.includes(table)) continue;
    assert.equal(after[table], before[table], `${context}: table ${table} changed after a refused request`);
  }
}

/** Never a 5xx; the server still answers /healthz. */
export async function assertAlive(t: TestApp, response: RawResponse, context: string): Promise<void> {
  assert.ok(response.status >= 200 && response.status < 500, `${context}: status ${response.status}: ${response.text.slice(0, 300)}`);
  const health = await fetch(`${t.publicUrl}/healthz`);
  assert.equal(health.status, 200, `${context}: /healthz after the request answered ${health.status}`);
  await health.arrayBuffer();
}

const PROBLEM_CODES = new Set(Object.keys(PROBLEMS));
const OAUTH_CODES = new Set([...Object.keys(OAUTH_ERRORS), 'rate_limited']);
const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 9457 problem+json with a catalogued code whose status matches. */
export function assertProblem(response: RawResponse, context: string): Record<string, unknown> {
  assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/, `${context}: content-type ${response.headers['content-type']}: ${response.text.slice(0, 200)}`);
  const body = response.json() as Record<string, unknown>;
  assert.ok(PROBLEM_CODES.has(String(body.code)), `${context}: uncatalogued code ${String(body.code)}`);
  assert.equal(body.status, response.status, `${context}: body status differs`);
  assert.equal(PROBLEMS[body.code as keyof typeof PROBLEMS].status, response.status, `${context}: ${String(body.code)} with status ${response.status}`);
  assert.equal(typeof body.title, 'string');
  return body;
}

/** RFC 6749 §5.2: a JSON object whose `error` is a registered code, never cached. */
export function assertOAuthError(response: RawResponse, context: string): Record<string, unknown> {
  assert.match(response.headers['content-type'] ?? '', /^application\/json/, `${context}: content-type ${response.headers['content-type']}`);
  const body = response.json() as Record<string, unknown>;
  assert.ok(OAUTH_CODES.has(String(body.error)), `${context}: unregistered error ${String(body.error)}`);
  assert.equal(response.headers['cache-control'], 'no-store', `${context}: error not marked no-store`);
  if (body.error === 'invalid_client') assert.equal(response.status, 401, `${context}: invalid_client must be 401`);
  else if (body.error !== 'rate_limited') assert.equal(response.status, 400, `${context}: ${String(body.error)} with ${response.status}`);
  return body;
}

/** RFC 7644 §3.12: the Error schema, status as a string equal to the HTTP status. */
export function assertScimError(response: RawResponse, context: string): Record<string, unknown> {
  assert.match(response.headers['content-type'] ?? '', /^application\/scim\+json/, `${context}: content-type ${response.headers['content-type']}`);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(body.schemas, [SCIM_ERROR], `${context}: not a SCIM Error: ${response.text.slice(0, 200)}`);
  assert.equal(body.status, String(response.status), `${context}: status differs`);
  if (body.scimType !== undefined) assert.ok([400, 409].includes(response.status), `${context}: scimType on ${response.status}`);
  return body;
}

// ---- Arbitraries -------------------------------------------------------------------------

/** Strings an attacker would try: control characters, NUL, lone surrogates, long runs, separators. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '', ' ', '\u0000', '\u0000abc', '%00', '%', '%zz', '%E0%A4%A', '\uD800', '\uDFFF\uD800', '\r\n', '\t', '..', '../../etc/passwd',
    "' or 1=1 --", '"; drop table users; --', '<script>alert(1)</script>', '${jndi:x}', '__proto__', 'constructor', 'prototype',
    'null', 'undefined', 'NaN', '-1', '0', '1e309', '9'.repeat(400), 'a'.repeat(5000), '\u202e', '\uFEFF', '😀',
  ),
);

/** JSON values of every kind, including ones that stress parsers and type checks. */
export const nastyJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { maxDepth: 3 },
  fc.jsonValue({ maxDepth: 3 }),
  nastyString,
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53, 2 ** 63, Number.MIN_VALUE, 0.5, true, false, null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 5 }),
);

/** Raw JSON text: deep nesting, huge numbers, duplicate and prototype keys, broken syntax. */
export function nastyJsonText(validBase: Record<string, unknown>): fc.Arbitrary<Buffer> {
  const keys = Object.keys(validBase).length > 0 ? Object.keys(validBase) : ['amount'];
  const text = fc.oneof(
    // The valid body with one field replaced by a value of the wrong kind.
    fc.tuple(fc.constantFrom(...keys, 'extra', '__proto__', 'constructor'), nastyJsonValue).map(([k, v]) => JSON.stringify({ ...validBase, [k]: v })),
    // A prototype-pollution attempt in the raw text (JSON.stringify would drop __proto__).
    fc.constantFrom(
      `{"__proto__":{"polluted":true}${JSON.stringify(validBase).slice(1).replace(/^(?!})/, ',')}`,
      `{"constructor":{"prototype":{"polluted":true}}${JSON.stringify(validBase).slice(1).replace(/^(?!})/, ',')}`,
    ),
    // Duplicate keys: the last one wins or the request is refused, never both values.
    fc.tuple(fc.constantFrom(...keys), nastyJsonValue).map(([k, v]) => `${JSON.stringify(validBase).slice(0, -1)},${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}}`),
    // Deep nesting.
    fc.integer({ min: 100, max: 5000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
    fc.integer({ min: 100, max: 5000 }).map((depth) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
    // Huge and odd numbers.
    fc.constantFrom('1e999999', '-1e999999', '123456789012345678901234567890', '0.' + '0'.repeat(500) + '1', '-0', '1E+2').map((n) =>
      JSON.stringify({ ...validBase, amount: 0 }).replace('"amount":0', `"amount":${n}`),
    ),
    // Not JSON at all, or truncated.
    fc.string({ maxLength: 60 }),
    fc.integer({ min: 1, max: 30 }).map((cut) => JSON.stringify(validBase).slice(0, cut)),
    fc.constantFrom('', 'null', '[]', '"text"', '42', 'true', '{}', '{"a":1,}', "{'a':1}", '{"a":NaN}', '\uFEFF{}'),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  );
  return fc.oneof(
    { weight: 6, arbitrary: text.map((s) => Buffer.from(s, 'utf8')) },
    // Invalid UTF-8: bytes no encoder produces, spliced into an otherwise valid body.
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), fc.uint8Array({ minLength: 1, maxLength: 8 }).map((b) => Buffer.from(b.map((x) => x | 0x80))))
        .map(([key, bad]) => {
          const marker = 'INVALIDBYTES';
          const text = JSON.stringify({ ...validBase, [key]: marker });
          const [head, tail] = text.split(marker) as [string, string];
          return Buffer.concat([Buffer.from(head), bad, Buffer.from(tail)]);
        }),
    },
  );
}

/** Header values that HTTP allows to reach the server (visible ASCII, spaces, obs-text bytes). */
export const headerValue: fc.Arbitrary<Buffer> = fc.oneof(
  fc.string({ maxLength: 300 }).map((s) => Buffer.from(s.replace(/[\r\n\0]/g, ''), 'latin1')),
  fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from([...b].filter((x) => x === 9 || (x >= 32 && x !== 127)))),
  fc.constantFrom('', ' ', 'a'.repeat(256), 'a'.repeat(300), 'key with spaces', '\u00e9t\u00e9', 'k\u00ff').map((s) => Buffer.from(s, 'latin1')),
);

/** Percent-encodes every byte of the string's UTF-8 form except unreserved characters (lone surrogates too). */
export function formEncode(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A query or form value as an attacker writes it: encoded, half-encoded, or raw bytes. */
export const formValue: fc.Arbitrary<string> = fc.oneof(
  nastyString.map(formEncode),
  fc.constantFrom('%', '%2', '%zz', '%C0%AF', '%ED%A0%80', '%FF%FE', '+', '%2B', '%00', '&', '=', '==', 'a=b=c'),
  fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x21-\x7e]/g, '')),
);

/** A query string or form body built from parameters (repeated names allowed). */
export function formOf(names: readonly string[], fixed: Record<string, string> = {}): fc.Arbitrary<string> {
  const fixedPairs = Object.entries(fixed).map(([k, v]) => `${k}=${formEncode(v)}`);
  return fc
    .array(fc.tuple(names.length > 0 ? fc.oneof(fc.constantFrom(...names), nastyString.map(formEncode)) : nastyString.map(formEncode), formValue), { maxLength: names.length > 0 ? 8 : 0 })
    .chain((pairs) =>
      fc.shuffledSubarray(fixedPairs, { minLength: 0, maxLength: fixedPairs.length }).map((kept) => [...kept, ...pairs.map(([k, v]) => `${k}=${v}`)].join('&')),
    );
}
