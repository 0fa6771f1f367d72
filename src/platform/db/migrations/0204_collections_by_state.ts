/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

/**
 * `GET /v1/invoices?state=…` and `GET /v1/payouts?state=…` read an account's rows of one state
 * newest first: with the state between the account and the keyset order, a page costs the same
 * whether the state is most of the account's rows or a handful of them (a read along the
 * account's index would pass over every row of the other states to find them).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('invoices_account_state_created').on('invoices').columns(['account_id', 'state', 'created_at', 'id']).execute();
  await db.schema.createIndex('payouts_account_state_created').on('payouts').columns(['account_id', 'state', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payouts_account_state_created').execute();
  await db.schema.dropIndex('invoices_account_state_created').execute();
}
