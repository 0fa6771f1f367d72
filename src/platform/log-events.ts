/**
 * The events an operator acts on, each logged as one line with a stable `event` name at a
 * level fixed by its name, so that a log query or an alert can rely on both. docs/OPERATIONS.md
 * ("Log events") lists them with their fields and what to do; a test holds the two together.
 * Fields are ids, counts, times and reason codes: never a secret, a password, a token, a
 * receiver URL (it may carry credentials) or a userName as typed (it may be a password typed
 * in the wrong box).
 */
import type { FastifyBaseLogger } from 'fastify';

export const LOG_EVENTS = {
  'webhook.delivery_failed': 'info',
  'webhook.delivery_parked': 'warn',
  'webhook.endpoint_disabled': 'warn',
  'webhook.recovery_requested': 'info',
  'webhook.redelivery_requested': 'info',
  'oauth.sign_in_failed': 'info',
  'oauth.sign_in_rate_limited': 'warn',
  'oauth.client_authentication_failed': 'warn',
  'oauth.backchannel_logout_failed': 'warn',
  'secrets.key_generated': 'info',
  'secrets.key_moved_to_file': 'info',
  'secrets.key_in_database': 'warn',
  'secrets.key_removed_from_database': 'info',
  'admin.generated_token_revoked': 'warn',
  'admin.authentication_failed': 'warn',
  'admin.listener_exposed': 'warn',
} as const satisfies Record<string, 'info' | 'warn'>;

export type LogEventName = keyof typeof LOG_EVENTS;

/** Writes `event` at its level. Redaction catches only fields named like a secret: `fields` must hold none. */
export function logEvent(log: Pick<FastifyBaseLogger, 'info' | 'warn'>, event: LogEventName, fields: Record<string, unknown>, message: string): void {
  log[LOG_EVENTS[event]]({ event, ...fields }, message);
}
