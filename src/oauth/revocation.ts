/**
 * RFC 7009 token revocation and RFC 7662 token introspection.
 *
 * - Revocation: the client authenticates as at /token and may revoke only its own tokens; an
 *   unknown or foreign token still answers 200 (§2.2). Revoking a refresh token revokes its
 *   whole grant, access tokens included (§2.1).
 * - Introspection: any confidential client of the same account may ask; a token of another
 *   account, or one that is revoked, expired, rotated or held by an inactive user, is
 *   `{"active": false}` and nothing more (§2.2). `sub` is the person as the token's client knows
 *   them (OIDC Core §8): pairwise for a pairwise client, so that introspection does not hand any
 *   client of the account the id that would join that client's users with another's.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { isUniqueViolation } from '../platform/db/database.ts';
import { recordAudit } from '../audit/record.ts';
import type { Client } from './clients.ts';
import { ACCESS_TOKEN_PREFIX, type AccessTokens } from './access-tokens.ts';
import { REFRESH_TOKEN_PREFIX, findGrant, findRefreshToken, revokeGrant } from './grants.ts';
import { invalidClient } from './errors.ts';
import { isUserActive } from '../users/store.ts';

export interface Introspection {
  active: boolean;
  scope?: string;
  client_id?: string;
  token_type?: string;
  exp?: number;
  iat?: number;
  sub?: string;
  iss?: string;
}

/** RFC 7009: the record of a token revoked by the client it was issued to. */
function revoked(trx: Db, client: Client, accountId: string, target: { type: string; id: string }, at: number) {
  return recordAudit(trx, { actor: { type: 'client', id: client.id } }, { accountId, action: 'token.revoked', target, changes: { revoked: { before: false, after: true } }, at });
}

/** The `sub` the client `clientId` knows the person `userId` by; undefined when the client is gone. */
export type SubjectFor = (clientId: string, userId: string) => Promise<string | undefined>;

export function createRevocation(deps: { db: Db; clock: Clock; issuer: string; accessTokens: AccessTokens; subjectFor: SubjectFor }) {
  const { db, clock, issuer, accessTokens, subjectFor } = deps;

  async function revokeAccessToken(client: Client, token: string, now: number): Promise<void> {
    const facts = await accessTokens.inspect(token);
    if (!facts || facts.clientId !== client.id) return;
    const record = (trx: Db) => revoked(trx, client, facts.accountId, { type: 'access_token', id: facts.id }, now);
    if (!facts.sealed) {
      await db.transaction().execute(async (trx) => {
        const done = await trx.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', facts.id).where('revoked_at', 'is', null).executeTakeFirst();
        if (Number(done.numUpdatedRows) > 0) await record(trx);
      });
      return;
    }
    await db.deleteFrom('oauth_revoked_tokens').where('expires_at', '<=', now).execute();
    try {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('oauth_revoked_tokens').values({ token_id: facts.id, expires_at: facts.expiresAt }).execute();
        await record(trx);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  return {
    async revoke(client: Client, token: string): Promise<void> {
      const now = clock.now();
      if (token.startsWith(REFRESH_TOKEN_PREFIX)) {
        const row = await findRefreshToken(db, token);
        if (row && row.client_id === client.id && row.revoked_at === null) {
          await db.transaction().execute(async (trx) => {
            await revokeGrant(trx, row.grant_id, now);
            await revoked(trx, client, row.account_id, { type: 'grant', id: row.grant_id }, now);
          });
        }
        return;
      }
      if (token.startsWith(ACCESS_TOKEN_PREFIX)) await revokeAccessToken(client, token, now);
    },

    async introspect(caller: Client, token: string): Promise<Introspection> {
      if (caller.authMethod === 'none') throw invalidClient('Public clients may not introspect tokens');
      const now = clock.now();
      const inactive = { active: false };
      if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
        const facts = await accessTokens.inspect(token);
        if (!facts || facts.accountId !== caller.accountId) return inactive;
        const sub = facts.userId === null ? undefined : await subjectFor(facts.clientId, facts.userId);
        if (facts.userId !== null && sub === undefined) return inactive;
        return {
          active: true,
          scope: facts.scope,
          client_id: facts.clientId,
          token_type: 'Bearer',
          exp: Math.floor(facts.expiresAt / 1000),
          iat: Math.floor(facts.issuedAt / 1000),
          ...(sub === undefined ? {} : { sub }),
          iss: issuer,
        };
      }
      if (token.startsWith(REFRESH_TOKEN_PREFIX)) {
        const row = await findRefreshToken(db, token);
        if (!row || row.account_id !== caller.accountId || row.revoked_at !== null || row.rotated_at !== null || row.expires_at <= now) return inactive;
        const grant = await findGrant(db, row.grant_id);
        if (!grant || grant.revoked_at !== null || !(await isUserActive(db, row.account_id, row.user_id))) return inactive;
        const sub = await subjectFor(row.client_id, row.user_id);
        if (sub === undefined) return inactive;
        return {
          active: true,
          scope: grant.scope,
          client_id: row.client_id,
          // No token_type: RFC 7662 §2.2 takes it from RFC 6749 §7.1, access token types (Bearer).
          exp: Math.floor(row.expires_at / 1000),
          iat: Math.floor(row.issued_at / 1000),
          sub,
          iss: issuer,
        };
      }
      return inactive;
    },
  };
}

export type Revocation = ReturnType<typeof createRevocation>;
