/**
 * Webhook secrets. A webhook secret must be recovered to sign, so unlike client secrets it
 * cannot be stored as a digest: it is sealed under the secrets key (platform/secrets-key.ts).
 */
import { randomBytes } from 'node:crypto';

/** `whsec_` + base64 of 24 random bytes: the Standard Webhooks secret format. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}


export type { Sealer } from '../platform/secrets-key.ts';
