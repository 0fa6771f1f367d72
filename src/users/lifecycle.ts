/**
 * A person's lifecycle on the admin API, beside what SCIM does for directories:
 * - list (cursor paging, oldest first; by userName or active) and get;
 * - update: userName and name, checked, versioned and recorded as a directory's PATCH is (a
 *   directory that manages the person may later write them back: it is their source);
 * - deactivate: in one transaction the user turns inactive and every token, grant, session and
 *   code of theirs ends (oauth/user-access.ts), back-channel logouts queued; reactivate lets
 *   them sign in again (nothing that ended comes back);
 * - delete: as SCIM DELETE does (memberships dropped, access ended in the same transaction);
 * - reset password: the policy applies, and every session and token ends, since a reset means
 *   the old password may be known to someone else;
 * - their grants (one per sign-in to a client) and sign-in sessions, listed and revoked one by one;
 *   revoking a grant withdraws the person's remembered consent to its client too (asked again).
 * The version column moves with every change, so SCIM ETags stay true.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../platform/db/tables.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Db } from '../platform/db/database.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/index.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { isHttpError } from '../platform/errors/http-error.ts';
import type { Paging } from '../paging/page.ts';
import { keysetPage, type KeysetColumns } from '../paging/keyset.ts';
import type { RevokeUserAccess } from '../oauth/user-access.ts';
import { revokeGrant } from '../oauth/grants.ts';
import { withdrawConsent } from '../oauth/consent-withdrawal.ts';
import { endSessions } from '../oauth/user-access.ts';
import { presentUser, type PersonChange } from './service.ts';
import { hashPassword, passwordPolicyViolation } from './passwords.ts';
import type { UserRow } from './tables.ts';

export interface UserListQuery {
  limit?: number;
  after?: string;
  /** The one person with this userName, compared as sign-in compares it (case-insensitively). */
  userName?: string;
  active?: boolean;
}

/** Oldest first by (created_at, id). */
const OLDEST_FIRST: KeysetColumns = { sortColumn: 'created_at', idColumn: 'id', direction: 'asc' };

export function createUserLifecycle(deps: {
  db: Db;
  clock: Clock;
  paging: Paging;
  revokeUserAccess: RevokeUserAccess;
  /** Changes as a SCIM PATCH does, recorded as `user.updated`. */
  updateUser: (accountId: string, userId: string, change: PersonChange, by?: AuditBy) => Promise<UserRow>;
  /** Deletes as SCIM DELETE does, attribution detached the same way, recorded as `user.deleted`. */
  deleteUser: (accountId: string, userId: string, by?: AuditBy) => Promise<void>;
}) {
  const { db, clock } = deps;

  async function requireUser(accountId: string, userId: string): Promise<UserRow> {
    const row = await db.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', userId).executeTakeFirst();
    if (!row) throw problem('user_not_found', { detail: `No user ${userId} in this account` });
    return row;
  }

  /**
   * The person, locked in `trx` for a change of them (as SCIM's writes lock them): a deletion
   * committed meanwhile is seen here and answered 404, never met by the change; a SCIM write
   * meanwhile is waited for, and the version counts on from it.
   */
  async function lockedUser(trx: Transaction<Tables>, accountId: string, userId: string): Promise<UserRow> {
    const row = await dialectOf(trx).lockForWrite(trx.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', userId)).executeTakeFirst();
    if (!row) throw problem('user_not_found', { detail: `No user ${userId} in this account` });
    return row;
  }

  async function setActive(accountId: string, userId: string, active: boolean, by?: AuditBy) {
    const now = clock.now();
    const user = await db.transaction().execute(async (trx) => {
      const row = await lockedUser(trx, accountId, userId);
      if ((row.active === 1) === active) return row;
      const changed = await trx
        .updateTable('users')
        .set({ active: active ? 1 : 0, version: row.version + 1, updated_at: now })
        .where('account_id', '=', accountId)
        .where('id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      if (!active) await deps.revokeUserAccess(trx, accountId, userId, now, 'deactivated');
      await recordAudit(trx, by, { accountId, action: active ? 'user.reactivated' : 'user.deactivated', target: { type: 'user', id: userId }, changes: { active: { before: !active, after: active } }, at: now });
      return changed;
    });
    return presentUser(user);
  }

  return {
    requireUser,

    async list(accountId: string, request: UserListQuery) {
      const userName = request.userName?.trim().toLowerCase();
      const page = await deps.paging.read(
        { accountId, limit: request.limit, after: request.after, filters: { userName, active: request.active } },
        {
          orderName: 'admin-users:created_at.asc,id.asc',
          fetch: (after, take) => {
            let query = db.selectFrom('users').selectAll().where('account_id', '=', accountId);
            if (userName !== undefined) query = query.where('user_name_lower', '=', userName);
            if (request.active !== undefined) query = query.where('active', '=', request.active ? 1 : 0);
            if (after) {
              const key = Number(after.key);
              query = query.where((eb) => eb.or([eb('created_at', '>', key), eb.and([eb('created_at', '=', key), eb('id', '>', after.id)])]));
            }
            return query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(take).execute();
          },
          position: (row) => ({ key: Number(row.created_at), id: row.id }),
        },
      );
      return { data: page.rows.map(presentUser), next_cursor: page.nextCursor };
    },

    async update(accountId: string, userId: string, change: PersonChange, by?: AuditBy) {
      try {
        return presentUser(await deps.updateUser(accountId, userId, change, by));
      } catch (error) {
        // Answered in this API's terms, not SCIM's.
        if (isHttpError(error) && error.status === 404) throw problem('user_not_found', { detail: `No user ${userId} in this account` });
        if (isHttpError(error) && error.status === 409) throw problem('user_name_taken', { detail: `userName ${change.userName?.trim()} is already used in this account` });
        if (isHttpError(error) && error.status === 400) throw problem('validation_failed', { detail: error.detail });
        throw error;
      }
    },

    deactivate: (accountId: string, userId: string, by?: AuditBy) => setActive(accountId, userId, false, by),
    reactivate: (accountId: string, userId: string, by?: AuditBy) => setActive(accountId, userId, true, by),

    async remove(accountId: string, userId: string, by?: AuditBy): Promise<void> {
      await requireUser(accountId, userId);
      try {
        await deps.deleteUser(accountId, userId, by);
      } catch (error) {
        // Deleted meanwhile (by SCIM or another administrator): answered in this API's terms.
        if (isHttpError(error) && error.status === 404) throw problem('user_not_found', { detail: `No user ${userId} in this account` });
        throw error;
      }
    },

    async resetPassword(accountId: string, userId: string, password: string, by?: AuditBy) {
      const violation = passwordPolicyViolation(password);
      if (violation !== undefined) throw problem('weak_password', { detail: violation });
      await requireUser(accountId, userId);
      // Hashed before the transaction: the person stays unlocked for the hash's tens of milliseconds.
      const hash = await hashPassword(password);
      const now = clock.now();
      const user = await db.transaction().execute(async (trx) => {
        const row = await lockedUser(trx, accountId, userId);
        const changed = await trx
          .updateTable('users')
          .set({ password_hash: hash, version: row.version + 1, updated_at: now })
          .where('account_id', '=', accountId)
          .where('id', '=', userId)
          .returningAll()
          .executeTakeFirstOrThrow();
        await deps.revokeUserAccess(trx, accountId, userId, now, 'password_reset');
        // That the password changed, never what it is (both sides are redacted).
        const changes = changesOf({ password: row.password_hash === null ? null : 1 }, { password: 2 });
        await recordAudit(trx, by, { accountId, action: 'user.password_reset', target: { type: 'user', id: userId }, changes, at: now });
        return changed;
      });
      return presentUser(user);
    },

    /** The person's live grants, oldest first, a page at a time (cursors bound to the person). */
    async grants(accountId: string, userId: string, request: { limit?: number; after?: string } = {}) {
      await requireUser(accountId, userId);
      const page = await deps.paging.read(
        { accountId, limit: request.limit, after: request.after, filters: { user: userId } },
        {
          orderName: 'user-grants:created_at.asc,id.asc',
          fetch: (after, take) => {
            const live = db
              .selectFrom('oauth_grants')
              .select(['id', 'client_id', 'scope', 'created_at', 'expires_at'])
              .where('account_id', '=', accountId)
              .where('user_id', '=', userId)
              .where('revoked_at', 'is', null)
              .where('expires_at', '>', clock.now());
            return keysetPage(live, OLDEST_FIRST, after, take).execute();
          },
          position: (row) => ({ key: Number(row.created_at), id: row.id }),
        },
      );
      const data = page.rows.map((r) => ({ object: 'grant' as const, id: r.id, client_id: r.client_id, scope: r.scope, created_at: toRfc3339(Number(r.created_at)), expires_at: toRfc3339(Number(r.expires_at)) }));
      return { data, next_cursor: page.nextCursor };
    },

    async revokeGrant(accountId: string, userId: string, grantId: string, by?: AuditBy): Promise<void> {
      const grant = await db.selectFrom('oauth_grants').select(['id', 'client_id']).where('account_id', '=', accountId).where('user_id', '=', userId).where('id', '=', grantId).executeTakeFirst();
      if (!grant) {
        // The person named is not there: said as every other route of a person says it.
        await requireUser(accountId, userId);
        throw problem('grant_not_found', { detail: `No grant ${grantId} of this user` });
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // Revoking a grant already revoked (before, or by a revocation at the same moment)
        // changes nothing, so it records nothing.
        if (!(await revokeGrant(trx, grantId, now))) return;
        const changes = { client_id: { after: grant.client_id }, revoked: { before: false, after: true } };
        await recordAudit(trx, by, { accountId, action: 'grant.revoked', target: { type: 'grant', id: grantId }, changes, at: now });
        await withdrawConsent(trx, by, { accountId, userId, clientId: grant.client_id, at: now });
      });
    },

    /** The person's live sign-in sessions, oldest first, a page at a time (cursors bound to the person). */
    async sessions(accountId: string, userId: string, request: { limit?: number; after?: string } = {}) {
      await requireUser(accountId, userId);
      const page = await deps.paging.read(
        { accountId, limit: request.limit, after: request.after, filters: { user: userId } },
        {
          orderName: 'user-sessions:authenticated_at.asc,id.asc',
          fetch: (after, take) => {
            const live = db
              .selectFrom('oauth_sessions')
              .select(['id', 'authenticated_at', 'expires_at'])
              .where('account_id', '=', accountId)
              .where('user_id', '=', userId)
              .where('ended_at', 'is', null)
              .where('expires_at', '>', clock.now());
            return keysetPage(live, { ...OLDEST_FIRST, sortColumn: 'authenticated_at' }, after, take).execute();
          },
          position: (row) => ({ key: Number(row.authenticated_at), id: row.id }),
        },
      );
      const data = page.rows.map((r) => ({ object: 'session' as const, id: r.id, authenticated_at: toRfc3339(Number(r.authenticated_at)), expires_at: toRfc3339(Number(r.expires_at)) }));
      return { data, next_cursor: page.nextCursor };
    },

    /** Ends one sign-in session: the clients it signed in to get back-channel logouts, and its grants end (user-access.ts). */
    async endSession(accountId: string, userId: string, sessionId: string, by?: AuditBy): Promise<void> {
      const session = await db.selectFrom('oauth_sessions').select('id').where('account_id', '=', accountId).where('user_id', '=', userId).where('id', '=', sessionId).executeTakeFirst();
      if (!session) {
        await requireUser(accountId, userId);
        throw problem('session_not_found', { detail: `No session ${sessionId} of this user` });
      }
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        if ((await endSessions(trx, { accountId, userId, sessionIds: [sessionId], at: now })) === 0) return;
        await recordAudit(trx, by, { accountId, action: 'session.revoked', target: { type: 'session', id: sessionId }, changes: { ended: { before: false, after: true } }, at: now });
      });
    },
  };
}

export type UserLifecycle = ReturnType<typeof createUserLifecycle>;
