/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * Deleting a person now forgets the consents they gave (oauth/user-access.ts); those of people
 * deleted before are forgotten here. No schema change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from oauth_consents where not exists (
    select 1 from users where users.account_id = oauth_consents.account_id and users.id = oauth_consents.user_id)`.execute(db);
}

export async function down(): Promise<void> {
  // What was forgotten is not restored.
}
