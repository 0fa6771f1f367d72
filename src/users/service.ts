/**
 * People who sign in at the login page. A password must meet the password policy and is kept
 * only as its argon2id hash (passwords.ts, shared with SCIM). Sign-in answers the same way, and
 * takes about the same time, whether the userName is unknown, the password is wrong or the user
 * is inactive, so the page never tells which accounts exist.
 */
import { verify } from '@node-rs/argon2';
import type { Db } from '../platform/db/database.ts';
import { isUniqueViolation } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { UserRow, UserStore } from './store.ts';
import { hashPassword, passwordPolicyViolation } from './passwords.ts';

export interface NewUser {
  userName: string;
  password: string;
  name?: { givenName?: string; familyName?: string };
}

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
    async create(accountId: string, input: NewUser) {
      const violation = passwordPolicyViolation(input.password);
      if (violation !== undefined) throw problem('weak_password', { detail: violation });
      const now = clock.now();
      const userName = input.userName.trim();
      const givenName = input.name?.givenName?.trim() || null;
      const familyName = input.name?.familyName?.trim() || null;
      const row: UserRow = {
        id: newId('user'),
        account_id: accountId,
        user_name: userName,
        user_name_lower: userName.toLowerCase(),
        external_id: null,
        given_name: givenName,
        family_name: familyName,
        display_name: [givenName, familyName].filter(Boolean).join(' ') || null,
        active: 1,
        password_hash: await hashPassword(input.password),
        attributes: '{}',
        version: 1,
        created_at: now,
        updated_at: now,
      };
      try {
        await store.insert(row);
      } catch (error) {
        if (isUniqueViolation(error)) throw problem('user_name_taken', { detail: `userName ${userName} is already used in this account` });
        throw error;
      }
      return presentUser(row);
    },

    async get(accountId: string, id: string) {
      const row = await store.find(accountId, id);
      if (!row) throw problem('user_not_found', { detail: `No user ${id} in this account` });
      return presentUser(row);
    },

    /** The active user with this userName and password, or undefined (never says which part failed). */
    async verifySignIn(accountId: string, userName: string, password: string): Promise<UserRow | undefined> {
      const row = await store.findByUserName(accountId, userName.trim());
      const stored = row?.password_hash ?? (await decoy);
      let ok = false;
      try {
        ok = await verify(stored, password);
      } catch {
        ok = false;
      }
      if (!row || row.password_hash === null || !ok || row.active !== 1) return undefined;
      return row;
    },
  };
}

export type Users = ReturnType<typeof createUsers>;
