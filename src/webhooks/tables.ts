/**
 * The tables of webhook delivery (the events they deliver are the events capability's,
 * src/events/tables.ts). Endpoints are what an account registered; a delivery is one
 * event owed to one endpoint (the unit a worker leases); an attempt is one POST, whose id
 * is the Delivery-Id header it carried.
 */
export type DeliveryState = 'pending' | 'acknowledged' | 'parked';

export interface WebhookTables {
  webhook_endpoints: {
    id: string;
    account_id: string;
    url: string;
    description: string | null;
    /** JSON array of event types, or ["*"] */
    event_types: string;
    enabled: number;
    /** manual | gone | failing */
    disabled_reason: string | null;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_secret_expires_at: number | null;
    /** Headers added to every delivery, sealed (endpoint-headers.ts); null when there are none. */
    headers_sealed: string | null;
    /** First failure of the current unbroken run of failures; null while healthy. */
    failing_since: number | null;
    created_at: number;
    updated_at: number;
  };
  webhook_deliveries: {
    id: string;
    account_id: string;
    event_id: string;
    endpoint_id: string;
    state: DeliveryState;
    attempt_count: number;
    last_attempt_at: number | null;
    /** Set exactly while the delivery is parked. */
    parked_at: number | null;
    created_at: number;
    updated_at: number;
  };
  /** The deliveries still to be attempted (state `pending`), each with its due time and lease. */
  webhook_queue: {
    delivery_id: string;
    account_id: string;
    event_id: string;
    endpoint_id: string;
    /** Failed attempts in the current retry cycle (recovery starts a new cycle). */
    cycle_failures: number;
    next_attempt_at: number;
    lease_owner: string | null;
    lease_until: number | null;
  };
  webhook_attempts: {
    id: string;
    account_id: string;
    delivery_id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    outcome: 'succeeded' | 'failed';
    response_status: number | null;
    response_body: string | null;
    error: string | null;
    latency_ms: number;
    attempted_at: number;
  };
}

export type EndpointRow = WebhookTables['webhook_endpoints'];
export type DeliveryRow = WebhookTables['webhook_deliveries'];
export type AttemptRow = WebhookTables['webhook_attempts'];
