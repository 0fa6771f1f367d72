/**
 * The delivery queue as workers use it: claiming due deliveries with a lease, giving back what
 * was claimed and not attempted, and asking when the next delivery is due. The queue
 * (`webhook_queue`, migration 0505) holds the
 * deliveries still to be attempted; a claim marks its rows with this worker's claim token and
 * a lease that outlives the attempt's timeout; a worker that dies mid-delivery simply lets
 * the lease expire and any worker claims the row again (a new attempt, a new Delivery-Id);
 * a worker that stops gives back at once what it claimed and did not start (`releaseClaims`).
 *
 * Where writers take rows side by side (PostgreSQL): one statement, `FOR UPDATE SKIP LOCKED` so
 * concurrent workers take disjoint rows without waiting on each other, the per-endpoint bound
 * applied in SQL and the lease set in the same statement: a claim costs one round trip. Where
 * every write transaction holds the database's one write lock (`writesOneAtATime`, SQLite): a
 * select and an update in one IMMEDIATE transaction, so claims from several processes are
 * serialised, the per-endpoint bound applied as the rows are read. Either way the event body and
 * the endpoint's URL and secrets come back with the claim, read once per claimed delivery and
 * never again for its attempt.
 *
 * (One statement for both was measured: SQLite cannot return the joined event and endpoint
 * from an UPDATE, and the form it can run, with the bound applied by a window over the due rows,
 * took half as long again per claim as the select and update below.)
 */
import { sql, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import { dialectOf, type SqlDialect } from '../platform/db/dialect.ts';
import { preparedQuery, type Placeholder } from '../platform/db/prepared.ts';

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

export async function claimDue(db: Db, input: ClaimInput): Promise<ClaimedDelivery[]> {
  const dialect = dialectOf(db);
  return dialect.writesOneAtATime ? claimInTurn(db, dialect, input) : claimInOneStatement(db, input);
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

async function claimInOneStatement(db: Db, input: ClaimInput): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    // The due index must be walked in order so that the limit stops the scan early, whatever
    // the statistics say: just after a burst they still say almost nothing is pending, and
    // the planner would then fetch and sort the whole backlog on every claim. (Were a plan
    // to need a disabled node after all, its cost would call for JIT compilation: not that.)
    await sql`select set_config('enable_bitmapscan', 'off', true), set_config('jit', 'off', true)`.execute(trx);
    return leaseDue(trx, input);
  });
}

/** What one claim binds to the leasing statement. */
interface LeaseValues {
  now: number;
  until: number;
  claim: string;
  max: number;
  skipEndpoints: readonly string[];
  roomEndpoints: string[];
  roomSizes: number[];
  otherwise: number;
}

/**
 * The due rows, bounded per endpoint, leased and returned with their event and endpoint, in one
 * statement whose text is the same for every claim: compiled once, and run as a statement each
 * connection plans once.
 */
const leaseDueStatement = preparedQuery((db, value: Placeholder<LeaseValues>) => {
  const dialect = dialectOf(db);
  return sql<QueueRow & EndpointRow>`
    with due as (
      select delivery_id, endpoint_id, next_attempt_at
      from webhook_queue
      where next_attempt_at <= ${value('now')}
        and (lease_until is null or lease_until <= ${value('now')})
        and ${dialect.notInList(sql.ref('endpoint_id'), value('skipEndpoints'))}
      order by next_attempt_at
      limit ${value('max')}
      ${dialect.skipLockedClause}
    ),
    chosen as (
      select ranked.delivery_id
      from (select delivery_id, endpoint_id, row_number() over (partition by endpoint_id order by next_attempt_at, delivery_id) as place from due) ranked
      left join unnest(${value('roomEndpoints')}::text[], ${value('roomSizes')}::int[]) as room(endpoint_id, size)
        on room.endpoint_id = ranked.endpoint_id
      where ranked.place <= coalesce(room.size, ${value('otherwise')})
    )
    update webhook_queue q
    set lease_owner = ${value('claim')}, lease_until = ${value('until')}
    from chosen, events e, webhook_endpoints w
    where q.delivery_id = chosen.delivery_id and e.id = q.event_id and w.id = q.endpoint_id
    returning q.delivery_id as id, q.account_id, q.endpoint_id, q.cycle_failures, q.next_attempt_at,
      w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_expires_at, w.headers_sealed,
      e.id as event_id, e.type as event_type, e.payload, e.created_at as raised_at`;
});

async function leaseDue(trx: Transaction<Tables>, input: ClaimInput): Promise<ClaimedDelivery[]> {
  const { rows } = await leaseDueStatement.execute(trx, {
    now: input.now,
    until: input.now + input.leaseMs,
    claim: input.claim,
    max: input.max,
    skipEndpoints: input.skipEndpoints,
    roomEndpoints: [...input.room.of.keys()],
    roomSizes: [...input.room.of.values()],
    otherwise: input.room.otherwise,
  });
  // RETURNING has no order; attempts start oldest first.
  return rows.sort((a, b) => a.next_attempt_at - b.next_attempt_at).map((row) => claimedDelivery(input, row, row));
}

async function claimInTurn(db: Db, dialect: SqlDialect, input: ClaimInput): Promise<ClaimedDelivery[]> {
  return db.transaction().execute(async (trx) => {
    const { rows: candidates } = await sql<QueueRow>`
      select q.delivery_id as id, q.account_id, q.endpoint_id, q.cycle_failures, q.next_attempt_at,
        q.event_id, e.type as event_type, e.payload, e.created_at as raised_at
      from webhook_queue q
      join events e on e.id = q.event_id
      where q.next_attempt_at <= ${input.now}
        and (q.lease_until is null or q.lease_until <= ${input.now})
        and ${dialect.notInList(sql.ref('q.endpoint_id'), input.skipEndpoints)}
      order by q.next_attempt_at
      limit ${dialect.limit(input.max)}`.execute(trx);

    // Bound concurrency per endpoint: take no more of one endpoint than it has room for.
    const taken = new Map<string, number>();
    const chosen = candidates.filter((row) => {
      const n = taken.get(row.endpoint_id) ?? 0;
      if (n >= (input.room.of.get(row.endpoint_id) ?? input.room.otherwise)) return false;
      taken.set(row.endpoint_id, n + 1);
      return true;
    });
    if (chosen.length === 0) return [];
    await sql`
      update webhook_queue
      set lease_owner = ${input.claim}, lease_until = ${input.now + input.leaseMs}
      where ${dialect.inList(sql.ref('delivery_id'), chosen.map((r) => r.id))}`.execute(trx);
    // Each endpoint's URL and secrets once per claim, not once per delivery.
    const { rows: endpoints } = await sql<EndpointRow & { id: string }>`
      select id, url, secret_sealed, previous_secret_sealed, previous_secret_expires_at, headers_sealed
      from webhook_endpoints
      where ${dialect.inList(sql.ref('id'), [...taken.keys()])}`.execute(trx);
    const byId = new Map(endpoints.map((e) => [e.id, e]));
    return chosen.map((row) => claimedDelivery(input, row, byId.get(row.endpoint_id)!));
  });
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
