/**
 * Clients: registration (RFC 7591 metadata, managed through the admin API), partial update,
 * secret rotation, deletion, and the cached lookup client authentication reads.
 *
 * The metadata rules (redirect URIs, grant and response types, scopes, keys, the OpenID Connect
 * fields) live in client-metadata.ts; `update` applies a partial change (PATCH) and re-checks the
 * whole registration there. Secret methods get a generated secret, shown once, stored as a
 * SHA-256 digest. private_key_jwt takes either inline `jwks` or a `jwks_uri` fetched through the
 * outbound guard (jwks-fetch.ts), so the client rotates its keys without a new client_id.
 * Deleting a client revokes every token and grant it holds, in the same transaction.
 * Registering, updating and rotating hold the account open in their transaction
 * (`holdAccountOpen`): the routes check the account before it begins, and a closing that commits
 * in between must not leave a client, or a new secret, in the closed account.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Tables } from '../platform/db/tables.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/index.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { randomSecret, sha256Hex } from '../platform/crypto.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { ClientRow } from './tables.ts';
import type { Paging } from '../paging/page.ts';
import { keysetPage, NEWEST_FIRST } from '../paging/keyset.ts';
import { RefusedTarget, type TargetPolicy } from '../webhooks/target-policy.ts';
import { holdAccountOpen } from '../accounts/store.ts';
import { formatScope } from './scopes.ts';

export { AUTH_METHODS, GRANT_TYPES, ID_TOKEN_ALGS, SUBJECT_TYPES, type AuthMethod, type ClientMetadata, type IdTokenAlg, type SubjectType } from './client-metadata.ts';
import { checkMetadata, metadataColumns, metadataError, type AuthMethod, type ClientMetadata, type IdTokenAlg, type SubjectType } from './client-metadata.ts';

export const CLIENT_SECRET_PREFIX = 'gh_cs_';
const CACHE_MS = 1000;
const CACHE_MAX = 10_000;

export interface Client {
  id: string;
  accountId: string;
  name: string;
  redirectUris: string[];
  grantTypes: string[];
  responseTypes: string[];
  authMethod: AuthMethod;
  scopes: ReadonlySet<string>;
  jwks: { keys: Array<Record<string, unknown>> } | null;
  jwksUri: string | null;
  secretDigest: string | null;
  createdAt: number;
  postLogoutRedirectUris: string[];
  idTokenAlg: IdTokenAlg;
  subjectType: SubjectType;
  backchannelLogoutUri: string | null;
  requirePkce: boolean;
}

export function clientFromRow(row: ClientRow): Client {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.client_name,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    grantTypes: JSON.parse(row.grant_types) as string[],
    responseTypes: JSON.parse(row.response_types) as string[],
    authMethod: row.token_endpoint_auth_method as AuthMethod,
    scopes: new Set(row.scope.split(' ').filter(Boolean)),
    jwks: row.jwks === null ? null : (JSON.parse(row.jwks) as Client['jwks']),
    jwksUri: row.jwks_uri,
    secretDigest: row.secret_digest,
    createdAt: row.created_at,
    postLogoutRedirectUris: JSON.parse(row.post_logout_redirect_uris) as string[],
    idTokenAlg: row.id_token_signed_response_alg as IdTokenAlg,
    subjectType: row.subject_type as SubjectType,
    backchannelLogoutUri: row.backchannel_logout_uri,
    requirePkce: row.require_pkce === 1,
  };
}

/** The RFC 7591 §3.2.1 view of a client; `client_secret` only when just generated. */
export function presentClient(client: Client, secret?: string) {
  return {
    object: 'client' as const,
    client_id: client.id,
    ...(secret === undefined ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: Math.floor(client.createdAt / 1000),
    account_id: client.accountId,
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.authMethod,
    scope: formatScope(client.scopes),
    ...(client.jwks ? { jwks: client.jwks } : {}),
    ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    id_token_signed_response_alg: client.idTokenAlg,
    subject_type: client.subjectType,
    ...(client.backchannelLogoutUri ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
    require_pkce: client.requirePkce,
    created_at: toRfc3339(client.createdAt),
  };
}

/** A client's registration as metadata, the starting point of a partial update. */
function metadataOf(client: Client): ClientMetadata {
  return {
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.responseTypes,
    token_endpoint_auth_method: client.authMethod,
    scope: formatScope(client.scopes),
    jwks: client.jwks,
    jwks_uri: client.jwksUri,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    id_token_signed_response_alg: client.idTokenAlg,
    subject_type: client.subjectType,
    backchannel_logout_uri: client.backchannelLogoutUri,
    require_pkce: client.requirePkce,
  };
}

export function createClients(deps: { db: Db; clock: Clock; outboundPolicy?: TargetPolicy }) {
  const { db, clock } = deps;

  /** A jwks_uri must pass the outbound guard now, not first at a token request. */
  async function checkJwksUri(uri: string | null): Promise<void> {
    if (!uri || !deps.outboundPolicy) return;
    try {
      await deps.outboundPolicy.checkUrl(uri);
    } catch (error) {
      if (error instanceof RefusedTarget) throw metadataError(`jwks_uri: ${error.message}`);
      throw error;
    }
  }

  // Every token request looks its client up. The parsed registration is kept for at most
  // CACHE_MS; this node forgets it at once when the client is deleted or its secret rotated, and
  // other nodes within CACHE_MS. Tokens never rely on it: every use of a token re-reads the client.
  const byId = db.selectFrom('oauth_clients').selectAll().where('id', '=', '').compile();
  const cache = new Map<string, { client: Client; until: number }>();

  async function find(clientId: string): Promise<Client | undefined> {
    const now = clock.now();
    const hit = cache.get(clientId);
    if (hit && hit.until > now) return hit.client;
    const { rows } = await db.executeQuery<ClientRow>({ ...byId, parameters: [clientId] });
    const row = rows[0];
    if (!row) {
      cache.delete(clientId);
      return undefined;
    }
    const client = clientFromRow(row);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(clientId, { client, until: now + CACHE_MS });
    return client;
  }

  const notInAccount = (clientId: string) => problem('client_not_found', { detail: `No client ${clientId} in this account` });

  /**
   * First in a transaction that writes a client: the account stays open until it commits. A
   * closing that went first deleted the account's clients, so a client written after it would
   * outlive it, holding a secret that still gets tokens; refused as the admin API refuses any
   * request for a closed account.
   */
  async function requireOpenAccount(trx: Transaction<Tables>, accountId: string): Promise<void> {
    if (!(await holdAccountOpen(trx, accountId))) throw problem('account_not_found', { detail: `No account ${accountId}` });
  }

  /**
   * Revokes, in `trx`, the client's live access and refresh tokens and grants, and deletes the
   * codes it has not redeemed yet (a grant is made only when its code is redeemed); how many of
   * each. Redeemed codes stay, so that a late replay of one still revokes what it issued.
   */
  async function revokeIssued(trx: Transaction<Tables>, clientId: string, now: number) {
    const access = await trx.updateTable('access_tokens').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    const refresh = await trx.updateTable('oauth_refresh_tokens').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    const grants = await trx.updateTable('oauth_grants').set({ revoked_at: now }).where('client_id', '=', clientId).where('revoked_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    const codes = await trx.deleteFrom('oauth_codes').where('client_id', '=', clientId).where('consumed_at', 'is', null).executeTakeFirst();
    return { access_tokens: Number(access.numUpdatedRows), refresh_tokens: Number(refresh.numUpdatedRows), grants: Number(grants.numUpdatedRows), codes: Number(codes.numDeletedRows) };
  }

  /** The registration as stored now, bypassing the cache (an administrator reads what was just changed on any node). */
  async function requireStored(accountId: string, clientId: string): Promise<Client> {
    const { rows } = await db.executeQuery<ClientRow>({ ...byId, parameters: [clientId] });
    if (!rows[0] || rows[0].account_id !== accountId) throw notInAccount(clientId);
    return clientFromRow(rows[0]);
  }

  /**
   * The registration as stored, locked until the transaction ends, for a change of it: never the
   * cached one, which may be a second old and would write back what another node just changed
   * (a rotated secret's old digest among it).
   */
  async function lockedRowInAccount(trx: Transaction<Tables>, accountId: string, clientId: string): Promise<ClientRow> {
    const query = trx.selectFrom('oauth_clients').selectAll().where('id', '=', clientId).where('account_id', '=', accountId);
    const row = await dialectOf(trx).lockForWrite(query).executeTakeFirst();
    if (!row) throw notInAccount(clientId);
    return row;
  }
  const lockedInAccount = async (trx: Transaction<Tables>, accountId: string, clientId: string) => clientFromRow(await lockedRowInAccount(trx, accountId, clientId));

  /** The registration `patch` makes of `client`'s: the fields given replace the registered ones, and the whole is checked again. */
  function patched(client: Client, patch: ClientMetadata) {
    const merged: ClientMetadata = { ...metadataOf(client), ...patch };
    // Switching to private_key_jwt with a jwks_uri drops inline keys, and the other way round.
    if (patch.jwks_uri) merged.jwks = null;
    if (patch.jwks) merged.jwks_uri = null;
    if (merged.token_endpoint_auth_method !== 'private_key_jwt' && patch.token_endpoint_auth_method !== undefined) {
      merged.jwks = patch.jwks ?? null;
      merged.jwks_uri = patch.jwks_uri ?? null;
    }
    return { name: merged.client_name?.trim() || client.name, metadata: checkMetadata(merged) };
  }

  return {
    find,
    get: requireStored,

    /** Forgets the cached clients of an account just closed (its clients are deleted with it). */
    forgetAccount(accountId: string): void {
      for (const [clientId, entry] of cache) if (entry.client.accountId === accountId) cache.delete(clientId);
    },

    async register(accountId: string, input: ClientMetadata, by?: AuditBy) {
      const m = checkMetadata(input);
      await checkJwksUri(m.jwksUri);
      const secret = m.authMethod.startsWith('client_secret') ? randomSecret(32, CLIENT_SECRET_PREFIX) : undefined;
      const row: ClientRow = {
        id: newId('client'),
        account_id: accountId,
        client_name: input.client_name?.trim() || 'Unnamed client',
        ...metadataColumns(m),
        secret_digest: secret === undefined ? null : sha256Hex(secret),
        secret_rotated_at: null,
        tokens_not_before: null,
        created_at: clock.now(),
      };
      const shown = presentClient(clientFromRow(row));
      await db.transaction().execute(async (trx) => {
        await requireOpenAccount(trx, accountId);
        await trx.insertInto('oauth_clients').values(row).execute();
        await recordAudit(trx, by, { accountId, action: 'client.created', target: { type: 'client', id: row.id }, changes: changesOf(null, { ...shown }), at: row.created_at });
      });
      return presentClient(clientFromRow(row), secret);
    },

    /** A page of the account's clients, newest first (sealed cursors, paging/page.ts). */
    async list(paging: Paging, accountId: string, request: { limit?: number; after?: string }) {
      const page = await paging.read(
        { accountId, limit: request.limit, after: request.after },
        {
          orderName: 'clients:created_at.desc,id.desc',
          fetch: (after, take) => keysetPage(db.selectFrom('oauth_clients').selectAll().where('account_id', '=', accountId), NEWEST_FIRST, after, take).execute(),
          position: (row) => ({ key: Number(row.created_at), id: row.id }),
        },
      );
      return { data: page.rows.map((r) => presentClient(clientFromRow(r))), next_cursor: page.nextCursor };
    },

    /**
     * A partial update (PATCH): the fields given replace the registered ones and the whole
     * registration is checked again. Moving to a secret method generates a secret (shown once);
     * moving away from one forgets it. Tokens already issued stay valid.
     */
    async update(accountId: string, clientId: string, patch: ClientMetadata, by?: AuditBy) {
      // Checked first against the registration as it is now, so that a refused patch or a jwks_uri
      // the outbound guard refuses (a network lookup) holds no lock.
      const { metadata: checked } = patched(await requireStored(accountId, clientId), patch);
      if (patch.jwks_uri) await checkJwksUri(checked.jwksUri);
      const { updated, secret } = await db.transaction().execute(async (trx) => {
        await requireOpenAccount(trx, accountId);
        // Merged again onto the row as locked: a change committed since is kept, not overwritten.
        // Its jwks_uri is the patch's (checked above), the stored one (checked when stored) or none.
        const stored = await lockedRowInAccount(trx, accountId, clientId);
        const before = clientFromRow(stored);
        const { name, metadata: m } = patched(before, patch);
        const wantsSecret = m.authMethod.startsWith('client_secret');
        const secret = wantsSecret && before.secretDigest === null ? randomSecret(32, CLIENT_SECRET_PREFIX) : undefined;
        const secretDigest = wantsSecret ? (secret === undefined ? before.secretDigest : sha256Hex(secret)) : null;
        const columns = { client_name: name, ...metadataColumns(m), secret_digest: secretDigest };
        const after = clientFromRow({ ...stored, ...columns });
        // What the client shows, never its secret: a secret issued or dropped is recorded only as
        // changed (the names stand in for the values, and are redacted all the same).
        const hadSecret = before.secretDigest === null ? null : 'kept';
        const hasSecret = secretDigest === null ? null : secret === undefined ? 'kept' : 'issued';
        const changes = changesOf({ ...presentClient(before), client_secret: hadSecret }, { ...presentClient(after), client_secret: hasSecret });
        // What changes nothing records nothing: a patch that repeats the registration (a
        // configuration tool applying its desired state) leaves no client.updated behind.
        if (Object.keys(changes).length === 0) return { updated: before, secret: undefined };
        await trx.updateTable('oauth_clients').set(columns).where('id', '=', clientId).execute();
        await recordAudit(trx, by, { accountId, action: 'client.updated', target: { type: 'client', id: clientId }, changes, at: clock.now() });
        return { updated: after, secret };
      });
      cache.delete(clientId);
      return presentClient(updated, secret);
    },

    /** A new secret replaces the old one at once; the old one stops authenticating. */
    async rotateSecret(accountId: string, clientId: string, by?: AuditBy) {
      const secret = randomSecret(32, CLIENT_SECRET_PREFIX);
      const digest = sha256Hex(secret);
      const at = clock.now();
      const client = await db.transaction().execute(async (trx) => {
        await requireOpenAccount(trx, accountId);
        const client = await lockedInAccount(trx, accountId, clientId);
        if (!client.authMethod.startsWith('client_secret')) {
          throw metadataError(`client ${clientId} authenticates with ${client.authMethod} and has no secret`);
        }
        await trx.updateTable('oauth_clients').set({ secret_digest: digest, secret_rotated_at: at }).where('id', '=', clientId).execute();
        await recordAudit(trx, by, { accountId, action: 'client.secret_rotated', target: { type: 'client', id: clientId }, changes: changesOf({ client_secret: 1 }, { client_secret: 2 }), at });
        return client;
      });
      // After the commit: a token request on this node meanwhile may have cached the old digest.
      cache.delete(clientId);
      return presentClient({ ...client, secretDigest: digest }, secret);
    },

    /**
     * Ends every token the client holds, at once and on every node: its stored access and refresh
     * tokens and its grants are revoked, and its sealed client-credentials tokens, which are stored
     * nowhere, by the instant kept on the client (`tokens_not_before`, read with the client on
     * every use). The client, its secret and its people's consents stay: its next token request,
     * or a person's next sign-in through it, gets new ones. For a client whose tokens may have
     * leaked, beside or instead of a new secret.
     */
    async revokeTokens(accountId: string, clientId: string, by?: AuditBy) {
      const now = clock.now();
      const revoked = await db.transaction().execute(async (trx) => {
        await requireOpenAccount(trx, accountId);
        // Locked as a deletion locks it: a token request issuing for it finishes first, and its
        // tokens are among those revoked below.
        await lockedRowInAccount(trx, accountId, clientId);
        await trx.updateTable('oauth_clients').set({ tokens_not_before: now }).where('id', '=', clientId).execute();
        const revoked = await revokeIssued(trx, clientId, now);
        const changes = {
          tokens_not_before: { after: toRfc3339(now) },
          access_tokens_revoked: { after: revoked.access_tokens },
          refresh_tokens_revoked: { after: revoked.refresh_tokens },
          grants_revoked: { after: revoked.grants },
          codes_deleted: { after: revoked.codes },
        };
        await recordAudit(trx, by, { accountId, action: 'client.tokens_revoked', target: { type: 'client', id: clientId }, changes, at: now });
        return revoked;
      });
      cache.delete(clientId);
      return { object: 'client_token_revocation' as const, client_id: clientId, tokens_not_before: toRfc3339(now), revoked };
    },

    /** Removes the client and, in the same transaction, everything it was ever issued. */
    async remove(accountId: string, clientId: string, by?: AuditBy): Promise<void> {
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        // Deleted first: the deletion waits for a token request already issuing for the client
        // (it holds the client for reference, token.ts), so the revocations below see what it
        // issued; a token request that comes after finds the client gone.
        const row = await trx.deleteFrom('oauth_clients').where('id', '=', clientId).where('account_id', '=', accountId).returningAll().executeTakeFirst();
        if (!row) throw notInAccount(clientId);
        const client = clientFromRow(row);
        await revokeIssued(trx, clientId, now);
        await trx.deleteFrom('oauth_codes').where('client_id', '=', clientId).execute();
        await trx.deleteFrom('oauth_consents').where('client_id', '=', clientId).execute();
        await recordAudit(trx, by, { accountId, action: 'client.deleted', target: { type: 'client', id: clientId }, changes: changesOf({ ...presentClient(client) }, null), at: now });
      });
      cache.delete(clientId);
    },
  };
}

export type Clients = ReturnType<typeof createClients>;
