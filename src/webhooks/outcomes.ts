/**
 * Recording what attempts came to, many at a time in one transaction (the hot path commits
 * once per batch, not once per delivery). The interface's state table, per delivery:
 * sent + 2xx → acknowledged; sent + no 2xx → resent (same Event-Id, new Delivery-Id) on the
 * schedule; schedule exhausted → parked. A 410 Gone disables the endpoint; an endpoint whose
 * failures have gone on unbroken for the configured time is disabled too. What a batch changed
 * beyond acknowledgements comes back as notices, for the caller to report once it is committed.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { AttemptResult } from './attempt.ts';
import type { ClaimedDelivery } from './queue.ts';
import { disableEndpoint } from './lifecycle.ts';
import { nextStep, parseRetryAfter } from './schedule.ts';
import { dialectOf, type SqlDialect } from '../platform/db/dialect.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';
import { runForEach } from '../platform/db/database.ts';

export interface Outcome {
  delivery: ClaimedDelivery;
  attemptId: string;
  attemptedAt: number;
  result: AttemptResult;
}

export interface OutcomePolicy {
  scheduleSeconds: readonly number[];
  disableAfterMs: number;
  now: () => number;
}

/**
 * A failed attempt that moved its delivery on (to a retry or to parked), and an endpoint that
 * a failure disabled. A failure whose lease another worker holds by now moves nothing and has none.
 */
export type OutcomeNotice =
  | { kind: 'retrying'; outcome: Outcome; failures: number; retryAt: number }
  | { kind: 'parked'; outcome: Outcome; failures: number; reason: 'retries_exhausted' | 'endpoint_disabled' }
  | { kind: 'endpoint_disabled'; outcome: Outcome; reason: 'gone' | 'failing'; failingSince: number | null; parked: number };

export async function recordOutcomes(db: Db, outcomes: readonly Outcome[], policy: OutcomePolicy): Promise<OutcomeNotice[]> {
  const now = policy.now();
  const failures = outcomes.filter((o) => !o.result.ok);
  // The usual batch, all acknowledged, is one statement where writes run inside WITH clauses:
  // no transaction around it.
  if (failures.length === 0 && dialectOf(db).writableCtes) {
    await recordAttempts(db, outcomes, now);
    return [];
  }
  return db.transaction().execute(async (trx) => {
    await recordAttempts(trx, outcomes, now);
    const notices: OutcomeNotice[] = [];
    for (const o of failures) notices.push(...(await recordFailure(trx, o, policy, now)));
    return notices;
  });
}

/**
 * Appends every attempt to the log, moves the acknowledged deliveries to `acknowledged` and
 * clears the failing streak of their endpoints, with statements whose text is the same for
 * every batch, so they are prepared once: lists of ids are one parameter (`inList`). Where
 * writes run inside WITH clauses (`writableCtes`, PostgreSQL) it is all one statement, atomic
 * without a transaction, and the attempts travel as one array parameter per column; elsewhere
 * (SQLite) the statements run in turn and one prepared insert runs once per attempt
 * (`runForEach`: in process, a run costs no round trip).
 *
 * An attempt whose endpoint has been deleted meanwhile is not logged (its delivery went with
 * the endpoint), and the rest of the batch is. On PostgreSQL each endpoint of the batch is
 * locked once against deletion until the batch is written (migration 0504); SQLite writes
 * one transaction at a time.
 */
async function recordAttempts(db: Db | Transaction<Tables>, outcomes: readonly Outcome[], now: number): Promise<void> {
  const dialect = dialectOf(db);
  const acknowledged = outcomes.filter((o) => o.result.ok);
  const deliveries = acknowledged.map((o) => o.delivery.id);
  const claims = leaseClaims(acknowledged, now);
  const endpoints = [...new Set(acknowledged.map((o) => o.delivery.endpointId))];
  const rows = outcomes.map(attemptRow);
  if (dialect.writableCtes) {
    await recordInOneStatement.execute(db, {
      now,
      owners: [...new Set(outcomes.map((o) => o.delivery.endpointId))],
      deliveries,
      claims,
      endpoints,
      ...attemptColumns(rows),
    });
    return;
  }
  // The attempt is logged only while its endpoint exists: the last parameter is its id again.
  await runForEach(
    db,
    insertAttemptIfOwned(dialect),
    rows.map((row) => [...row, row[ENDPOINT_COLUMN]]),
  );
  if (acknowledged.length === 0) return;
  await dequeueInTurn(dialect, deliveries, claims).execute(db);
  // One writer at a time: what the delete left in the queue of these deliveries was requeued.
  await acknowledge(dialect.inList(sql.ref('id'), deliveries), now, sql`exists (${stillQueued})`).execute(db);
  await heal(dialect.inList(sql.ref('id'), endpoints)).execute(db);
}

/** The attempts as one array per column of the log, each bound as one parameter. */
type AttemptColumns = Record<`attempt_${(typeof ATTEMPT_LOG)[number][0]}`, unknown[]>;

function attemptColumns(rows: readonly unknown[][]): AttemptColumns {
  return Object.fromEntries(ATTEMPT_LOG.map(([column], i) => [`attempt_${column}`, rows.map((row) => row[i])])) as AttemptColumns;
}

/** What one batch binds to the statement that records it where writes run inside WITH clauses. */
interface BatchValues extends AttemptColumns {
  now: number;
  /** The endpoints of every attempt, locked against deletion while the batch is written. */
  owners: string[];
  /** The acknowledged deliveries, and their endpoints. */
  deliveries: string[];
  /** For each of `deliveries`, the lease it leaves the queue under, or null for any (`leaseClaims`). */
  claims: (string | null)[];
  endpoints: string[];
}

/**
 * Data-modifying WITH clauses all run, in one statement: atomic without a transaction. They run
 * in no set order, and a row this statement has changed cannot be locked by it: healing an
 * endpoint goes through its lock, so the lock comes first.
 */
const recordInOneStatement = preparedQuery((db, value: Placeholder<BatchValues>) => {
  const dialect = dialectOf(db);
  const attempts = sql.join(ATTEMPT_LOG.map(([column, type]) => sql`${value(`attempt_${column}`)}::${sql.raw(type)}[]`));
  return sql`
    with owners as (
      select id from webhook_endpoints where ${dialect.inList(sql.ref('id'), value('owners'))} for key share
    ),
    logged as (
      insert into webhook_attempts (${ATTEMPT_COLUMNS})
      select attempt.* from unnest(${attempts}) as attempt (${ATTEMPT_COLUMNS})
      where attempt.endpoint_id in (select id from owners)
    ),
    dequeued as (
      delete from webhook_queue using unnest(${value('deliveries')}::text[], ${value('claims')}::text[]) as acked (id, claim)
      where delivery_id = acked.id and ${underLease(sql.ref('acked.claim'))}
      returning delivery_id
    ),
    acknowledged as (${acknowledge(dialect.inList(sql.ref('id'), value('deliveries')), value('now'), requeuedMeanwhile)}),
    healed as (${heal(sql`${dialect.inList(sql.ref('id'), value('endpoints'))} and id in (select id from owners)`)})
    select 1`;
});

/** The attempt log's columns, and their types as PostgreSQL arrays carry them. */
const ATTEMPT_LOG = [
  ['id', 'text'],
  ['account_id', 'text'],
  ['delivery_id', 'text'],
  ['endpoint_id', 'text'],
  ['event_id', 'text'],
  ['event_type', 'text'],
  ['outcome', 'text'],
  ['response_status', 'int'],
  ['response_body', 'text'],
  ['error', 'text'],
  ['latency_ms', 'int'],
  ['attempted_at', 'bigint'],
] as const;
const ATTEMPT_COLUMN_LIST = ATTEMPT_LOG.map(([column]) => column).join(', ');
const ATTEMPT_COLUMNS = sql.raw(ATTEMPT_COLUMN_LIST);
const ENDPOINT_COLUMN = ATTEMPT_LOG.findIndex(([column]) => column === 'endpoint_id');

/** An attempt as a row of the log, in ATTEMPT_LOG's order. */
function attemptRow(o: Outcome): unknown[] {
  return [
    o.attemptId,
    o.delivery.accountId,
    o.delivery.id,
    o.delivery.endpointId,
    o.delivery.eventId,
    o.delivery.eventType,
    outcomeOf(o),
    o.result.status,
    o.result.excerpt,
    o.result.error,
    o.result.latencyMs,
    o.attemptedAt,
  ];
}

/** One attempt's insert, taking effect only while its endpoint exists (the last parameter). */
function insertAttemptIfOwned(dialect: SqlDialect): string {
  const values = ATTEMPT_LOG.map((_, i) => dialect.placeholder(i + 1)).join(', ');
  return `
  insert into webhook_attempts (${ATTEMPT_COLUMN_LIST}) select ${values}
  where exists (select 1 from webhook_endpoints where id = ${dialect.placeholder(ATTEMPT_LOG.length + 1)})`;
}

function outcomeOf(o: Outcome): 'succeeded' | 'failed' {
  return o.result.ok ? 'succeeded' : 'failed';
}

/**
 * An acknowledgement counts even if the lease ran out meanwhile (the delivery leaves the
 * queue, whoever holds it now), or the delivery was parked meanwhile (its endpoint disabled
 * mid-attempt): the receiver has the event. A delivery requeued meanwhile (`requeued`, see
 * `leaseClaims`) has its attempt counted but stays `pending`: it will be sent again, as whoever
 * asked was told, and is not shown as done before then. It changes no column an index names,
 * so on PostgreSQL the row's new version stays on its page and out of every index (migration 0505).
 */
function acknowledge(deliveries: RawBuilder<unknown>, now: unknown, requeued: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`
    update webhook_deliveries
    set state = case when ${requeued} then 'pending' else 'acknowledged' end,
      attempt_count = attempt_count + 1, last_attempt_at = ${now}, parked_at = null, updated_at = ${now}
    where ${deliveries} and state <> 'acknowledged'`;
}

/** The delivery being updated has a row in the queue. */
const stillQueued = sql`select 1 from webhook_queue where webhook_queue.delivery_id = webhook_deliveries.id`;

/**
 * In the one statement, every clause reads the queue as it was when the statement began. A
 * delivery the delete took (the usual case, found in its hashed list without touching the
 * queue) is acknowledged; one it left that was queued all the same was requeued: before the
 * statement (no lease, or a lease taken since), or while it ran (the delete waited for the
 * requeue's lock, then found the lease gone; the queue as read here still shows the row). One
 * with no queue row at all had left the queue (parked, or acknowledged by another attempt).
 */
const requeuedMeanwhile = sql`case when id in (select delivery_id from dequeued) then false else exists (${stillQueued}) end`;

/**
 * The acknowledged deliveries leave the queue, unless one was put back while its attempt was in
 * flight (a redelivery or recovery requeues it with no lease, due now): that one stays, to be sent
 * again as its caller was told, and stays `pending` (`acknowledge`). So does one requeued and
 * claimed again meanwhile, by whichever worker: its new attempt's outcome moves it on.
 *
 * An acknowledged delivery whose lease had not run out when its outcome is recorded leaves only
 * under that lease (its claim): another lease on it can only follow a requeue, since nobody claims
 * a delivery under a running lease. One whose lease ran out (null) leaves whoever leases it now:
 * another worker may have claimed it to retry, and the receiver has the event.
 */
function leaseClaims(acknowledged: readonly Outcome[], now: number): (string | null)[] {
  return acknowledged.map(({ delivery }) => (now < delivery.leaseUntil ? delivery.claim : null));
}

/** The queue row's lease is `claim`'s, or any lease when `claim` is null. */
function underLease(claim: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`lease_owner is not null and (${claim} is null or lease_owner = ${claim})`;
}

/**
 * Where statements run in turn (SQLite): the deliveries' rows found by id, each kept unless its
 * lease is the one it may leave under, matched as "delivery claim" text in a list, or it may
 * leave under any. In the one statement the ids and claims are joined as two arrays instead.
 */
function dequeueInTurn(dialect: SqlDialect, deliveries: readonly string[], claims: readonly (string | null)[]): RawBuilder<unknown> {
  const held = deliveries.flatMap((id, i) => (claims[i] === null ? [] : [`${id} ${claims[i]}`]));
  const lapsed = deliveries.filter((_, i) => claims[i] === null);
  return sql`
    delete from webhook_queue where ${dialect.inList(sql.ref('delivery_id'), deliveries)} and lease_owner is not null
      and (${dialect.inList(sql`delivery_id || ' ' || lease_owner`, held)} or ${dialect.inList(sql.ref('delivery_id'), lapsed)})`;
}

/** A success ends the endpoint's run of failures. */
function heal(endpoints: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`update webhook_endpoints set failing_since = null where ${endpoints} and failing_since is not null`;
}

async function recordFailure(trx: Transaction<Tables>, o: Outcome, policy: OutcomePolicy, now: number): Promise<OutcomeNotice[]> {
  const { delivery, result } = o;
  const failures = delivery.cycleFailures + 1;
  const retryAfterMs = result.status === 429 || result.status === 503 ? parseRetryAfter(result.retryAfter, now) : undefined;
  const step = nextStep({ failures, scheduleSeconds: policy.scheduleSeconds, now, retryAfterMs });
  // Only the holder of the lease moves the delivery on; a stale worker's failure is just logged.
  const moved =
    step.kind === 'park'
      ? (await trx.deleteFrom('webhook_queue').where('delivery_id', '=', delivery.id).where('lease_owner', '=', delivery.claim).executeTakeFirst()).numDeletedRows
      : (
          await trx
            .updateTable('webhook_queue')
            .set({ cycle_failures: failures, next_attempt_at: step.at, lease_owner: null, lease_until: null })
            .where('delivery_id', '=', delivery.id)
            .where('lease_owner', '=', delivery.claim)
            .executeTakeFirst()
        ).numUpdatedRows;
  if (moved > 0n) {
    await trx
      .updateTable('webhook_deliveries')
      .set({
        state: step.kind === 'park' ? 'parked' : 'pending',
        attempt_count: sql<number>`attempt_count + 1`,
        parked_at: step.kind === 'park' ? now : null,
        last_attempt_at: now,
        updated_at: now,
      })
      .where('id', '=', delivery.id)
      .execute();
  }

  await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: o.attemptedAt })
    .where('id', '=', delivery.endpointId)
    .where('failing_since', 'is', null)
    .execute();
  const endpoint = await trx
    .selectFrom('webhook_endpoints')
    .select(['failing_since', 'enabled'])
    .where('id', '=', delivery.endpointId)
    .executeTakeFirst();
  const failingTooLong = endpoint?.failing_since != null && now - endpoint.failing_since >= policy.disableAfterMs;
  const reason = result.status === 410 ? 'gone' : failingTooLong ? 'failing' : undefined;
  const disabled =
    endpoint?.enabled === 1 && reason !== undefined
      ? await disableEndpoint(trx, { accountId: delivery.accountId, endpointId: delivery.endpointId, reason, now })
      : undefined;

  const notices: OutcomeNotice[] = [];
  if (moved > 0n) {
    // Disabling parks what the endpoint had queued, this delivery's retry included.
    if (step.kind === 'park') notices.push({ kind: 'parked', outcome: o, failures, reason: 'retries_exhausted' });
    else if (disabled) notices.push({ kind: 'parked', outcome: o, failures, reason: 'endpoint_disabled' });
    else notices.push({ kind: 'retrying', outcome: o, failures, retryAt: step.at });
  }
  if (disabled && reason !== undefined) {
    notices.push({ kind: 'endpoint_disabled', outcome: o, reason, failingSince: endpoint?.failing_since ?? null, parked: disabled.parked });
  }
  return notices;
}
