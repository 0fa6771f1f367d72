/**
 * Sign-in sessions of the login page, and the consent each user has given each client.
 *
 * A session cookie holds a random secret; the row holds its digest, so a database read never
 * yields a usable cookie. A session belongs to one account and ends after `SESSION_TTL`, at
 * sign-out, when another person signs in in its browser, or when the user is deactivated (see
 * user-access.ts); the same person signing in again renews it under a new secret. Consent is
 * remembered per user and client as the union of the scopes allowed; a request for a scope
 * outside it asks again.
 */
import { recordAudit, type AuditBy } from '../audit/record.ts';
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { randomSecret, safeEqual, sha256Hex } from '../platform/crypto.ts';
import { formatScope, scopeSet } from './scopes.ts';
import { endSessions } from './user-access.ts';
import { holdUser } from '../users/store.ts';
import { DEVICE_TTL_SECONDS } from './sign-in-devices.ts';

export const SESSION_TTL_SECONDS = 12 * 3600;

export interface Session {
  id: string;
  accountId: string;
  userId: string;
  userName: string;
  authenticatedAt: number;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (name && !(name in out)) out[name] = part.slice(eq + 1).trim();
  }
  return out;
}

function cookie(name: string, value: string, options: { secure: boolean; maxAge?: number; path: string }): string {
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * The sign-in session, CSRF and known-device (sign-in-devices.ts) cookies of the login pages. Behind an https issuer their names
 * carry the `__Host-` prefix (RFC 6265bis §4.1.3.2): a browser then accepts them only when set
 * over https, Secure, with `Path=/` and no `Domain`, so a sibling subdomain or a plain-http
 * response cannot plant or overwrite them. Over http (local development) a browser would refuse
 * such cookies, so the plain names stay, and the CSRF cookie keeps to `/authorize`.
 */
export function sessionCookies(issuer: string) {
  const secure = issuer.startsWith('https:');
  const prefix = secure ? '__Host-' : '';
  const session = `${prefix}gh_session`;
  const csrf = `${prefix}gh_csrf`;
  const device = `${prefix}gh_device`;
  return {
    session,
    csrf,
    device,
    /** The Set-Cookie value that starts a session. */
    setSession: (secret: string) => cookie(session, secret, { secure, maxAge: SESSION_TTL_SECONDS, path: '/' }),
    /** The Set-Cookie value that forgets the session (sign-out). */
    clearSession: () => cookie(session, '', { secure, maxAge: 0, path: '/' }),
    /** The Set-Cookie value that carries the sign-in form's double-submit token. */
    setCsrf: (token: string) => cookie(csrf, token, { secure, path: secure ? '/' : '/authorize' }),
    /** The Set-Cookie value that marks this browser as one the person signed in from. */
    setDevice: (value: string) => cookie(device, value, { secure, maxAge: DEVICE_TTL_SECONDS, path: secure ? '/' : '/authorize' }),
  };
}

export type SessionCookies = ReturnType<typeof sessionCookies>;

/** The scopes a user has allowed a client, if any. */
function consentRow(executor: Db | Transaction<Tables>, accountId: string, userId: string, clientId: string) {
  return executor.selectFrom('oauth_consents').select('scope').where('account_id', '=', accountId).where('user_id', '=', userId).where('client_id', '=', clientId);
}

export function createSessions(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async find(secret: string | undefined): Promise<Session | undefined> {
      if (!secret) return undefined;
      const row = await db
        .selectFrom('oauth_sessions')
        .innerJoin('users', 'users.id', 'oauth_sessions.user_id')
        .select(['oauth_sessions.id', 'oauth_sessions.account_id', 'oauth_sessions.user_id', 'oauth_sessions.authenticated_at', 'oauth_sessions.expires_at', 'oauth_sessions.ended_at', 'users.active', 'users.user_name'])
        .where('oauth_sessions.session_digest', '=', sha256Hex(secret))
        .executeTakeFirst();
      if (!row || row.ended_at !== null || row.expires_at <= clock.now() || row.active !== 1) return undefined;
      return { id: row.id, accountId: row.account_id, userId: row.user_id, userName: row.user_name, authenticatedAt: row.authenticated_at };
    },

    /**
     * The session of the person whose password `signedIn.passwordHash` was just verified: its new
     * cookie secret and its id. The browser's session `previous`, when it is the same person's
     * (prompt=login, max_age), goes on under a new secret with a new authentication time, so the
     * clients it signed in to keep it (its `sid`); another person's is ended, as by signing out
     * (`endSessions`), and a new one begins. Undefined, and no session, when the person changed
     * meanwhile (deactivated, deleted, or given a new password during the check): the person is
     * held for share, so a change under way is waited for and seen, and one that comes after ends
     * this session with the others.
     */
    async start(accountId: string, signedIn: { id: string; passwordHash: string }, previous?: string, by?: AuditBy): Promise<{ secret: string; id: string; authenticatedAt: number } | undefined> {
      const userId = signedIn.id;
      const now = clock.now();
      const secret = randomSecret(32);
      const id = newId('sess');
      return db.transaction().execute(async (trx) => {
        const person = await holdUser(trx, accountId, userId);
        if (person?.active !== 1 || person.password_hash === null || !safeEqual(person.password_hash, signedIn.passwordHash)) return undefined;
        const replaced = previous
          ? await trx.selectFrom('oauth_sessions').select(['id', 'account_id', 'user_id']).where('session_digest', '=', sha256Hex(previous)).where('ended_at', 'is', null).where('expires_at', '>', now).executeTakeFirst()
          : undefined;
        if (replaced?.account_id === accountId && replaced.user_id === userId) {
          const renewed = await trx
            .updateTable('oauth_sessions')
            .set({ session_digest: sha256Hex(secret), authenticated_at: now, expires_at: now + SESSION_TTL_SECONDS * 1000 })
            .where('id', '=', replaced.id)
            .where('ended_at', 'is', null)
            .executeTakeFirst();
          if (Number(renewed.numUpdatedRows) === 1) {
            await recordAudit(trx, by, { accountId, action: 'signin.succeeded', target: { type: 'user', id: userId }, at: now });
            return { secret, id: replaced.id, authenticatedAt: now };
          }
        } else if (replaced) {
          await endSessions(trx, { accountId: replaced.account_id, userId: replaced.user_id, sessionIds: [replaced.id], at: now });
        }
        await trx
          .insertInto('oauth_sessions')
          .values({ id, session_digest: sha256Hex(secret), account_id: accountId, user_id: userId, authenticated_at: now, expires_at: now + SESSION_TTL_SECONDS * 1000, ended_at: null })
          .execute();
        await recordAudit(trx, by, { accountId, action: 'signin.succeeded', target: { type: 'user', id: userId }, at: now });
        return { secret, id, authenticatedAt: now };
      });
    },

    /**
     * True when the session is still live, and then held for share until `trx` ends: a code
     * issued under it (and the client it signs in to) is written before a sign-out or the end of
     * the person's access reads what to end (`queueLogoutTokens` locks the sessions first).
     */
    async hold(trx: Transaction<Tables>, session: Session): Promise<boolean> {
      const live = trx.selectFrom('oauth_sessions').select('id').where('id', '=', session.id).where('ended_at', 'is', null);
      return (await dialectOf(trx).lockForShare(live).executeTakeFirst()) !== undefined;
    },

    async consented(accountId: string, userId: string, clientId: string): Promise<Set<string>> {
      const row = await consentRow(db, accountId, userId, clientId).executeTakeFirst();
      return row ? scopeSet(row.scope) : new Set();
    },

    /**
     * Signs out (RP-initiated logout): ends the session and, in the same transaction, queues a
     * back-channel logout to each client it signed in to and revokes the grants signed in under it.
     */
    async end(session: Session, by?: AuditBy): Promise<void> {
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // A second sign-out racing this one changed nothing, so it records nothing.
        if ((await endSessions(trx, { accountId: session.accountId, userId: session.userId, sessionIds: [session.id], at: now })) === 0) return;
        await recordAudit(trx, by, { accountId: session.accountId, action: 'session.ended', target: { type: 'session', id: session.id }, changes: { ended: { before: false, after: true } }, at: now });
      });
    },

    /** OpenID Connect: this session signed the person in to this client (back-channel logout goes there). */
    async rememberClient(session: Session, clientId: string, trx: Db | Transaction<Tables> = db): Promise<void> {
      await trx
        .insertInto('oidc_session_clients')
        .values({ session_id: session.id, client_id: clientId, account_id: session.accountId, user_id: session.userId, created_at: clock.now() })
        .onConflict((oc) => oc.columns(['session_id', 'client_id']).doNothing())
        .execute();
    },

    /**
     * Adds `scopes` to what the person has consented to for the client, in `trx`: the caller's
     * transaction, which holds their session live (`hold`), so a deletion or deactivation of the
     * person either waits for the consent (and then forgets it) or ends the session first and
     * no consent is written. Two consents at once (two tabs) merge: the second finds the first's
     * row, or meets its insert and merges into it.
     */
    async rememberConsent(trx: Transaction<Tables>, input: { accountId: string; userId: string; clientId: string; scopes: string[]; by?: AuditBy }): Promise<void> {
      const { accountId, userId, clientId, by } = input;
      const now = clock.now();
      for (;;) {
        const row = await dialectOf(trx).lockForWrite(consentRow(trx, accountId, userId, clientId)).executeTakeFirst();
        const scope = formatScope([...scopeSet(row?.scope ?? ''), ...input.scopes]);
        if (scope === row?.scope) return;
        if (row) {
          await trx.updateTable('oauth_consents').set({ scope, updated_at: now }).where('account_id', '=', accountId).where('user_id', '=', userId).where('client_id', '=', clientId).execute();
        } else {
          const inserted = await trx
            .insertInto('oauth_consents')
            .values({ account_id: accountId, user_id: userId, client_id: clientId, scope, updated_at: now })
            .onConflict((oc) => oc.columns(['account_id', 'user_id', 'client_id']).doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) continue;
        }
        const changes = { scope: { before: row?.scope ?? null, after: scope } };
        await recordAudit(trx, by, { accountId, action: 'consent.granted', target: { type: 'client', id: clientId }, changes, at: now });
        return;
      }
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
