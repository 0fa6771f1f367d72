/**
 * The catalogue of stable error codes for RFC 9457 responses. Codes never change once
 * published; titles may be reworded. Each capability keeps its codes in its own section.
 * OAuth (RFC 6749) and SCIM (RFC 7644) errors have their own catalogues beside their code.
 */
import { HttpError, type HttpErrorOptions } from './http-error.ts';

export const PROBLEMS = {
  // Platform: any route
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  malformed_json: { status: 400, title: 'Request body is not valid JSON' },
  malformed_request: { status: 400, title: 'Request could not be parsed' },
  validation_failed: { status: 400, title: 'Request does not match the schema' },
  unsupported_media_type: { status: 415, title: 'Unsupported content type' },
  unsupported_content_encoding: { status: 415, title: 'Unsupported content coding' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  request_timeout: { status: 408, title: 'Request was not received in time' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  unauthorized: { status: 401, title: 'Authentication required' },
  invalid_token: { status: 401, title: 'Access token is invalid, expired or revoked' },
  insufficient_scope: { status: 403, title: 'Access token lacks the required scope' },
  rate_limited: { status: 429, title: 'Too many requests' },
  service_unavailable: { status: 503, title: 'Service temporarily unavailable' },
  internal_error: { status: 500, title: 'Internal error' },

  // Admin API
  admin_unauthorized: { status: 401, title: 'Admin token required' },
  account_not_found: { status: 404, title: 'Account not found' },
  invalid_branding: { status: 400, title: 'The logo or brand colour is not acceptable' },
  account_holds_funds: { status: 409, title: 'Account still holds an available balance' },
  account_has_pending_payouts: { status: 409, title: 'Account has payouts still pending' },
  logout_delivery_not_found: { status: 404, title: 'Back-channel logout delivery not found' },
  logout_delivery_not_parked: { status: 409, title: 'Back-channel logout delivery is not parked' },

  // Paging
  limit_out_of_range: { status: 400, title: 'limit is out of range' },
  cursor_malformed: { status: 400, title: 'Cursor is malformed or was altered' },
  cursor_foreign: { status: 400, title: 'Cursor belongs to another account' },
  cursor_expired: { status: 400, title: 'Cursor has expired' },
  cursor_mismatch: { status: 400, title: 'Cursor was issued for another order or filter' },

  // Idempotency
  idempotency_key_missing: { status: 400, title: 'Idempotency-Key header is required' },
  idempotency_key_invalid: { status: 400, title: 'Idempotency-Key header is invalid' },
  idempotency_key_reused: { status: 409, title: 'Idempotency-Key was used with a different request' },
  idempotency_key_in_use: { status: 409, title: 'A request with this Idempotency-Key is in progress' },

  // Payments
  insufficient_funds: { status: 422, title: 'Available balance is too low' },
  invoice_already_settled: { status: 409, title: 'Invoice is already settled' },
  invoice_not_found: { status: 404, title: 'Invoice not found' },
  payout_not_found: { status: 404, title: 'Payout not found' },

  // SCIM admin API (SCIM itself answers RFC 7644 errors, see src/scim/errors.ts)
  scim_token_not_found: { status: 404, title: 'SCIM token not found' },
  role_not_found: { status: 404, title: 'Role not found' },
  role_name_taken: { status: 409, title: 'A role with this name already exists in the account' },

  // Webhooks
  webhook_url_invalid: { status: 400, title: 'Webhook URL is not allowed' },
  webhook_headers_invalid: { status: 400, title: 'Webhook headers are not allowed' },

  // OAuth clients and users (admin API; RFC 7591 §3.2.2 names the first two)
  invalid_redirect_uri: { status: 400, title: 'A redirect URI is not acceptable' },
  invalid_client_metadata: { status: 400, title: 'Client metadata is not acceptable' },
  client_not_found: { status: 404, title: 'Client not found' },
  user_not_found: { status: 404, title: 'User not found' },
  grant_not_found: { status: 404, title: 'Grant not found' },
  session_not_found: { status: 404, title: 'Sign-in session not found' },
  user_name_taken: { status: 409, title: 'userName is already used in this account' },
  weak_password: { status: 400, title: 'Password does not meet the password policy' },
  webhook_endpoint_not_found: { status: 404, title: 'Webhook endpoint not found' },
  webhook_endpoint_disabled: { status: 409, title: 'Webhook endpoint is disabled' },
  webhook_endpoint_not_subscribed: { status: 409, title: 'Webhook endpoint does not subscribe to this event type' },
  event_not_found: { status: 404, title: 'Event not found' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

/** Builds the catalogued error for `code`. */
export function problem(code: ProblemCode, options: HttpErrorOptions = {}): HttpError {
  const entry = PROBLEMS[code];
  return new HttpError(entry.status, code, entry.title, options);
}
