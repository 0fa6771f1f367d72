/**
 * Headers an endpoint's owner adds to every delivery (e.g. a credential their gateway checks).
 *
 * They are checked at registration: HTTP token names, visible ASCII values without line
 * breaks, at most MAX_HEADERS of them; names that carry the delivery's own meaning (its
 * signature, ids, body framing, the connection) are refused, and so are the `svix-*` names a
 * verifier would read as the signature's, so a custom header can never stand in for a signed
 * one. They are kept sealed like the secret (they often carry one), and read back with the
 * values of credential-like names withheld: those are shown only when set.
 */
import { problem } from '../platform/errors/catalogue.ts';
import type { Sealer } from './secrets.ts';

export type EndpointHeaders = Record<string, string>;

export const MAX_HEADERS = 20;
const MAX_NAME = 64;
const MAX_VALUE = 1024;
export const WITHHELD = '[withheld]';

/** RFC 9110 §5.6.2 token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 §5.5 field value, kept to visible ASCII and inner spaces. */
const VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/** What a delivery's meaning rests on, or what the HTTP client must own. */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'user-agent',
  'event-id',
  'delivery-id',
  'event-type',
  'timestamp',
  'signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
]);

/**
 * The svix library reads `svix-id`, `svix-timestamp` and `svix-signature` before the Standard
 * Webhooks headers of the same meaning: an own `svix-*` header would have a receiver verify
 * against it rather than against what Gatehouse signs. The whole family is refused, so that a name
 * it adds later is covered too.
 */
const SVIX_PREFIX = 'svix-';

// Names that say a credential (Authorization, X-Api-Key, X-Gateway-Credential, X-Bearer…): shown withheld.
const CREDENTIAL_LIKE = /auth|cookie|token|secret|key|pass|session|signature|cred|bearer|private|cert/i;

/** Throws `webhook_headers_invalid` naming the first header that cannot be sent. */
export function checkEndpointHeaders(headers: EndpointHeaders): EndpointHeaders {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const refuse = (why: string) => problem('webhook_headers_invalid', { detail: `header ${JSON.stringify(name)} ${why}` });
    if (name.length > MAX_NAME || !TOKEN.test(name)) throw refuse(`is not a valid header name (an HTTP token of at most ${MAX_NAME} characters)`);
    if (RESERVED.has(lower) || lower.startsWith('proxy-')) throw refuse('is set by Gatehouse on every delivery and cannot be replaced');
    if (lower.startsWith(SVIX_PREFIX)) throw refuse(`starts with ${SVIX_PREFIX}, which the svix verifier reads in place of the webhook-* headers Gatehouse signs`);
    if (seen.has(lower)) throw refuse('is given twice (header names are case-insensitive)');
    if (typeof value !== 'string' || value.length > MAX_VALUE || !VALUE.test(value)) {
      throw refuse(`must have a value of visible ASCII characters (inner spaces allowed), at most ${MAX_VALUE} long`);
    }
    seen.add(lower);
  }
  if (seen.size > MAX_HEADERS) throw problem('webhook_headers_invalid', { detail: `at most ${MAX_HEADERS} headers` });
  return headers;
}

/** Sealed for the one endpoint (a sealed box moved to another row, or column, does not open). */
export function sealHeaders(sealer: Sealer, endpointId: string, headers: EndpointHeaders): string | null {
  return Object.keys(headers).length === 0 ? null : sealer.seal(JSON.stringify(headers), `${endpointId}:headers`);
}

export function openHeaders(sealer: Sealer, endpointId: string, sealed: string | null): EndpointHeaders | undefined {
  if (sealed === null) return {};
  const opened = sealer.open(sealed, `${endpointId}:headers`);
  return opened === undefined ? undefined : (JSON.parse(opened) as EndpointHeaders);
}

/** The headers as the API shows them: credential-like values withheld. */
export function presentHeaders(headers: EndpointHeaders): EndpointHeaders {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_LIKE.test(name) ? WITHHELD : value]));
}
