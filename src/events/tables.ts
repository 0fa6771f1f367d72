/**
 * The events table: one row per change a business capability announced, written in the
 * change's own transaction (outbox.ts). Webhook deliveries refer to it.
 */
export interface EventTables {
  events: {
    id: string;
    account_id: string;
    /** dotted kind, e.g. invoice.settled */
    type: string;
    object: string;
    object_id: string;
    state: string;
    /** The exact JSON body delivered to receivers. */
    payload: string;
    created_at: number;
  };
}

export type EventRow = EventTables['events'];
