/**
 * The claims of OpenID Connect Core 1.0 about a person, read from their SCIM profile.
 *
 * - `sub` (§2, §8): the user's id, never their userName or e-mail, so it survives a rename;
 *   for a client registered with `subject_type: pairwise` it is an HMAC of the client and the
 *   user's id under a server key (§8.1), so two clients cannot join their users on it.
 * - Scope claims (§5.4): `profile`, `email`, `phone`; returned at userinfo (a code-flow client
 *   always has an access token), and in the ID token only when the `claims` parameter asks.
 * - The `claims` request parameter (§5.5): names individual claims for `userinfo` and
 *   `id_token`, among those of the granted scopes (the consent page names scopes, so a claim
 *   outside them was never consented to); a claim we do not hold is left out (voluntary and
 *   essential alike, §5.5.1). Two requests are honoured or refused, never ignored: `sub` with a
 *   value (only that person is answered for) and an essential `acr` with values (met only by
 *   one of them).
 * - `email_verified` and `phone_number_verified` are false: Gatehouse verifies neither, and SCIM
 *   carries no verification, so saying true would be a claim nobody checked (§5.1).
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { UserRow } from '../users/tables.ts';
import type { Client } from './clients.ts';

// The claims of §5.4 the SCIM profile can hold: `website` and the birth and gender claims have no
// attribute in RFC 7643's User, so they are neither returned nor advertised.
export const SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: ['name', 'family_name', 'given_name', 'middle_name', 'nickname', 'preferred_username', 'profile', 'picture', 'zoneinfo', 'locale', 'updated_at'],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
};

export const CLAIMS_SUPPORTED = ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'acr', 'amr', 'at_hash', 'sid', ...Object.values(SCOPE_CLAIMS).flat()];

/** The `claims` request parameter (§5.5): the claim names asked for in each place, and the two values the server must honour. */
export interface ClaimsRequest {
  userinfo: string[];
  id_token: string[];
  /** §5.5.1: `sub` asked for with a value: only that person may be answered for. */
  subject: string | null;
  /** §5.5.1.1: `acr` asked for as essential with values: one of them, or no positive answer. */
  essentialAcr: string[] | null;
}

/** Parses the `claims` parameter; undefined when it is not a JSON object of the §5.5 shape. */
export function parseClaimsRequest(raw: string): ClaimsRequest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isPlainObject(parsed)) return undefined;
  const out: ClaimsRequest = { userinfo: [], id_token: [], subject: null, essentialAcr: null };
  for (const place of ['userinfo', 'id_token'] as const) {
    const section = parsed[place];
    if (section === undefined) continue;
    if (!isPlainObject(section)) return undefined;
    for (const [name, spec] of Object.entries(section)) {
      if (spec !== null && !isPlainObject(spec)) return undefined;
      const wanted = spec === null ? undefined : valuesOf(spec);
      if (wanted === null) return undefined;
      if (name === 'sub' && wanted !== undefined) {
        // One person: two different values could never both be met.
        if (wanted.length !== 1 || (out.subject !== null && out.subject !== wanted[0])) return undefined;
        out.subject = wanted[0]!;
      }
      if (name === 'acr' && place === 'id_token' && spec?.essential === true && wanted !== undefined) out.essentialAcr = wanted;
      out[place].push(name);
    }
  }
  return out;
}

/** A claim's `value` or `values` (§5.5.1) as a list; undefined when neither is given, null when malformed. */
function valuesOf(spec: Record<string, unknown>): string[] | undefined | null {
  if (spec.essential !== undefined && typeof spec.essential !== 'boolean') return null;
  if (spec.value !== undefined) return typeof spec.value === 'string' ? [spec.value] : null;
  if (spec.values !== undefined) return Array.isArray(spec.values) && spec.values.length > 0 && spec.values.every((v) => typeof v === 'string') ? (spec.values as string[]) : null;
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key pairwise `sub` values are made with (§8.1), derived from the secrets key. */
export function pairwiseKeyOf(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'gatehouse pairwise subject', 32));
}

/** The `sub` a client sees for a user. */
export function subjectFor(client: Pick<Client, 'id' | 'subjectType'>, userId: string, pairwiseKey: Buffer): string {
  if (client.subjectType !== 'pairwise') return userId;
  return createHmac('sha256', pairwiseKey).update(`${client.id}\n${userId}`).digest('base64url');
}

type Multi = Array<{ value?: unknown; primary?: unknown }>;

function preferred(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const values = (list as Multi).filter((v) => v && typeof v.value === 'string');
  return (values.find((v) => v.primary === true) ?? values[0])?.value as string | undefined;
}

function attributesOf(row: UserRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(row.attributes);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** Every standard claim the person's profile holds, by name. */
export function profileClaims(row: UserRow): Record<string, unknown> {
  const a = attributesOf(row);
  const name = isPlainObject(a.name) ? a.name : {};
  const display = row.display_name ?? ([row.given_name, row.family_name].filter(Boolean).join(' ') || undefined);
  const claims: Record<string, unknown> = {
    name: display,
    given_name: row.given_name ?? undefined,
    family_name: row.family_name ?? undefined,
    middle_name: typeof name.middleName === 'string' ? name.middleName : undefined,
    nickname: typeof a.nickName === 'string' ? a.nickName : undefined,
    preferred_username: row.user_name,
    profile: typeof a.profileUrl === 'string' ? a.profileUrl : undefined,
    picture: preferred(a.photos),
    zoneinfo: typeof a.timezone === 'string' ? a.timezone : undefined,
    locale: typeof a.locale === 'string' ? a.locale : typeof a.preferredLanguage === 'string' ? a.preferredLanguage : undefined,
    updated_at: Math.floor(row.updated_at / 1000),
  };
  const email = preferred(a.emails);
  if (email !== undefined) Object.assign(claims, { email, email_verified: false });
  const phone = preferred(a.phoneNumbers);
  if (phone !== undefined) Object.assign(claims, { phone_number: phone, phone_number_verified: false });
  return claims;
}

/** The claims of `wanted` that the profile holds, undefined ones left out. */
export function selectClaims(all: Record<string, unknown>, wanted: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of wanted) if (all[name] !== undefined) out[name] = all[name];
  return out;
}

/** The claim names the granted scopes stand for (§5.4). */
export function claimsOfScopes(scopes: Iterable<string>): string[] {
  const out: string[] = [];
  for (const s of scopes) out.push(...(SCOPE_CLAIMS[s] ?? []));
  return out;
}

/** The claims asked for by name (§5.5) that the granted scopes cover: the person consented to those only. */
export function consentedClaims(requested: readonly string[], scopes: Iterable<string>): string[] {
  const covered = new Set(claimsOfScopes(scopes));
  return requested.filter((name) => covered.has(name));
}
