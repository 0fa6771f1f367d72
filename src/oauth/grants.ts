/**
 * Grants, authorization codes and refresh tokens: the stored state behind the code flow.
 *
 * - A code is stored as a digest, lives `codeTtl` seconds and is consumed once; presenting a
 *   consumed code again revokes the grant it created and every token issued from it
 *   (RFC 6749 §4.1.2, RFC 9700 §4.5).
 * - A refresh token is rotated on every use; presenting a rotated one again revokes the whole
 *   grant (RFC 9700 §4.14.2). Its lifetime is the grant's, absolute from the first sign-in.
 * - Revoking a grant revokes its refresh tokens and access tokens in the same transaction.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import { newId } from '../platform/ids.ts';
import { randomSecret, sha256Hex } from '../platform/crypto.ts';
import type { OAuthTables } from './tables.ts';

export type Trx = Transaction<Tables> | Db;
export type CodeRow = OAuthTables['oauth_codes'];
export type RefreshRow = OAuthTables['oauth_refresh_tokens'];
export type GrantRow = OAuthTables['oauth_grants'];

export const CODE_PREFIX = 'gh_ac_';
export const REFRESH_TOKEN_PREFIX = 'gh_rt_';

export interface NewCode {
  accountId: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string | null;
  now: number;
  ttlSeconds: number;
  /** OpenID Connect: what the ID token will carry (see id-token.ts). */
  oidc?: { nonce: string | null; authTime: number; sessionId: string | null; claims: string | null };
}

export async function issueCode(db: Trx, input: NewCode): Promise<string> {
  const code = randomSecret(32, CODE_PREFIX);
  await db
    .insertInto('oauth_codes')
    .values({
      code_digest: sha256Hex(code),
      account_id: input.accountId,
      client_id: input.clientId,
      user_id: input.userId,
      grant_id: newId('grant'),
      redirect_uri: input.redirectUri,
      scope: input.scope,
      code_challenge: input.codeChallenge,
      created_at: input.now,
      expires_at: input.now + input.ttlSeconds * 1000,
      consumed_at: null,
      nonce: input.oidc?.nonce ?? null,
      auth_time: input.oidc?.authTime ?? null,
      session_id: input.oidc?.sessionId ?? null,
      claims: input.oidc?.claims ?? null,
    })
    .execute();
  return code;
}

export async function findCode(db: Trx, code: string): Promise<CodeRow | undefined> {
  return db.selectFrom('oauth_codes').selectAll().where('code_digest', '=', sha256Hex(code)).executeTakeFirst();
}

/** Marks the code consumed; false when another request consumed it first. */
export async function consumeCode(db: Trx, codeDigest: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('oauth_codes')
    .set({ consumed_at: now })
    .where('code_digest', '=', codeDigest)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function createGrant(db: Trx, row: GrantRow): Promise<void> {
  await db.insertInto('oauth_grants').values(row).execute();
}

export async function findGrant(db: Trx, grantId: string): Promise<GrantRow | undefined> {
  return db.selectFrom('oauth_grants').selectAll().where('id', '=', grantId).executeTakeFirst();
}

export async function issueRefreshToken(db: Trx, grant: GrantRow, now: number): Promise<string> {
  const token = randomSecret(32, REFRESH_TOKEN_PREFIX);
  await db
    .insertInto('oauth_refresh_tokens')
    .values({
      id: newId('rt'),
      token_digest: sha256Hex(token),
      account_id: grant.account_id,
      client_id: grant.client_id,
      user_id: grant.user_id,
      grant_id: grant.id,
      issued_at: now,
      expires_at: grant.expires_at,
      rotated_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

export async function findRefreshToken(db: Trx, token: string): Promise<RefreshRow | undefined> {
  return db.selectFrom('oauth_refresh_tokens').selectAll().where('token_digest', '=', sha256Hex(token)).executeTakeFirst();
}

/** Marks the refresh token used; false when it was already rotated (a concurrent reuse). */
export async function rotateRefreshToken(db: Trx, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('oauth_refresh_tokens')
    .set({ rotated_at: now })
    .where('id', '=', id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes a grant with every refresh and access token issued under it; true when the grant was live until now. */
export async function revokeGrant(db: Trx, grantId: string, now: number): Promise<boolean> {
  const grant = await db.updateTable('oauth_grants').set({ revoked_at: now }).where('id', '=', grantId).where('revoked_at', 'is', null).executeTakeFirst();
  await db.updateTable('oauth_refresh_tokens').set({ revoked_at: now }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
  await db.updateTable('access_tokens').set({ revoked_at: now }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
  return Number(grant.numUpdatedRows) === 1;
}
