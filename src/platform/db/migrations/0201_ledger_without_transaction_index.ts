/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import type { Kysely } from 'kysely';

// No query looks ledger entries up by transaction (the ledger is read by account, newest first),
// and every posting paid for the index twice: two random-position inserts per posting.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('ledger_entries_transaction').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('ledger_entries_transaction').on('ledger_entries').column('transaction_id').execute();
}
