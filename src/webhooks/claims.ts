/**
 * Claiming due deliveries with a lease. A claim marks rows with this worker's claim token and
 * a lease that outlives the attempt's timeout; a worker that dies mid-delivery simply lets
 * the lease expire and any worker claims the row again (a new attempt, a new Delivery-Id).
 *
 * PostgreSQL: `FOR UPDATE SKIP LOCKED`, so concurrent workers take disjoint rows without
 * waiting on each other. SQLite: the claim is one IMMEDIATE transaction, which holds the
 * write lock, so claims from several processes are serialised.
 */
import type { Db } from '../platform/db/database.ts';
import { isPostgres } from './wake.ts';

export interface ClaimedDelivery {
  id: string;
  claim: string;
  accountId: string;
  endpointId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  cycleFailures: number;
  eventId: string;
  eventType: string;
  payload: string;
  raisedAt: number;
}

export async function claimDue(
  db: Db,
  input: { claim: string; now: number; leaseMs: number; max: number; endpointRoom: (endpointId: string) => number; skipEndpoints: string[] },
): Promise<ClaimedDelivery[]> {
  const postgres = isPostgres(db);
  return db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom('webhook_deliveries')
      .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.account_id',
        'webhook_deliveries.endpoint_id',
        'webhook_deliveries.cycle_failures',
        'webhook_endpoints.url',
        'webhook_endpoints.secret_sealed',
        'webhook_endpoints.previous_secret_sealed',
        'webhook_endpoints.previous_secret_expires_at',
        'events.id as event_id',
        'events.type as event_type',
        'events.payload',
        'events.created_at as raised_at',
      ])
      .where('webhook_deliveries.state', '=', 'pending')
      .where('webhook_deliveries.next_attempt_at', '<=', input.now)
      .where((eb) => eb.or([eb('webhook_deliveries.lease_until', 'is', null), eb('webhook_deliveries.lease_until', '<=', input.now)]))
      .orderBy('webhook_deliveries.next_attempt_at')
      .limit(input.max);
    if (input.skipEndpoints.length > 0) query = query.where('webhook_deliveries.endpoint_id', 'not in', input.skipEndpoints);
    if (postgres) query = query.forUpdate('webhook_deliveries').skipLocked();
    const candidates = await query.execute();

    // Bound concurrency per endpoint: take no more of one endpoint than it has room for.
    const taken = new Map<string, number>();
    const chosen = candidates.filter((row) => {
      const n = taken.get(row.endpoint_id) ?? 0;
      if (n >= input.endpointRoom(row.endpoint_id)) return false;
      taken.set(row.endpoint_id, n + 1);
      return true;
    });
    if (chosen.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: input.claim, lease_until: input.now + input.leaseMs })
      .where(
        'id',
        'in',
        chosen.map((r) => r.id),
      )
      .execute();
    return chosen.map((r) => ({
      id: r.id,
      claim: input.claim,
      accountId: r.account_id,
      endpointId: r.endpoint_id,
      url: r.url,
      secretSealed: r.secret_sealed,
      previousSecretSealed: r.previous_secret_sealed,
      previousSecretExpiresAt: r.previous_secret_expires_at,
      cycleFailures: r.cycle_failures,
      eventId: r.event_id,
      eventType: r.event_type,
      payload: r.payload,
      raisedAt: r.raised_at,
    }));
  });
}
