/**
 * Credentials of the SCIM endpoint: per-account bearer tokens made through the admin API
 * (generated, shown once, stored as SHA-256 digests, revocable), or an OAuth access token
 * carrying the `scim` scope. A missing or bad credential answers 401 with a SCIM Error
 * (RFC 7644 §2, RFC 6750 challenge); everything the principal reaches is its account's.
 */
import type { Paging } from '../paging/page.ts';
import { keysetPage, NEWEST_FIRST } from '../paging/keyset.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/record.ts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import { preparedForKeys, preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { LOOKUPS_TOGETHER, lookupByKey } from '../platform/db/arriving-together.ts';
import type { Clock } from '../platform/clock.ts';
import type { Principal } from '../platform/auth.ts';
import { bearerToken } from '../platform/auth.ts';
import { newId } from '../platform/ids.ts';
import { randomSecret, sha256Hex } from '../platform/crypto.ts';
import type { AccessTokens } from '../oauth/access-tokens.ts';
import { SCIM_CHALLENGE, invalidCredential, scimError } from './errors.ts';
import { holdAccountOpen } from '../accounts/store.ts';
import { problem } from '../platform/errors/catalogue.ts';

export const SCIM_TOKEN_PREFIX = 'gh_scim_';

export interface ScimTokenView {
  id: string;
  object: 'scim_token';
  description: string;
  created_at: string;
  revoked_at: string | null;
}

/**
 * Every SCIM request verifies its token: the query is compiled once, run with each digest (on
 * PostgreSQL with the digests of the requests that arrive together, `lookupByKey`).
 */
const tokenColumns = (db: Db) => db.selectFrom('scim_tokens').select(['token_digest', 'id', 'account_id', 'revoked_at']);
const byDigest = preparedQuery((db, value: Placeholder<{ digest: string }>) => tokenColumns(db).where('token_digest', '=', value('digest')));
const byDigests = preparedForKeys(['digests'], (db, keys) => tokenColumns(db).where('token_digest', 'in', keys.digests));

export function createScimTokens(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  const tokenRow = lookupByKey(
    db,
    {
      one: async (digest) => (await byDigest.execute(db, { digest })).rows[0],
      many: async (digests) => (await byDigests.execute(db, { digests })).rows,
      keyOf: (row) => row.token_digest,
    },
    LOOKUPS_TOGETHER,
  );
  const view = (r: { id: string; description: string; created_at: number; revoked_at: number | null }): ScimTokenView => ({
    id: r.id,
    object: 'scim_token',
    description: r.description,
    created_at: new Date(r.created_at).toISOString(),
    revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at).toISOString(),
  });
  return {
    async issue(accountId: string, description: string, by?: AuditBy): Promise<ScimTokenView & { token: string }> {
      const token = randomSecret(32, SCIM_TOKEN_PREFIX);
      const row = { id: newId('scimtok'), account_id: accountId, token_digest: sha256Hex(token), description, created_at: clock.now(), revoked_at: null };
      await db.transaction().execute(async (trx) => {
        // An account closed meanwhile gets no credential: its closing revoked the ones it had.
        if (!(await holdAccountOpen(trx, accountId))) throw problem('account_not_found');
        await trx.insertInto('scim_tokens').values(row).execute();
        const changes = changesOf(null, { description, token: true });
        await recordAudit(trx, by, { accountId, action: 'scim_token.created', target: { type: 'scim_token', id: row.id }, changes, at: row.created_at });
      });
      return { ...view(row), token };
    },
    /** A page of the account's tokens, newest first (sealed cursors, paging/page.ts). */
    async list(paging: Paging, accountId: string, request: { limit?: number; after?: string }) {
      const page = await paging.read(
        { accountId, limit: request.limit, after: request.after },
        {
          orderName: 'scim-tokens:created_at.desc,id.desc',
          fetch: (after, take) => keysetPage(db.selectFrom('scim_tokens').selectAll().where('account_id', '=', accountId), NEWEST_FIRST, after, take).execute(),
          position: (row) => ({ key: Number(row.created_at), id: row.id }),
        },
      );
      return { data: page.rows.map(view), next_cursor: page.nextCursor };
    },
    /** A token as the list shows it (never the token itself); undefined when the account has no such token. */
    async get(accountId: string, id: string): Promise<ScimTokenView | undefined> {
      const row = await db.selectFrom('scim_tokens').select(['id', 'description', 'created_at', 'revoked_at']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return row && view(row);
    },
    /** Revokes a token; false when the account has no such token. */
    async revoke(accountId: string, id: string, by?: AuditBy): Promise<boolean> {
      const row = await db.selectFrom('scim_tokens').select(['id', 'revoked_at']).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      if (!row) return false;
      if (row.revoked_at !== null) return true;
      const at = clock.now();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('scim_tokens').set({ revoked_at: at }).where('id', '=', id).execute();
        await recordAudit(trx, by, { accountId, action: 'scim_token.revoked', target: { type: 'scim_token', id }, changes: { revoked: { before: false, after: true } }, at });
      });
      return true;
    },
    async verify(token: string): Promise<Principal | undefined> {
      if (!token.startsWith(SCIM_TOKEN_PREFIX)) return undefined;
      // Looked up by digest: equality of digests of a high-entropy secret leaks nothing usable.
      const row = await tokenRow(sha256Hex(token));
      if (!row || row.revoked_at !== null) return undefined;
      return { kind: 'scim_token', tokenId: row.id, accountId: row.account_id, clientId: row.id, userId: null, scopes: new Set(['scim']) };
    },
  };
}

export type ScimTokens = ReturnType<typeof createScimTokens>;

/** A route's `onRequest` hook: a SCIM token, or an access token with scope `scim`. */
export function requireScimCredential(deps: { tokens: ScimTokens; accessTokens: AccessTokens }) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (token === undefined) throw scimError(401, null, 'Send Authorization: Bearer <SCIM token>', { 'www-authenticate': SCIM_CHALLENGE });
    const principal = token.startsWith(SCIM_TOKEN_PREFIX) ? await deps.tokens.verify(token) : await deps.accessTokens.verify(token);
    if (!principal) throw invalidCredential();
    if (!principal.scopes.has('scim')) {
      throw scimError(403, null, 'The access token lacks the scope scim', { 'www-authenticate': `${SCIM_CHALLENGE}, error="insufficient_scope", scope="scim"` });
    }
    request.principal = principal;
  };
}

/** Name of the SCIM token's security scheme in the public API document. */
export const SCIM_TOKEN_SCHEME = 'scimToken';
