/**
 * The idempotency records: one row per key within a credential (account + client).
 *
 * A row is first a *claim* (`running`, owned by a random lease token until `locked_until`),
 * then a *stored response* (`done`) kept until `expires_at`. Every change of ownership is a
 * compare-and-set on the lease token, so two nodes can never both believe they own a key;
 * reads never lock, so a duplicate request learns at once that the key is busy.
 *
 * On PostgreSQL the owner's business transaction ends by completing its claim (`complete`, a
 * compare-and-set on the lease token), which locks the row until commit, and takeovers skip
 * locked rows instead of waiting for them. On SQLite
 * every write transaction already holds the database's single write lock, so there the row
 * is written once, `done`, by the transaction that performs the request (`insertDone`).
 */
import { sql, type Compilable, type Transaction } from 'kysely';
import type { SqlDialect } from '../platform/db/dialect.ts';
import { isDatabaseUnavailable, type Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import { newTimeOrderedId, randomBase62 } from '../platform/ids.ts';
import { preparedInsert, preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import type { IdempotencyRow } from './tables.ts';

/** The pause before a release that met an ended connection is tried again. */
const RELEASE_RETRY_MS = 100;

export interface KeyScope {
  accountId: string;
  clientId: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A claim this process holds: the row and the token that proves ownership. */
export interface Claim {
  id: string;
  leaseToken: string;
}

/** A key's row, every column named (a statement kept prepared never changes shape under a new column). */
export const KEY_COLUMNS = [
  'id',
  'account_id',
  'client_id',
  'idempotency_key',
  'fingerprint',
  'state',
  'lease_token',
  'locked_until',
  'response_status',
  'response_headers',
  'response_body',
  'created_at',
  'completed_at',
  'expires_at',
] as const satisfies ReadonlyArray<keyof IdempotencyRow>;

/** Every write reads its key (twice on SQLite: before and under the write lock). */
const findByScope = preparedQuery((db, value: Placeholder<KeyScope>) =>
  db
    .selectFrom('idempotency_keys')
    .select(KEY_COLUMNS)
    .where('account_id', '=', value('accountId'))
    .where('client_id', '=', value('clientId'))
    .where('idempotency_key', '=', value('key')),
);

/** SQLite: every performed write inserts its key, done, with the stored response. */
const insertRow = preparedInsert('idempotency_keys', KEY_COLUMNS);

/** What completes a claim: the claim (its id and lease token), the instant, and the stored answer. */
export interface ClaimCompletionValues {
  id: string;
  leaseToken: string;
  now: number;
  status: number;
  /** JSON of the answer's headers. */
  headers: string;
  body: string;
}

/**
 * PostgreSQL: what inserts a key already done, with its answer, in the one statement that
 * performs the request (`ClaimCompletion` with `inserting`), instead of a claim of its own.
 */
export interface KeyInsertValues extends ClaimCompletionValues {
  clientId: string;
  key: string;
  fingerprint: string;
  expiresAt: number;
}

/** The last statement of a write on PostgreSQL: the claim, still this request's, done with its response. */
const completeClaim = preparedQuery((db, value: Placeholder<ClaimCompletionValues>) =>
  db
    .updateTable('idempotency_keys')
    .set({
      state: 'done',
      locked_until: value('now'),
      response_status: value('status'),
      response_headers: value('headers'),
      response_body: value('body'),
      completed_at: value('now'),
    })
    .where('id', '=', value('id'))
    .where('lease_token', '=', value('leaseToken'))
    .where('state', '=', 'running'),
);

interface ClaimInput {
  fingerprint: string;
  now: number;
  leaseMs: number;
  retentionMs: number;
}

/** The row of a new claim: `running`, owned by the claim's lease token until its lease ends. */
function claimRow(scope: KeyScope, input: ClaimInput, claim: Claim) {
  return {
    id: claim.id,
    account_id: scope.accountId,
    client_id: scope.clientId,
    idempotency_key: scope.key,
    fingerprint: input.fingerprint,
    state: 'running' as const,
    lease_token: claim.leaseToken,
    locked_until: input.now + input.leaseMs,
    created_at: input.now,
    expires_at: input.now + input.retentionMs,
  };
}

/**
 * PostgreSQL, one round trip: the read, and the insert only if the read saw nothing. The claim
 * alone need not be durable: a database crash that loses it has lost nothing else, and the
 * business transaction's durable commit flushes it too (the WAL is one sequence). Turning
 * synchronous_commit off for this statement's own transaction saves a WAL flush per write.
 */
const claimOrReadStatement = preparedQuery((db, value: Placeholder<ReturnType<typeof claimRow>>): Compilable<IdempotencyRow & { claimed: number }> => {
  const statement = sql<IdempotencyRow & { claimed: number }>`with seen as (
      select ${sql.join(KEY_COLUMNS.map((c) => sql.ref(c)))} from idempotency_keys
      where account_id = ${value('account_id')}::text and client_id = ${value('client_id')}::text and idempotency_key = ${value('idempotency_key')}::text
    ), claimed as (
      insert into idempotency_keys
        (id, account_id, client_id, idempotency_key, fingerprint, state, lease_token, locked_until, created_at, expires_at)
      select ${value('id')}::text, ${value('account_id')}::text, ${value('client_id')}::text, ${value('idempotency_key')}::text,
        ${value('fingerprint')}::text, ${value('state')}::text, ${value('lease_token')}::text, ${value('locked_until')}::bigint,
        ${value('created_at')}::bigint, ${value('expires_at')}::bigint
      from (select set_config('synchronous_commit', 'off', true)) as local_setting
      where not exists (select 1 from seen)
      on conflict (account_id, client_id, idempotency_key) do nothing
      returning id
    )
    select (select count(*) from claimed)::int as claimed, seen.* from (select 1) as one left join seen on true`;
  return { compile: () => statement.compile(db) };
});

export function createIdempotencyStore(deps: { db: Db; dialect: SqlDialect }) {
  const { db, dialect } = deps;
  const newToken = () => randomBase62(24);

  /** PostgreSQL: `claimOrReadStatement`. */
  async function claimOrReadInOneStatement(scope: KeyScope, input: ClaimInput, claim: Claim): Promise<{ claim?: Claim; row?: IdempotencyRow }> {
    const result = await claimOrReadStatement.execute(db, claimRow(scope, input, claim));
    const { claimed, ...seen } = result.rows[0]!;
    if (claimed === 1) return { claim };
    return seen.id === null ? {} : { row: seen };
  }

  return {
    dialect,

    /** The row for a key, read without locking (or in `executor`'s transaction). */
    async find(scope: KeyScope, executor: Db | Transaction<Tables> = db): Promise<IdempotencyRow | undefined> {
      return (await findByScope.execute(executor, scope)).rows[0];
    },

    /**
     * Claims the key if nobody holds it, or returns the row that does. The row is read without
     * locking and the claim inserted only if no row was seen, so a copy of a running request
     * learns of it at once instead of waiting on the owner's row lock. Neither comes back when
     * another request claimed the key after the read: read again.
     */
    async claimOrRead(scope: KeyScope, input: ClaimInput): Promise<{ claim?: Claim; row?: IdempotencyRow }> {
      const claim = { id: newTimeOrderedId('idk', input.now), leaseToken: newToken() };
      if (dialect.writableCtes) return claimOrReadInOneStatement(scope, input, claim);
      const row = await this.find(scope);
      if (row) return { row };
      const result = await db
        .insertInto('idempotency_keys')
        .values(claimRow(scope, input, claim))
        .onConflict((oc) => oc.columns(['account_id', 'client_id', 'idempotency_key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1 ? { claim } : {};
    },

    /**
     * Takes over `seen` (a stale claim, or an expired record whose key is new again) if it is
     * still exactly as it was read; undefined when another request changed or holds it.
     * A fresh start (`restart`) also resets the retention window and forgets the response.
     */
    async takeOver(
      seen: IdempotencyRow,
      input: { fingerprint: string; now: number; leaseMs: number; retentionMs: number; restart: boolean },
    ): Promise<Claim | undefined> {
      const claim = { id: seen.id, leaseToken: newToken() };
      const candidate = dialect.skipLocked(
        db.selectFrom('idempotency_keys').select('id').where('id', '=', seen.id).where('lease_token', '=', seen.lease_token).where('state', '=', seen.state),
      );
      const result = await db
        .updateTable('idempotency_keys')
        .set({
          fingerprint: input.fingerprint,
          state: 'running',
          lease_token: claim.leaseToken,
          locked_until: input.now + input.leaseMs,
          ...(input.restart
            ? {
                response_status: null,
                response_headers: null,
                response_body: null,
                created_at: input.now,
                completed_at: null,
                expires_at: input.now + input.retentionMs,
              }
            : {}),
        })
        .where('id', 'in', candidate)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? claim : undefined;
    },

    /** The values of a key inserted done with `response` by the statement that performs the request. */
    insertValues(scope: KeyScope, input: { fingerprint: string; now: number; retentionMs: number }, response: StoredResponse): KeyInsertValues {
      const claim = { id: newTimeOrderedId('idk', input.now), leaseToken: newToken() };
      return {
        ...completionValues(claim, response, input.now),
        clientId: scope.clientId,
        key: scope.key,
        fingerprint: input.fingerprint,
        expiresAt: input.now + input.retentionMs,
      };
    },

    /** Stores the response of the claim; in the business transaction, or alone for a refusal. */
    async complete(trx: Transaction<Tables> | Db, claim: Claim, response: StoredResponse, now: number): Promise<boolean> {
      const result = await completeClaim.execute(trx, completionValues(claim, response, now));
      return Number(result.numAffectedRows) === 1;
    },

    /**
     * SQLite: records a finished request in the transaction that performed it, in place of
     * `replaced` (an expired or abandoned row of the same key), all under the write lock.
     */
    async insertDone(
      trx: Transaction<Tables>,
      scope: KeyScope,
      input: { fingerprint: string; now: number; retentionMs: number; response: StoredResponse; replaced: IdempotencyRow | undefined },
    ): Promise<void> {
      if (input.replaced) await trx.deleteFrom('idempotency_keys').where('id', '=', input.replaced.id).execute();
      await insertRow.execute(trx, {
        id: newTimeOrderedId('idk', input.now),
        account_id: scope.accountId,
        client_id: scope.clientId,
        idempotency_key: scope.key,
        fingerprint: input.fingerprint,
        state: 'done',
        lease_token: newToken(),
        locked_until: input.now,
        response_status: input.response.status,
        response_headers: JSON.stringify(input.response.headers),
        response_body: input.response.body,
        created_at: input.now,
        completed_at: input.now,
        expires_at: input.now + input.retentionMs,
      });
    },

    /**
     * Gives the key back after a failure that is not stored, so a retry runs afresh. A key not
     * given back is held until its lease ends, so a release that meets a connection PostgreSQL
     * had ended (a restart, terminated sessions) is tried once more, a moment later: by then the
     * pool has heard of its other ended connections and dropped them, instead of handing out
     * the next one.
     */
    async release(claim: Claim): Promise<void> {
      const giveBack = () =>
        db
          .deleteFrom('idempotency_keys')
          .where('id', '=', claim.id)
          .where('lease_token', '=', claim.leaseToken)
          .where('state', '=', 'running')
          .execute();
      try {
        await giveBack();
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, RELEASE_RETRY_MS));
        await giveBack();
      }
    },

    /**
     * Deletes up to `batchSize` records whose retention has ended and returns how many.
     * Nodes sweeping at once skip each other's rows on PostgreSQL instead of queueing.
     */
    async deleteExpiredBatch(now: number, batchSize: number): Promise<number> {
      const batch = dialect.skipLocked(
        db.selectFrom('idempotency_keys').select('id').where('expires_at', '<=', now).where('locked_until', '<=', now).limit(batchSize),
      );
      const result = await db.deleteFrom('idempotency_keys').where('id', 'in', batch).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

/** The values `complete` writes, for a statement that completes the claim itself. */
export function completionValues(claim: Claim, response: StoredResponse, now: number): ClaimCompletionValues {
  return { id: claim.id, leaseToken: claim.leaseToken, now, status: response.status, headers: JSON.stringify(response.headers), body: response.body };
}

export function storedResponseOf(row: IdempotencyRow): StoredResponse {
  return {
    status: row.response_status ?? 500,
    headers: row.response_headers ? (JSON.parse(row.response_headers) as Record<string, string>) : {},
    body: row.response_body ?? '',
  };
}
