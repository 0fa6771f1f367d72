/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * The balance (GET /v1/balance) shows what an account's pending payouts hold, by currency: they
 * are found by account among the few payouts still pending, not by scanning every payout the
 * account has made. Partial: paid and failed payouts, nearly all of them, are not in it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index payouts_pending_by_account on payouts (account_id, currency) where state = 'pending'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index payouts_pending_by_account`.execute(db);
}
