/**
 * The catalogue of audit actions: every state-changing action Gatehouse performs writes one
 * record named by one of these (docs/AUDIT.md lists them). Names are dotted, `<object>.<verb>`,
 * stable once published: a reader filters by prefix (`scim.user.`, `payout.`).
 */
export const AUDIT_ACTIONS = {
  // Operator (admin API and CLI)
  'account.created': 'An account was created',
  'account.updated': 'An account’s name or sign-in page branding was changed',
  'account.deleted': 'An account was closed: its credentials, clients and people removed; its records kept',
  'client.created': 'An OAuth client was registered',
  'client.updated': 'An OAuth client’s metadata was replaced',
  'client.deleted': 'An OAuth client was deleted',
  'client.secret_rotated': 'An OAuth client’s secret was rotated',
  'client.tokens_revoked': 'Every token an OAuth client held was revoked by an operator',
  'user.created': 'A person was created through the admin API',
  'user.updated': 'A person’s userName or name was changed through the admin API',
  'user.deactivated': 'A person was deactivated through the admin API; their tokens, grants and sessions ended',
  'user.reactivated': 'A person was reactivated through the admin API and may sign in again',
  'user.deleted': 'A person was deleted through the admin API; their records lose their details',
  'user.password_reset': 'A person’s password was set by the operator; their tokens and sessions ended',
  'grant.revoked': 'A person’s grant to a client was revoked by the operator, with its tokens',
  'session.revoked': 'A person’s sign-in session was ended by the operator',
  'scim_token.created': 'A SCIM token was issued',
  'scim_token.revoked': 'A SCIM token was revoked',
  'role.created': 'A role mapping (group → scopes) was created',
  'role.updated': 'A role mapping was replaced',
  'role.deleted': 'A role mapping was deleted',
  'signing_keys.rotated': 'The server’s signing and MAC keys were rotated',
  'data.imported': 'A data export was imported',
  // OAuth
  'signin.succeeded': 'A person signed in at the login page',
  'signin.failed': 'A sign-in was refused (unknown person, wrong password, or inactive)',
  'consent.granted': 'A person allowed a client the scopes it asked for',
  'consent.denied': 'A person refused a client’s request',
  'consent.withdrawn': 'A person’s remembered consent to a client was withdrawn (with the operator’s revocation of a grant); the client must ask again',
  'token.revoked': 'An access or refresh token was revoked (RFC 7009)',
  'session.ended': 'A person signed out (RP-initiated logout); back-channel logouts were queued',
  'logout_delivery.retried': 'Parked back-channel logout deliveries were queued again by the operator',
  'grant.replay_revoked': 'A code or refresh token was presented again; its grant was revoked',
  // SCIM
  'scim.user.created': 'A person was provisioned',
  'scim.user.replaced': 'A person was replaced (PUT)',
  'scim.user.patched': 'A person was modified (PATCH)',
  'scim.user.deactivated': 'A person was deactivated (active set to false)',
  'scim.user.deleted': 'A person was deleted; their records lose their details',
  'scim.group.created': 'A group was provisioned',
  'scim.group.replaced': 'A group was replaced (PUT)',
  'scim.group.patched': 'A group was modified (PATCH)',
  'scim.group.deleted': 'A group was deleted',
  // Business
  'invoice.created': 'An invoice was created',
  'invoice.settled': 'An invoice was settled',
  'payout.created': 'A payout was created (pending)',
  'payout.paid': 'A payout was paid',
  'payout.failed': 'A payout failed',
  // Webhooks
  'webhook_endpoint.created': 'A webhook endpoint was registered',
  'webhook_endpoint.updated': 'A webhook endpoint was changed',
  'webhook_endpoint.deleted': 'A webhook endpoint was deleted',
  'webhook_endpoint.enabled': 'A webhook endpoint was enabled',
  'webhook_endpoint.disabled': 'A webhook endpoint was disabled (by its owner or after repeated failures)',
  'webhook_endpoint.secret_rotated': 'A webhook endpoint’s signing secret was rotated',
  'webhook_endpoint.recovered': 'Parked deliveries of an endpoint were queued again',
  'event.redelivered': 'An event was queued for delivery again',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const ACTOR_TYPES = ['admin', 'client', 'user', 'scim_token', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/**
 * The chain of what belongs to no single account (signing keys, imports): operator actions
 * the admin API reads beside every account's.
 */
export const PLATFORM_ACCOUNT = 'platform';

/** Actions recorded only in the platform's chain: no account's endpoint is ever sent them. */
export const PLATFORM_ACTIONS: ReadonlySet<AuditAction> = new Set<AuditAction>(['signing_keys.rotated', 'data.imported']);
