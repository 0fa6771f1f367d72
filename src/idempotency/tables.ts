/** Row types of the idempotency table (DDL in migrations/0300_idempotency.ts). */
export interface IdempotencyTables {
  idempotency_keys: {
    id: string;
    account_id: string;
    client_id: string;
    idempotency_key: string;
    /** HMAC-SHA256 of the canonical request under the fingerprint key (see fingerprint.ts) */
    fingerprint: string;
    state: 'running' | 'done';
    /** Identifies the claim that owns the row; a takeover replaces it. */
    lease_token: string;
    /** Until when a running claim belongs to its owner; afterwards it may be taken over. */
    locked_until: number;
    response_status: number | null;
    /** JSON object of the response headers that are replayed */
    response_headers: string | null;
    /** The exact response body as sent */
    response_body: string | null;
    created_at: number;
    completed_at: number | null;
    expires_at: number;
  };
}


export type IdempotencyRow = IdempotencyTables['idempotency_keys'];
