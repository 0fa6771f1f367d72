/**
 * The kinds of event Gatehouse raises, named `object.state`: what a webhook endpoint can
 * subscribe to and what the event list filters on. Besides these, every audit action is an
 * event kind of its own, `audit.<action>` (docs/AUDIT.md "Streaming"), raised only while an
 * endpoint subscribes to it. `*` subscribes to every business event, `audit.*` to every audit
 * event (webhooks/fan-out.ts).
 */
import { AUDIT_ACTIONS, PLATFORM_ACTIONS, type AuditAction } from '../audit/catalogue.ts';

export const EVENT_TYPES = [
  'invoice.settled',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const ALL_BUSINESS_EVENTS = '*';
export const ALL_AUDIT_EVENTS = 'audit.*';
export const AUDIT_EVENT_PREFIX = 'audit.';

/** The event kind of an audit action. */
export const auditEventType = (action: string): string => `${AUDIT_EVENT_PREFIX}${action}`;

/**
 * Every value an endpoint's `event_types` may hold. Not the platform's own actions (key
 * rotation, imports): they belong to no account, so no account's endpoint would ever get one.
 */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [
  ...EVENT_TYPES,
  ALL_BUSINESS_EVENTS,
  ALL_AUDIT_EVENTS,
  ...(Object.keys(AUDIT_ACTIONS) as AuditAction[]).filter((action) => !PLATFORM_ACTIONS.has(action)).map(auditEventType),
];
