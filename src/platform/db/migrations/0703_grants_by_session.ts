/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { sql, type Kysely } from 'kysely';

/**
 * A sign-in session that ends revokes the grants signed in under it (oauth/sessions.ts; OpenID
 * Connect Back-Channel Logout §2.7): they are found by session, among grants of every session
 * the installation has had. Partial: grants of pure OAuth requests name no session.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index oauth_grants_session on oauth_grants (session_id) where session_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index oauth_grants_session`.execute(db);
}
