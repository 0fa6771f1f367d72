/**
 * Every write under /v1 runs through `runWrite`, which makes it idempotent (the interface's
 * "Idempotency rules"; IETF draft-ietf-httpapi-idempotency-key-header; docs/IDEMPOTENCY.md):
 *
 * 1. The request must carry a valid Idempotency-Key (400 otherwise), scoped to the
 *    credential's account and client.
 * 2. A lock-free read of the key answers repeats: a stored response is replayed byte for byte
 *    with `Idempotent-Replay: true`; a different request under the key answers 409
 *    `idempotency_key_reused`; a request still running answers 409 `idempotency_key_in_use`.
 * 3. PostgreSQL (many nodes, a pool of connections): a short committed *claim* takes the key,
 *    with a lease, so a copy arriving meanwhile is told at once instead of waiting on the
 *    owner's locks. The handler's effects, the stored response and the completion of the
 *    claim commit in one transaction; the completion is a compare-and-set on the claim's
 *    lease token, so a transaction whose claim was taken over (its lease ran out) rolls its
 *    effects back. A crash before that commit leaves only the claim, which another request
 *    takes over once its lease has run out. The writes of one account that arrive together
 *    share that transaction, each in its own savepoint (group-commit.ts, keyed by account),
 *    so a busy account is not limited to one commit at a time. A route whose write is one
 *    statement (`writesInOneStatement`) takes no claim: that statement inserts the key, done,
 *    with its effects (`runInOneStatement`), and only what it did not perform goes the claimed way.
 *    SQLite (one writer at a time, IMMEDIATE transactions): the key is checked again and
 *    written, already `done`, inside the transaction that performs the request, under the
 *    write lock. A copy waits for that lock (milliseconds) and then replays; a crash leaves
 *    nothing at all, so the retry performs the request at once. Requests that arrive together
 *    share that transaction, each in its own savepoint, and hear back only after its COMMIT
 *    (platform/db/group-commit.ts).
 * 4. A business refusal thrown by the handler (a 4xx HttpError other than 400/401/403/429) rolls
 *    the effects back and is then stored in a small transaction of its own, so it is replayed
 *    too. Any other failure gives the key back, so a retry runs afresh.
 * 5. A route whose answer carries a secret declares `config: { responseCarriesSecret: true }`:
 *    its answer is stored sealed under the secrets key (sealed-responses.ts) and sent with
 *    `Cache-Control: no-store`, first time and on replay.
 *
 * Handlers do their effects with `trx` and return the response instead of sending it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { GroupCommit, RunOptions } from '../platform/db/group-commit.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { principalOf } from '../platform/auth.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { isHttpError, type HttpError } from '../platform/errors/http-error.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';
import type { Sealer } from '../platform/secrets-key.ts';
import { readIdempotencyKey } from './idempotency-key.ts';
import { isFingerprintOf, requestFingerprints, type RequestFingerprint } from './fingerprint.ts';
import { createResponseSealing, type ResponseSealing } from './sealed-responses.ts';
import { completionValues, type Claim, type ClaimCompletionValues, type IdempotencyStore, type KeyInsertValues, type KeyScope, type StoredResponse } from './store.ts';
import type { IdempotencyRow } from './tables.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer carries a secret: stored sealed, sent with Cache-Control: no-store. */
    responseCarriesSecret?: boolean;
    /**
     * PostgreSQL: the handler's writes are one statement that also completes the claim
     * (`ClaimCompletion`), so a write that commits alone runs without BEGIN and COMMIT.
     */
    writesInOneStatement?: boolean;
  }
}

export interface WriteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * PostgreSQL: a handler may complete its claim in a statement of its own, saving the runner's
 * UPDATE (a payout's one statement does, payments/payout-statement.ts). `valuesFor(result)`
 * gives the completion storing `result` as the answer; once the handler has asked for it the
 * runner stores nothing more, so the handler's statement must write it if it performs the
 * request, else fail, or call `lost()` when the statement found the claim no longer this
 * request's (taken over after its lease ran out): its effects are then rolled back.
 */
export interface ClaimCompletion {
  /**
   * No claim was taken: the handler's one statement inserts the key, done with the answer, if
   * the key has no row and the request is performed, and calls `lost(seen)` with the row it
   * found (or none) when it wrote nothing (`runInOneStatement`).
   */
  inserting: boolean;
  valuesFor(result: WriteResult): ClaimCompletionValues | KeyInsertValues;
  lost(seen?: IdempotencyRow): never;
}

export type WriteHandler = (trx: Transaction<Tables>, completion?: ClaimCompletion) => Promise<WriteResult>;

/** One write: its key within the credential, the digest of its request, and whether its answer carries a secret. */
interface Write {
  scope: KeyScope;
  fingerprint: RequestFingerprint;
  carriesSecret: boolean;
  /** The route writes in one statement (`writesInOneStatement`) and no test hook stops before its commit. */
  oneStatement: boolean;
}

export interface WriteHooks {
  /**
   * Test seam, never set in production: runs when a request reaches its key, before it reads
   * it, so a test holding one request can tell that a copy has arrived and is about to wait.
   */
  beforeKeyRead?(request: FastifyRequest): void | Promise<void>;
  /**
   * Test seam, never set in production: runs inside the business transaction after the
   * response is stored and before commit, so a test can kill the process at the worst moment.
   */
  beforeCommit?(request: FastifyRequest): void | Promise<void>;
}

/** How long a claim belongs to its owner before another request may take it over. */
export const DEFAULT_LEASE_MS = 30_000;
/** What a request that found the key busy is told to wait, in seconds. */
const RETRY_AFTER_SECONDS = 1;
/**
 * Statuses that are about the request's own validity (400: a body the handler finds invalid, as a
 * webhook URL that is refused or does not resolve yet), or the caller's credential or rate, not the
 * operation: never stored, so the key stays free for the corrected request (docs/IDEMPOTENCY.md).
 */
const NEVER_STORED = new Set([400, 401, 403, 429]);

type Outcome = { kind: 'claimed'; claim: Claim } | { kind: 'replay'; response: StoredResponse };

/** What an existing row means for a request with `fingerprint` at `now`. */
type Verdict =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'reused' }
  | { kind: 'in_use' }
  | { kind: 'abandoned' };

function judge(row: IdempotencyRow | undefined, fingerprint: RequestFingerprint, now: number, sealing: ResponseSealing): Verdict {
  if (row === undefined) return { kind: 'new' };
  // Past retention the key is new, whether or not the sweeper has removed it yet.
  if (row.expires_at <= now && row.locked_until <= now) return { kind: 'new' };
  if (!isFingerprintOf(row.fingerprint, fingerprint)) return { kind: 'reused' };
  if (row.state === 'done') return { kind: 'replay', response: sealing.replayOf(row) };
  if (row.locked_until > now) return { kind: 'in_use' };
  // The owner's lease ran out without completing: its process died.
  return { kind: 'abandoned' };
}

/** The answer to a repeat, or undefined when the request is to be performed. */
function answerOf(verdict: Verdict): StoredResponse | undefined {
  if (verdict.kind === 'reused') throw reused();
  if (verdict.kind === 'in_use') throw inUse();
  return verdict.kind === 'replay' ? verdict.response : undefined;
}

export function createWriteRunner(deps: {
  db: Db;
  store: IdempotencyStore;
  clock: Clock;
  retentionSeconds: number;
  leaseMs?: number;
  hooks?: WriteHooks;
  /**
   * The transactions that perform requests are shared by the requests that arrive together
   * (group-commit.ts; on PostgreSQL those of one account, and one-statement writes of several); without it each commits on its own.
   */
  groupCommit?: GroupCommit;
  /** Where replays and in-use refusals are counted. */
  metrics?: MetricsRegistry;
  /** Seals the stored answers of routes whose answer carries a secret. */
  sealer: Sealer;
  /** Keys the stored request fingerprints (fingerprint.ts). */
  fingerprintKey: Buffer;
}) {
  const { db, store, clock, hooks } = deps;
  const sealing = createResponseSealing(deps.sealer);
  const requestFingerprint = requestFingerprints(deps.fingerprintKey);
  /** What is stored of an answer: the answer as sent, or sealed when it carries a secret. */
  const atRest = (write: Write, response: StoredResponse): StoredResponse =>
    write.carriesSecret ? sealing.seal(response, write.scope, write.fingerprint.value) : response;
  const outcomes = deps.metrics?.counter('gatehouse_idempotency_requests_total', 'Writes with an Idempotency-Key that were replayed or refused as in use, by outcome', ['outcome']);
  const retentionMs = deps.retentionSeconds * 1000;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const transact = <T>(work: (trx: Transaction<Tables>) => Promise<T>, key?: string, options?: RunOptions): Promise<T> =>
    deps.groupCommit ? deps.groupCommit.run(work, key, options) : db.transaction().execute(work);
  const replay = (reply: FastifyReply, response: StoredResponse): FastifyReply => {
    outcomes?.inc({ outcome: 'replayed' });
    return send(reply, response, true);
  };

  async function claimOrReplay(scope: KeyScope, fingerprint: RequestFingerprint): Promise<Outcome> {
    // A lost race re-reads the row; a few rounds settle it, since every round has a winner.
    for (let round = 0; round < 3; round++) {
      const now = clock.now();
      const claimInput = { fingerprint: fingerprint.value, now, leaseMs, retentionMs };
      const { claim, row } = await store.claimOrRead(scope, claimInput);
      if (claim) return { kind: 'claimed', claim };
      if (row === undefined) continue;
      const verdict = judge(row, fingerprint, now, sealing);
      const response = answerOf(verdict);
      if (response) return { kind: 'replay', response };
      // An expired record (the key is new again) or an abandoned claim.
      const takenOver = await store.takeOver(row, { ...claimInput, restart: verdict.kind === 'new' });
      if (takenOver) return { kind: 'claimed', claim: takenOver };
    }
    throw inUse();
  }

  /** PostgreSQL: claim, then effects + stored response + completion in one transaction. */
  async function runClaimed(request: FastifyRequest, reply: FastifyReply, write: Write, handler: WriteHandler) {
    const outcome = await claimOrReplay(write.scope, write.fingerprint);
    if (outcome.kind === 'replay') return replay(reply, outcome.response);
    const { claim } = outcome;

    let response: StoredResponse;
    try {
      response = await transact(async (trx) => {
        let completed: StoredResponse | undefined;
        const completion: ClaimCompletion = {
          inserting: false,
          valuesFor(result) {
            completed = renderResult(reply, result, write.carriesSecret);
            return completionValues(claim, atRest(write, completed), clock.now());
          },
          lost() {
            throw new ClaimLost();
          },
        };
        const result = await handler(trx, completion);
        const answer = completed ?? renderResult(reply, result, write.carriesSecret);
        // Proves the claim is still this request's and locks its row until commit.
        if (completed === undefined && !(await store.complete(trx, claim, atRest(write, answer), clock.now()))) throw new ClaimLost();
        await hooks?.beforeCommit?.(request);
        return answer;
      }, write.scope.accountId, { oneStatement: write.oneStatement });
    } catch (error) {
      if (error instanceof ClaimLost) throw inUse();
      if (!isStoredRefusal(error)) {
        await store.release(claim).catch((releaseError: unknown) => {
          // The lease runs out on its own; the retry then takes the key over.
          request.log.warn({ err: releaseError }, 'could not release an idempotency claim');
        });
        throw error;
      }
      response = renderRefusal(request, reply, error);
      await store.complete(db, claim, atRest(write, response), clock.now());
    }
    return send(reply, response, false);
  }

  /**
   * PostgreSQL, a route whose write is one statement (`writesInOneStatement`): no claim first.
   * The statement inserts the key, done with the answer, together with the effects, so the
   * request costs one statement fewer and one transaction (the claim's) fewer. The key goes in
   * before the effects in the statement: a key that had a row, or one another transaction
   * inserted meanwhile (its unique entry is waited for, as a copy on SQLite waits for the write
   * lock), stops the statement with nothing written. Then the row seen is judged as a claim's
   * read would be (replay, reused, in use); anything else (no row seen, an abandoned claim, an
   * expired record, a refusal) runs the request again the claimed way, which stores refusals
   * and takes over abandoned claims. A copy that arrives while the statement runs thus waits
   * for it and replays, where a claim taken first answered 409 in_use until the commit.
   */
  async function runInOneStatement(request: FastifyRequest, reply: FastifyReply, write: Write, handler: WriteHandler) {
    let attempt: { performed: StoredResponse } | { seen: IdempotencyRow | undefined };
    try {
      attempt = await transact(async (trx) => {
        let performed: StoredResponse | undefined;
        const insertion: ClaimCompletion = {
          inserting: true,
          valuesFor(result) {
            performed = renderResult(reply, result, write.carriesSecret);
            return store.insertValues(write.scope, { fingerprint: write.fingerprint.value, now: clock.now(), retentionMs }, atRest(write, performed));
          },
          lost(seen) {
            throw new NotInserted(seen);
          },
        };
        try {
          await handler(trx, insertion);
        } catch (error) {
          // Its statement wrote nothing: the batch it shares goes on.
          if (error instanceof NotInserted) return { seen: error.seen };
          throw error;
        }
        if (performed === undefined) throw new Error(`${request.routeOptions.url ?? 'a route'} performed a write without inserting its key`);
        return { performed };
      }, write.scope.accountId, { oneStatement: true, combinable: true });
    } catch (error) {
      // A refusal thrown before the statement: stored the claimed way.
      if (isStoredRefusal(error)) return runClaimed(request, reply, write, handler);
      throw error;
    }
    if ('performed' in attempt) return send(reply, attempt.performed, false);
    const verdict = judge(attempt.seen, write.fingerprint, clock.now(), sealing);
    if (verdict.kind === 'new' || verdict.kind === 'abandoned') return runClaimed(request, reply, write, handler);
    return replay(reply, answerOf(verdict)!);
  }

  /**
   * SQLite: check the key again and store the response in the transaction that performs the
   * request; `perform` runs only if the key is still free once the write lock is held.
   */
  async function runInline(request: FastifyRequest, reply: FastifyReply, write: Write, handler: WriteHandler) {
    const { scope, fingerprint } = write;
    const seen = answerOf(judge(await store.find(scope), fingerprint, clock.now(), sealing));
    if (seen) return replay(reply, seen);

    const storeUnderLock = (perform: (trx: Transaction<Tables>) => Promise<StoredResponse>) =>
      transact(async (trx): Promise<{ verdict: Verdict } | { performed: StoredResponse }> => {
        const row = await store.find(scope, trx);
        const verdict = judge(row, fingerprint, clock.now(), sealing);
        if (verdict.kind !== 'new' && verdict.kind !== 'abandoned') return { verdict };
        const response = await perform(trx);
        await store.insertDone(trx, scope, { fingerprint: fingerprint.value, now: clock.now(), retentionMs, response: atRest(write, response), replaced: row });
        await hooks?.beforeCommit?.(request);
        return { performed: response };
      });

    let result: Awaited<ReturnType<typeof storeUnderLock>>;
    try {
      result = await storeUnderLock(async (trx) => renderResult(reply, await handler(trx), write.carriesSecret));
    } catch (error) {
      if (!isStoredRefusal(error)) throw error;
      const refusal = renderRefusal(request, reply, error);
      result = await storeUnderLock(async () => refusal);
    }
    if ('performed' in result) return send(reply, result.performed, false);
    // Another request with the key finished while this one waited for the lock.
    const stored = answerOf(result.verdict);
    if (stored === undefined) throw inUse(); // unreachable: a free key is performed above
    return replay(reply, stored);
  }

  return {
    async runWrite(request: FastifyRequest, reply: FastifyReply, handler: WriteHandler): Promise<FastifyReply> {
      const key = readIdempotencyKey(request);
      const { accountId, clientId } = principalOf(request);
      const route = request.routeOptions;
      const write: Write = {
        scope: { accountId, clientId, key },
        fingerprint: requestFingerprint(request, route),
        carriesSecret: route.config.responseCarriesSecret === true,
        // A test that stops between the effects and the commit (beforeCommit) needs them apart, after a claim.
        oneStatement: route.config.writesInOneStatement === true && hooks?.beforeCommit === undefined,
      };
      if (hooks?.beforeKeyRead) await hooks.beforeKeyRead(request);
      try {
        if (store.dialect.writesOneAtATime) return await runInline(request, reply, write, handler);
        if (write.oneStatement) return await runInOneStatement(request, reply, write, handler);
        return await runClaimed(request, reply, write, handler);
      } catch (error) {
        if (isHttpError(error) && error.code === 'idempotency_key_in_use') outcomes?.inc({ outcome: 'in_use' });
        throw error;
      }
    },
  };
}

export type WriteRunner = ReturnType<typeof createWriteRunner>;

class ClaimLost extends Error {}

/** The one statement inserted no key, and wrote nothing: `seen` is the key's row it found, if any. */
class NotInserted extends Error {
  constructor(readonly seen: IdempotencyRow | undefined) {
    super('the key was not inserted');
  }
}

function reused(): HttpError {
  return problem('idempotency_key_reused', {
    detail: 'This Idempotency-Key was used with a different request; use a new key for a new operation',
  });
}

function inUse(): HttpError {
  return problem('idempotency_key_in_use', {
    detail: 'A request with this Idempotency-Key is still being processed; retry after a moment',
    headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
  });
}

function isStoredRefusal(error: unknown): error is HttpError {
  return isHttpError(error) && storesRefusal(error.status);
}

/** Whether a refusal with `status` from a write is stored under its key, and so replayed (with Idempotent-Replay). */
export function storesRefusal(status: number): boolean {
  return status >= 400 && status < 500 && !NEVER_STORED.has(status);
}

function send(reply: FastifyReply, response: StoredResponse, replay: boolean): FastifyReply {
  reply.code(response.status).headers(response.headers);
  if (replay) reply.header('idempotent-replay', 'true');
  return reply.send(response.body);
}

/** The handler's result as the exact bytes the route's response schema produces. */
function renderResult(reply: FastifyReply, result: WriteResult, carriesSecret: boolean): StoredResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = value;
  // A secret shown once must not be kept by a cache on the way either.
  if (carriesSecret) headers['cache-control'] = 'no-store';
  if (result.body === undefined) return { status: result.status, headers, body: '' };
  headers['content-type'] ??= 'application/json; charset=utf-8';
  const body = serializerFor(reply, result.status, headers['content-type'])(result.body);
  return { status: result.status, headers, body };
}

/** A refusal rendered by the route's own error format (problem+json for /v1). */
function renderRefusal(request: FastifyRequest, reply: FastifyReply, error: HttpError): StoredResponse {
  const out = request.server.errorFormats.serializerFor(request)(error, request);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(out.headers)) headers[name.toLowerCase()] = value;
  headers['content-type'] = out.contentType;
  const body = typeof out.body === 'string' ? out.body : serializerFor(reply, out.status, out.contentType)(out.body);
  return { status: out.status, headers, body };
}

type Serialize = (payload: unknown) => string;

/** The route's compiled response serializer for a status and media type, as fastify would pick it. */
function serializerFor(reply: FastifyReply, status: number, contentType: string): Serialize {
  const mediaType = contentType.split(';', 1)[0]!.trim();
  for (const code of [String(status), `${String(status)[0]}xx`]) {
    const entry = reply.getSerializationFunction(code) as unknown;
    if (typeof entry === 'function') return entry as Serialize;
    if (entry !== null && typeof entry === 'object') {
      const byType = entry as Record<string, Serialize | undefined>;
      const chosen = byType[mediaType] ?? byType['*/*'];
      if (chosen) return chosen;
    }
  }
  return JSON.stringify;
}
