/**
 * The delivery queue as workers use it: claiming due deliveries with a lease, giving back what
 * was claimed and not attempted, and asking when the next delivery is due. The queue
 * (`webhook_queue`, migration 0505) holds the
 * deliveries still to be attempted; a claim marks its rows with this worker's claim token and
 * a lease that outlives the attempt's timeout; a worker that dies mid-delivery simply lets
 * the lease expire and any worker claims the row again (a new attempt, a new Delivery-Id);
 * a worker that stops gives back at once what it claimed and did not start (`releaseClaims`).
 *
 * One claim, written once for both databases: the due rows in due order (on PostgreSQL
 * `FOR UPDATE SKIP LOCKED`, so concurrent workers take disjoint rows without waiting on each
 * other; SQLite's IMMEDIATE transaction holds the write lock, so claims from several processes
 * are serialised), no more of one endpoint than it has room for, leased in the same statement.
 * Where the database runs writes inside WITH clauses (`writableCtes`), the event body and the
 * endpoint's URL and secrets are read in that statement too, so a claim costs one round trip;
 * elsewhere a second statement reads them. Either way they come back with the claim, read
 * once per claimed delivery and never again for its attempt.
 */
import { sql, type RawBuilder, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import { dialectOf, postgresDialect, type SqlDialect } from '../platform/db/dialect.ts';
import { executePrepared } from '../platform/db/prepared.ts';

export interface ClaimedDelivery {
  id: string;
  claim: string;
  /** When the claim's lease runs out (epoch ms). */
  leaseUntil: number;
  accountId: string;
  endpointId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  /** The endpoint's own headers, sealed; null when it has none. */
  headersSealed: string | null;
  cycleFailures: number;
  eventId: string;
  eventType: string;
  payload: string;
  raisedAt: number;
}

export interface ClaimInput {
  claim: string;
  now: number;
  leaseMs: number;
  /** At most this many deliveries in all. */
  max: number;
  /** At most this many of one endpoint: `room.of` for endpoints with work in hand, else `room.otherwise`. */
  room: { of: ReadonlyMap<string, number>; otherwise: number };
  /** Endpoints not to claim for at all (their work in hand is enough). */
  skipEndpoints: readonly string[];
}

/** A queued delivery and its event, as a claim reads them. */
interface QueueRow {
  id: string;
  account_id: string;
  endpoint_id: string;
  cycle_failures: number;
  next_attempt_at: number;
  event_id: string;
  event_type: string;
  payload: string;
  raised_at: number;
}

/** What an attempt needs of its endpoint. */
interface EndpointRow {
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: number | null;
  headers_sealed: string | null;
}

/**
 * The claimed delivery, built field by field: a spread of the driver's row object (made by
 * native code, in dictionary mode) costs more per delivery than reading the row from SQLite.
 */
function claimedDelivery(input: ClaimInput, row: QueueRow, endpoint: EndpointRow): ClaimedDelivery {
  return {
    id: row.id,
    claim: input.claim,
    leaseUntil: input.now + input.leaseMs,
    accountId: row.account_id,
    endpointId: row.endpoint_id,
    url: endpoint.url,
    secretSealed: endpoint.secret_sealed,
    previousSecretSealed: endpoint.previous_secret_sealed,
    previousSecretExpiresAt: endpoint.previous_secret_expires_at,
    headersSealed: endpoint.headers_sealed,
    cycleFailures: row.cycle_failures,
    eventId: row.event_id,
    eventType: row.event_type,
    payload: row.payload,
    raisedAt: row.raised_at,
  };
}

/**
 * What a database's planner is told for the claim's transaction. PostgreSQL: the due index must
 * be walked in order so that the limit stops the scan early, whatever the statistics say: just
 * after a burst they still say almost nothing is pending, and the planner would then fetch and
 * sort the whole backlog on every claim. (Were a plan to need a disabled node after all, its
 * cost would call for JIT compilation: not that.) SQLite needs nothing.
 */
const PLANNER_SETTINGS = new Map<SqlDialect, RawBuilder<unknown>>([
  [postgresDialect, sql`select set_config('enable_bitmapscan', 'off', true), set_config('jit', 'off', true)`],
]);

/** The columns of a claimed delivery, read from the leased queue rows `q`, their events `e` and endpoints `w`. */
const CLAIMED_COLUMNS = sql`q.delivery_id as id, q.account_id, q.endpoint_id, q.cycle_failures, q.next_attempt_at,
  w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_expires_at, w.headers_sealed,
  e.id as event_id, e.type as event_type, e.payload, e.created_at as raised_at`;

export async function claimDue(db: Db, input: ClaimInput): Promise<ClaimedDelivery[]> {
  const dialect = dialectOf(db);
  const rows = await db.transaction().execute(async (trx) => {
    const settings = PLANNER_SETTINGS.get(dialect);
    if (settings) await settings.execute(trx);
    const lease = leaseDue(dialect, input);
    if (dialect.writableCtes) {
      const { rows } = await executePrepared(trx, sql<QueueRow & EndpointRow>`
        ${lease.with}, leased as (${lease.update})
        select ${CLAIMED_COLUMNS}
        from leased q join events e on e.id = q.event_id join webhook_endpoints w on w.id = q.endpoint_id`);
      return rows;
    }
    const { rows: leased } = await sql<{ delivery_id: string }>`${lease.with} ${lease.update}`.execute(trx);
    if (leased.length === 0) return [];
    return readClaimed(trx, dialect, leased.map((row) => row.delivery_id));
  });
  // RETURNING has no order; attempts start oldest first.
  return rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at).map((row) => claimedDelivery(input, row, row));
}

/**
 * The due rows, oldest first, at most `max`, of no endpoint to skip (`due`); of those, no more
 * of one endpoint than its room (`chosen`: the rooms travel as one JSON object, whose values
 * are read as text and then as integers on both databases); and the update leasing them.
 */
function leaseDue(dialect: SqlDialect, input: ClaimInput): { with: RawBuilder<unknown>; update: RawBuilder<unknown> } {
  return {
    with: sql`
    with due as (
      select delivery_id, endpoint_id, next_attempt_at
      from webhook_queue
      where next_attempt_at <= ${input.now}
        and (lease_until is null or lease_until <= ${input.now})
        and ${dialect.notInList(sql.ref('endpoint_id'), input.skipEndpoints)}
      order by next_attempt_at
      limit ${dialect.limit(input.max)}
      ${dialect.skipLockedClause}
    ),
    chosen as (
      select ranked.delivery_id
      from (select delivery_id, endpoint_id, row_number() over (partition by endpoint_id order by next_attempt_at, delivery_id) as place from due) ranked
      left join json_each(${JSON.stringify(Object.fromEntries(input.room.of))}) as room on room.key = ranked.endpoint_id
      where ranked.place <= coalesce(cast(cast(room.value as text) as integer), ${input.room.otherwise})
    )`,
    update: sql`
    update webhook_queue
    set lease_owner = ${input.claim}, lease_until = ${input.now + input.leaseMs}
    where delivery_id in (select delivery_id from chosen)
    returning delivery_id, account_id, endpoint_id, cycle_failures, next_attempt_at, event_id`,
  };
}

/** What the attempts of leased deliveries need, read after the lease. */
async function readClaimed(trx: Transaction<Tables>, dialect: SqlDialect, ids: readonly string[]): Promise<Array<QueueRow & EndpointRow>> {
  const { rows } = await sql<QueueRow & EndpointRow>`
    select ${CLAIMED_COLUMNS}
    from webhook_queue q join events e on e.id = q.event_id join webhook_endpoints w on w.id = q.endpoint_id
    where ${dialect.inList(sql.ref('q.delivery_id'), ids)}`.execute(trx);
  return rows;
}

/**
 * Gives claimed deliveries back to the queue unattempted: their lease ends now, so any worker
 * may claim them at once (a stopping worker's). Only rows still held under the same claim are
 * touched, so a delivery whose lease already passed to another worker stays with it. Returns
 * how many were given back.
 */
export async function releaseClaims(db: Db, deliveries: ReadonlyArray<Pick<ClaimedDelivery, 'id' | 'claim'>>): Promise<number> {
  const byClaim = new Map<string, string[]>();
  for (const { id, claim } of deliveries) {
    const ids = byClaim.get(claim);
    if (ids) ids.push(id);
    else byClaim.set(claim, [id]);
  }
  let released = 0;
  for (const [claim, ids] of byClaim) {
    const result = await db
      .updateTable('webhook_queue')
      .set({ lease_owner: null, lease_until: null })
      .where('lease_owner', '=', claim)
      .where('delivery_id', 'in', ids)
      .executeTakeFirst();
    released += Number(result.numUpdatedRows);
  }
  return released;
}

/**
 * When the next unclaimed delivery is due (epoch ms), or undefined when none is queued. Leased
 * rows are left out: their expiry is found by the worker's slow poll.
 */
export async function nextDueAt(db: Db): Promise<number | undefined> {
  const next = await db
    .selectFrom('webhook_queue')
    .select((eb) => eb.fn.min('next_attempt_at').as('due'))
    .where('lease_until', 'is', null)
    .executeTakeFirst();
  return next?.due == null ? undefined : Number(next.due);
}
