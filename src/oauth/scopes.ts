/**
 * The scopes Gatehouse knows and how the consent page names them. A token never carries a
 * scope outside this list, the client's registration, the user's consent and the user's roles.
 * Privileged scopes reach a person's token only through a role that names them.
 */
export const SCOPES: Readonly<Record<string, string>> = {
  'invoices:read': 'See your invoices',
  'invoices:write': 'Create and settle invoices',
  'ledger:read': 'See your ledger entries',
  'payouts:read': 'See your payouts',
  'payouts:write': 'Send payouts from your balance',
  'events:read': 'See events about your account',
  'webhooks:manage': 'Manage webhook endpoints',
  scim: 'Provision users and groups',
  'audit:read': 'See the audit trail of your account',
  // OpenID Connect Core §5.4: who you are, and the claims each scope names.
  openid: 'Know who you are (a stable identifier)',
  profile: 'See your name and profile details',
  email: 'See your e-mail address',
  phone: 'See your phone number',
};

/** The OpenID Connect scopes: they ask for identity claims, not for access to the API. */
export const OIDC_SCOPES: ReadonlySet<string> = new Set(['openid', 'profile', 'email', 'phone']);

export const SCOPE_NAMES = Object.keys(SCOPES);

/**
 * Scopes that manage people, secrets or money movement. A person holds one only through a role
 * that names it; an account without role mappings gives people none of them (client-credentials
 * tokens are bounded by the client's registration alone). `scim` manages people (passwords
 * included, so it could take over any of them), `webhooks:manage` holds signing secrets and
 * decides where events go, `invoices:write` settles invoices (crediting the balance payouts draw
 * on), `payouts:write` sends money out, and `audit:read` reads everyone's history: it is listed
 * before the audit trail exists so that it is privileged from its first day.
 */
export const PRIVILEGED_SCOPES: ReadonlySet<string> = new Set(['scim', 'webhooks:manage', 'invoices:write', 'payouts:write', 'audit:read']);

const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** RFC 6749 §3.3: a space-delimited list; undefined when a token has illegal characters. */
export function parseScope(raw: string): string[] | undefined {
  const parts = raw.split(' ').filter((p) => p !== '');
  if (!parts.every((p) => SCOPE_TOKEN.test(p))) return undefined;
  return [...new Set(parts)];
}

/** A stable form of a scope set: sorted and deduplicated. */
export function formatScope(scopes: Iterable<string>): string {
  return [...new Set(scopes)].sort().join(' ');
}

export function scopeSet(stored: string): Set<string> {
  return new Set(stored.split(' ').filter(Boolean));
}

export function isSubset(wanted: Iterable<string>, allowed: ReadonlySet<string>): boolean {
  for (const s of wanted) if (!allowed.has(s)) return false;
  return true;
}

/**
 * What a person's token may carry of `wanted`, given the scopes the person's roles name
 * (`roles`; null when the account maps no roles): within the roles when there are mappings, and
 * everything but the privileged scopes when there are none. The OpenID Connect scopes are never
 * bounded by roles: they release the person's own identity to a client the person consents to,
 * and roles govern what the API lets them do. A first role given to some people (auditors, say)
 * would otherwise take sign-in itself away from everyone else in the account.
 */
export function grantableToPerson(wanted: Iterable<string>, roles: ReadonlySet<string> | null): string[] {
  const list = [...wanted];
  return list.filter((s) => OIDC_SCOPES.has(s) || (roles === null ? !PRIVILEGED_SCOPES.has(s) : roles.has(s)));
}
