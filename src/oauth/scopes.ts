/**
 * The scopes Gatehouse knows and how the consent page names them. A token never carries a
 * scope outside this list, the client's registration, the user's consent and the user's roles.
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
};

export const SCOPE_NAMES = Object.keys(SCOPES);

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

export function intersect(a: Iterable<string>, b: ReadonlySet<string> | null): string[] {
  const list = [...a];
  return b === null ? list : list.filter((s) => b.has(s));
}
