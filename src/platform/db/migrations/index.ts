/** Every migration, by name. Names sort by capability range: 0001 platform, 01xx OAuth, 02xx payments,
 * 03xx idempotency, 04xx SCIM, 05xx webhooks, 06xx audit, 07xx OpenID Connect. */
import type { Migration } from 'kysely';
import * as m0001 from './0001_platform.ts';
import * as m0002 from './0002_account_lifecycle.ts';
import * as m0100 from './0100_oauth.ts';
import * as m0200 from './0200_payments.ts';
import * as m0201 from './0201_ledger_without_transaction_index.ts';
import * as m0202 from './0202_stored_representations.ts';
import * as m0203 from './0203_pending_payouts_by_account.ts';
import * as m0204 from './0204_collections_by_state.ts';
import * as m0300 from './0300_idempotency.ts';
import * as m0400 from './0400_scim.ts';
import * as m0401 from './0401_closed_accounts_take_no_people.ts';
import * as m0500 from './0500_events.ts';
import * as m0501 from './0501_webhooks.ts';
import * as m0502 from './0502_webhook_write_path.ts';
import * as m0503 from './0503_webhook_open_deliveries.ts';
import * as m0504 from './0504_webhook_attempts_follow_endpoint.ts';
import * as m0505 from './0505_webhook_queue.ts';
import * as m0506 from './0506_webhook_attempt_log_key.ts';
import * as m0507 from './0507_webhook_endpoint_headers.ts';
import * as m0600 from './0600_audit.ts';
import * as m0601 from './0601_audit_chain_index_sealed.ts';
import * as m0602 from './0602_audit_read_indexes_sealed.ts';
import * as m0603 from './0603_audit_account_index_sealed.ts';
import * as m0700 from './0700_oidc.ts';
import * as m0701 from './0701_consents_of_deleted_people.ts';
import * as m0702 from './0702_audit_chain_start_signed.ts';
import * as m0703 from './0703_grants_by_session.ts';
import * as m0704 from './0704_signing_keys_published_ahead.ts';
import * as m0705 from './0705_client_tokens_not_before.ts';

export const migrations: Record<string, Migration> = {
  '0001_platform': m0001,
  '0002_account_lifecycle': m0002,
  '0100_oauth': m0100,
  '0200_payments': m0200,
  '0201_ledger_without_transaction_index': m0201,
  '0202_stored_representations': m0202,
  '0203_pending_payouts_by_account': m0203,
  '0204_collections_by_state': m0204,
  '0300_idempotency': m0300,
  '0400_scim': m0400,
  '0401_closed_accounts_take_no_people': m0401,
  '0500_events': m0500,
  '0501_webhooks': m0501,
  '0502_webhook_write_path': m0502,
  '0503_webhook_open_deliveries': m0503,
  '0504_webhook_attempts_follow_endpoint': m0504,
  '0505_webhook_queue': m0505,
  '0506_webhook_attempt_log_key': m0506,
  '0507_webhook_endpoint_headers': m0507,
  '0600_audit': m0600,
  '0601_audit_chain_index_sealed': m0601,
  '0602_audit_read_indexes_sealed': m0602,
  '0603_audit_account_index_sealed': m0603,
  '0700_oidc': m0700,
  '0701_consents_of_deleted_people': m0701,
  '0702_audit_chain_start_signed': m0702,
  '0703_grants_by_session': m0703,
  '0704_signing_keys_published_ahead': m0704,
  '0705_client_tokens_not_before': m0705,
};
