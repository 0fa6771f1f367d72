/**
 * People who sign in at the login page. A password must meet the password policy and is kept
 * only as its argon2id hash (passwords.ts, shared with SCIM). Sign-in answers the same way, and
 * takes about the same time, whether the userName is unknown, the password is wrong or the user
 * is inactive, so the page never tells which accounts exist.
 */
import { changesOf, recordAudit, type AuditBy } from '../audit/index.ts';
import { verify } from '@node-rs/argon2';
import type { Db } from '../platform/db/database.ts';
import { isClosedAccountWrite, isUniqueViolation } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { UserStore } from './store.ts';
import type { UserRow } from './tables.ts';
import { hashPassword, passwordPolicyViolation } from './passwords.ts';

export interface NewUser {
  userName: string;
  password: string;
  name?: { givenName?: string; familyName?: string };
}

/** An operator's change of a person: members left out stay, a name member set to null goes. */
export interface PersonChange {
  userName?: string;
  name?: { givenName?: string | null; familyName?: string | null };
}

/** The display name the admin API makes from a name ("Ada Lovelace"), or null. */
export function displayNameOf(givenName: string | null | undefined, familyName: string | null | undefined): string | null {
  return [givenName, familyName].filter(Boolean).join(' ') || null;
}

export type SignInFailure = 'unknown_user' | 'password_not_set' | 'wrong_password' | 'user_inactive';

/** A sign-in: the user, or why there is none (and whose userName it was, when it names one). */
export type SignIn = { user: UserRow } | { user: undefined; reason: SignInFailure; userId: string | null };

export function presentUser(row: UserRow) {
  return {
    object: 'user' as const,
    id: row.id,
    account_id: row.account_id,
    userName: row.user_name,
    name: { givenName: row.given_name ?? undefined, familyName: row.family_name ?? undefined },
    active: row.active === 1,
    created_at: toRfc3339(row.created_at),
  };
}

export function createUsers(deps: { db: Db; store: UserStore; clock: Clock }) {
  const { store, clock } = deps;
  // Verified against when the userName is unknown, so both paths cost one argon2 verification.
  const decoy = hashPassword('decoy password that matches nothing');

  return {
    async create(accountId: string, input: NewUser, by?: AuditBy) {
      const violation = passwordPolicyViolation(input.password);
      if (violation !== undefined) throw problem('weak_password', { detail: violation });
      const now = clock.now();
      const userName = input.userName.trim();
      const givenName = input.name?.givenName?.trim() || null;
      const familyName = input.name?.familyName?.trim() || null;
      const row: UserRow = {
        // The id SCIM gives a person too: one form of id for people, whichever way they came.
        id: newTimeOrderedId('usr', now),
        account_id: accountId,
        user_name: userName,
        user_name_lower: userName.toLowerCase(),
        external_id: null,
        given_name: givenName,
        family_name: familyName,
        display_name: displayNameOf(givenName, familyName),
        active: 1,
        password_hash: await hashPassword(input.password),
        attributes: '{}',
        version: 1,
        created_at: now,
        updated_at: now,
      };
      try {
        const changes = changesOf(null, { userName, givenName, familyName, active: true, password: true });
        await store.insert(row, (trx) => recordAudit(trx, by, { accountId, action: 'user.created', target: { type: 'user', id: row.id }, changes, at: now }));
      } catch (error) {
        if (isUniqueViolation(error)) throw problem('user_name_taken', { detail: `userName ${userName} is already used in this account` });
        if (isClosedAccountWrite(error)) throw problem('account_not_found', { detail: `No account ${accountId}` });
        throw error;
      }
      return presentUser(row);
    },

    async get(accountId: string, id: string) {
      const row = await store.find(accountId, id);
      if (!row) throw problem('user_not_found', { detail: `No user ${id} in this account` });
      return presentUser(row);
    },

    /**
     * The active user with this userName and password, or why not: for the log only, as the
     * page never says which part failed.
     */
    async verifySignIn(accountId: string, userName: string, password: string): Promise<SignIn> {
      const row = await store.findByUserName(accountId, userName.trim());
      const stored = row?.password_hash ?? (await decoy);
      let ok: boolean;
      try {
        ok = await verify(stored, password);
      } catch {
        ok = false;
      }
      if (!row) return { user: undefined, reason: 'unknown_user', userId: null };
      if (row.password_hash === null) return { user: undefined, reason: 'password_not_set', userId: row.id };
      if (!ok) return { user: undefined, reason: 'wrong_password', userId: row.id };
      // Told apart only with the right password: a departed person trying to come back.
      if (row.active !== 1) return { user: undefined, reason: 'user_inactive', userId: row.id };
      return { user: row };
    },
  };
}

export type Users = ReturnType<typeof createUsers>;
