/** The audit trail's tables (migration 0600_audit). */
export interface AuditEventRow {
  id: string;
  account_id: string;
  occurred_at: number;
  action: string;
  actor_type: string;
  actor_id: string;
  actor_client_id: string | null;
  target_type: string;
  target_id: string;
  request_id: string | null;
  idempotency_key: string | null;
  source_address: string | null;
  user_agent: string | null;
  changes: string | null;
  changes_mac: string | null;
  seq: number | null;
  prev_hash: string | null;
  hash: string | null;
  detached_at: number | null;
}

export interface AuditTables {
  audit_events: AuditEventRow;
  audit_chains: {
    account_id: string;
    head_seq: number;
    head_hash: string;
    first_seq: number;
    first_prev_hash: string;
    /** Retention's signed statement of where it cut the chain (START_TYPE); null while nothing was pruned. */
    first_jws: string | null;
    checkpointed_at: number;
    updated_at: number;
  };
  audit_checkpoints: {
    account_id: string;
    seq: number;
    hash: string;
    signed_at: number;
    jws: string;
  };
}
