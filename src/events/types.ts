/**
 * The kinds of event Gatehouse raises, named `object.state`: what a webhook endpoint can
 * subscribe to (`*` subscribes to all) and what the event list filters on.
 */
export const EVENT_TYPES = [
  'invoice.settled',
  'payout.created',
  'payout.paid',
  'payout.failed',
  'webhook_endpoint.disabled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
