/**
 * The password policy and the password hash, one for every path that sets a password (the admin
 * API and SCIM POST, PUT and PATCH, with or without a path), so no path can store a password
 * another would refuse.
 *
 * - A password has 8 to 1024 characters (Unicode code points, as a person counts them). Length
 *   is the rule (NIST SP 800-63B §5.1.1.2): no composition rules, any character is allowed.
 * - It is stored only as an argon2id hash with OWASP's parameters (19 MiB, 2 passes, 1 lane).
 *
 * Callers check the policy first and answer in their protocol's shape; hashPassword refuses a
 * password the policy refuses, so a path that forgot the check fails instead of storing it.
 */
import { hash, verify } from '@node-rs/argon2';
import { characterCount } from '../platform/text.ts';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

const ARGON2 = { algorithm: 2 /* Algorithm.Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Why `password` breaks the policy, or undefined when it meets it. Never repeats the password. */
export function passwordPolicyViolation(password: string): string | undefined {
  const length = characterCount(password);
  if (length < MIN_PASSWORD_LENGTH) return `password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  if (length > MAX_PASSWORD_LENGTH) return `password has more than ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

/** The argon2id PHC string to store for a password that meets the policy. */
export async function hashPassword(password: string): Promise<string> {
  const violation = passwordPolicyViolation(password);
  if (violation !== undefined) throw new Error(`hashPassword called with a password the policy refuses: ${violation}`);
  return hash(password, ARGON2);
}

/**
 * The hash to store for `password` over the `stored` one: undefined when no password was given or
 * it is the one stored (a directory that syncs passwords resends it with every update; a new hash
 * of the same password would count as a change each time, in the version and the audit trail).
 */
export async function passwordHashFor(password: string | undefined, stored: string | null): Promise<string | undefined> {
  if (password === undefined) return undefined;
  if (stored !== null && (await verify(stored, password).catch(() => false))) return undefined;
  return hashPassword(password);
}
