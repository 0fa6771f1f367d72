/**
 * Access tokens are opaque to clients, in two forms behind one `verify`:
 *
 * - tokens for a person (code flow, refresh) and every token `issue` makes: 32 random bytes
 *   with a `gh_at_` prefix, stored only as their SHA-256 digest and looked up on every use;
 * - client-credentials tokens from `issueSealed`: the claims sealed under a server MAC key
 *   (token-sealing.ts), so issuing writes nothing; every use still checks the database for
 *   the client's existence and the revocation list.
 *
 * Either way revocation, a deleted client and a deactivated user take effect on the very next
 * request (RFC 6750 bearer usage).
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import type { Principal } from '../platform/auth.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { randomSecret, sha256Hex } from '../platform/crypto.ts';
import type { KeyVault } from '../platform/secrets-key.ts';
import { preparedForKeys, preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { LOOKUPS_TOGETHER, lookedUpTogether, lookupByKey } from '../platform/db/arriving-together.ts';
import { createTokenSealer, type SealedClaims } from './token-sealing.ts';

export const ACCESS_TOKEN_PREFIX = 'gh_at_';

export interface IssueAccessToken {
  accountId: string;
  clientId: string;
  userId?: string | null;
  grantId?: string | null;
  scopes: readonly string[];
  ttlSeconds: number;
}

export interface IssuedAccessToken {
  id: string;
  token: string;
  expiresIn: number;
  scope: string;
}

/** What a live token stands for, as introspection reports it. */
export interface TokenFacts {
  id: string;
  accountId: string;
  clientId: string;
  userId: string | null;
  scope: string;
  issuedAt: number;
  expiresAt: number;
  sealed: boolean;
}

export function isSealed(token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIX) && token.includes('.');
}

// Every request with a bearer token runs one of these two lookups. On PostgreSQL the lookups of
// requests that arrive together go as one statement (`lookedUpTogether`): a round trip per
// request was most of what a read such as a list page cost the node there.

const storedTokenColumns = (db: Db) =>
  db
    .selectFrom('access_tokens')
    .leftJoin('users', 'users.id', 'access_tokens.user_id')
    .select([
      'access_tokens.id',
      'access_tokens.token_digest',
      'access_tokens.account_id',
      'access_tokens.client_id',
      'access_tokens.user_id',
      'access_tokens.scope',
      'access_tokens.issued_at',
      'access_tokens.expires_at',
      'access_tokens.revoked_at',
      'users.active as user_active',
    ]);

type StoredTokenRow = Awaited<ReturnType<ReturnType<typeof storedTokenColumns>['executeTakeFirstOrThrow']>>;

const storedToken = preparedQuery((db, value: Placeholder<{ digest: string }>) => storedTokenColumns(db).where('access_tokens.token_digest', '=', value('digest')));

const storedTokens = preparedForKeys(['digests'], (db, keys) => storedTokenColumns(db).where('access_tokens.token_digest', 'in', keys.digests));

const sealedTokenClient = preparedQuery((db, value: Placeholder<{ tokenId: string; clientId: string; accountId: string }>) =>
  db
    .selectFrom('oauth_clients')
    .leftJoin('oauth_revoked_tokens', (join) => join.on('oauth_revoked_tokens.token_id', '=', value('tokenId')))
    .select(['oauth_clients.id', 'oauth_clients.scope', 'oauth_clients.grant_types', 'oauth_clients.tokens_not_before', 'oauth_revoked_tokens.token_id'])
    .where('oauth_clients.id', '=', value('clientId'))
    .where('oauth_clients.account_id', '=', value('accountId')),
);

/** The clients of a batch of sealed tokens, and which of the tokens are revoked. */
const sealedTokensClients = preparedForKeys(
  ['clientIds', 'tokenIds'],
  (_db, keys) => sql<{ revoked: boolean; id: string; account_id: string | null; scope: string | null; grant_types: string | null; tokens_not_before: number | null }>`
    select false as revoked, id, account_id, scope, grant_types, tokens_not_before from oauth_clients where id in (${sql.join(keys.clientIds)})
    union all
    select true, token_id, null, null, null, null from oauth_revoked_tokens where token_id in (${sql.join(keys.tokenIds)})`,
);

type ClientOfToken = Pick<SealedClaims, 'id' | 'clientId' | 'accountId'>;

/** The registration a sealed token's client has now: what its token may still carry. */
interface ClientNow {
  scope: string;
  grantTypes: string;
  /** Sealed tokens issued at or before this instant were ended by an operator (clients.ts `revokeTokens`). */
  tokensNotBefore: number | null;
}

/**
 * The two lookups as the database runs them best: one statement per lookup on SQLite (in
 * process), one per batch of lookups arriving together on PostgreSQL.
 */
function tokenLookups(db: Db): { storedRow(digest: string): Promise<StoredTokenRow | undefined>; clientNow(claims: ClientOfToken): Promise<ClientNow | undefined> } {
  const storedRow = lookupByKey<StoredTokenRow>(
    db,
    {
      one: async (digest) => (await storedToken.execute(db, { digest })).rows[0],
      many: async (digests) => (await storedTokens.execute(db, { digests })).rows,
      keyOf: (row) => row.token_digest,
    },
    LOOKUPS_TOGETHER,
  );
  if (!dialectOf(db).statementsTravel) {
    return {
      storedRow,
      clientNow: async ({ id, clientId, accountId }) => {
        const row = (await sealedTokenClient.execute(db, { tokenId: id, clientId, accountId })).rows[0];
        return row !== undefined && row.token_id === null ? { scope: row.scope, grantTypes: row.grant_types, tokensNotBefore: row.tokens_not_before } : undefined;
      },
    };
  }
  return {
    storedRow,
    clientNow: lookedUpTogether(async (batch: readonly ClientOfToken[]) => {
      const clientIds = [...new Set(batch.map((claims) => claims.clientId))];
      const tokenIds = [...new Set(batch.map((claims) => claims.id))];
      const { rows } = await sealedTokensClients.execute(db, { clientIds, tokenIds });
      const clients = new Map(rows.filter((row) => !row.revoked).map((row) => [row.id, row]));
      const revoked = new Set(rows.filter((row) => row.revoked).map((row) => row.id));
      return (claims): ClientNow | undefined => {
        const client = clients.get(claims.clientId);
        if (client?.account_id !== claims.accountId || revoked.has(claims.id)) return undefined;
        return { scope: client.scope!, grantTypes: client.grant_types!, tokensNotBefore: client.tokens_not_before };
      };
    }, LOOKUPS_TOGETHER),
  };
}

/**
 * What a client-credentials token may still carry: its scopes that its client's registration
 * still holds, so an operator narrowing a client (or taking client_credentials from it) narrows
 * the tokens it already has at their next use; undefined when nothing is left. The registration
 * is read on every use anyway (the client must still exist).
 */
function withinRegistration(scope: string, client: ClientNow): string | undefined {
  if (!client.grantTypes.includes('"client_credentials"')) return undefined;
  if (scope === client.scope) return scope;
  const registered = new Set(client.scope.split(' '));
  const kept = scope.split(' ').filter((s) => registered.has(s));
  return kept.length === 0 ? undefined : kept.join(' ');
}

export function createAccessTokens(deps: { db: Db; clock: Clock; vault: KeyVault }) {
  const { db, clock } = deps;
  const sealer = createTokenSealer(deps);
  const lookups = tokenLookups(db);

  async function stored(token: string): Promise<TokenFacts | undefined> {
    const row = await lookups.storedRow(sha256Hex(token));
    if (!row || row.revoked_at !== null || row.expires_at <= clock.now()) return undefined;
    // A token issued to a person stops working once that person is deactivated or deleted.
    if (row.user_id !== null && row.user_active !== 1) return undefined;
    return {
      id: row.id,
      accountId: row.account_id,
      clientId: row.client_id,
      userId: row.user_id,
      scope: row.scope,
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
      sealed: false,
    };
  }

  async function sealed(token: string): Promise<TokenFacts | undefined> {
    const claims = await sealer.open(token, ACCESS_TOKEN_PREFIX);
    if (!claims || claims.expiresAt <= clock.now()) return undefined;
    const client = await lookups.clientNow(claims);
    if (!client || (client.tokensNotBefore !== null && claims.issuedAt <= client.tokensNotBefore)) return undefined;
    const scope = withinRegistration(claims.scope, client);
    if (scope === undefined) return undefined;
    return { ...claims, scope, userId: null, sealed: true };
  }

  async function inspect(token: string): Promise<TokenFacts | undefined> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
    return isSealed(token) ? sealed(token) : stored(token);
  }

  return {
    async issue(input: IssueAccessToken, trx: Transaction<Tables> | Db = db): Promise<IssuedAccessToken> {
      const token = randomSecret(32, ACCESS_TOKEN_PREFIX);
      const now = clock.now();
      const id = newTimeOrderedId('at', now);
      const scope = input.scopes.join(' ');
      await trx
        .insertInto('access_tokens')
        .values({
          id,
          token_digest: sha256Hex(token),
          account_id: input.accountId,
          client_id: input.clientId,
          user_id: input.userId ?? null,
          grant_id: input.grantId ?? null,
          scope,
          issued_at: now,
          expires_at: now + input.ttlSeconds * 1000,
          revoked_at: null,
        })
        .execute();
      return { id, token, expiresIn: input.ttlSeconds, scope };
    },

    /** A client-credentials token: no user, no grant, nothing written until it is revoked. */
    async issueSealed(input: { accountId: string; clientId: string; scopes: readonly string[]; ttlSeconds: number }): Promise<IssuedAccessToken> {
      const now = clock.now();
      const claims: SealedClaims = {
        id: newTimeOrderedId('at', now),
        accountId: input.accountId,
        clientId: input.clientId,
        scope: input.scopes.join(' '),
        issuedAt: now,
        expiresAt: now + input.ttlSeconds * 1000,
      };
      return { id: claims.id, token: await sealer.seal(claims, ACCESS_TOKEN_PREFIX), expiresIn: input.ttlSeconds, scope: claims.scope };
    },

    /** The live token's facts (introspection, revocation), or undefined. */
    inspect,

    /** The principal a bearer token stands for, or undefined when it is unknown, expired or revoked. */
    async verify(token: string): Promise<Principal | undefined> {
      const facts = await inspect(token);
      if (!facts) return undefined;
      return {
        kind: 'access_token',
        tokenId: facts.id,
        accountId: facts.accountId,
        clientId: facts.clientId,
        userId: facts.userId,
        scopes: new Set(facts.scope.split(' ').filter(Boolean)),
      };
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
