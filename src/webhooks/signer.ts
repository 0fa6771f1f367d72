/**
 * The signature headers of one attempt.
 *
 * - `Signature: sha256=<hex>`: HMAC-SHA256 over the exact body bytes, keyed by the secret
 *   string exactly as shown to the user (so `verify(secret, body, header)` of
 *   @octokit/webhooks-methods works unchanged). During a rotation overlap it carries the new
 *   secret's signature: a receiver that has switched verifies at once.
 * - Standard Webhooks: `webhook-signature: v1,<base64>` over `<webhook-id>.<webhook-timestamp>.<body>`,
 *   keyed by the base64-decoded part of `whsec_…`; during an overlap one `v1,` signature per
 *   secret, space-separated, as that spec allows. `webhook-timestamp` is the moment of the
 *   attempt (stock verifiers refuse stale ones), while `Timestamp` stays the moment the event
 *   was raised, the same on every attempt.
 */
import { toRfc3339 } from '../platform/clock.ts';
import { hmacSha256, hmacSha256Key, type HmacSha256Key } from '../platform/crypto.ts';

/** The HMAC keys of one secret, prepared once and used for every body it signs. */
export interface SigningKey {
  /** The secret string's bytes, for `Signature`. */
  signature: HmacSha256Key;
  /** The base64-decoded part of `whsec_…`, for `webhook-signature`. */
  standard: HmacSha256Key;
}

export function signingKey(secret: string): SigningKey {
  const standard = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return { signature: hmacSha256Key(Buffer.from(secret, 'utf8')), standard: hmacSha256Key(standard) };
}

export interface SignInput {
  eventId: string;
  deliveryId: string;
  eventType: string;
  /** The exact bytes sent. */
  body: Buffer;
  raisedAt: number;
  attemptAt: number;
  /** Newest first; every one signs the Standard Webhooks header. */
  keys: readonly SigningKey[];
}

export function signatureHeaders(input: SignInput): Record<string, string> {
  const [current] = input.keys;
  if (current === undefined) throw new Error('an endpoint always has a secret');
  const timestamp = Math.floor(input.attemptAt / 1000).toString();
  const prefix = `${input.eventId}.${timestamp}.`;
  let standard = '';
  for (const key of input.keys) {
    const mac = hmacSha256(key.standard, [prefix, input.body], 'base64');
    standard = standard === '' ? `v1,${mac}` : `${standard} v1,${mac}`;
  }
  return {
    'content-type': 'application/json',
    'event-id': input.eventId,
    'delivery-id': input.deliveryId,
    'event-type': input.eventType,
    timestamp: toRfc3339(input.raisedAt),
    signature: `sha256=${hmacSha256(current.signature, input.body, 'hex')}`,
    'webhook-id': input.eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': standard,
    'user-agent': 'Gatehouse-Webhooks/1',
  };
}
