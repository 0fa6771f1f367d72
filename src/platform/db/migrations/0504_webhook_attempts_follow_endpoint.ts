/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// PostgreSQL: the attempt log keeps to its endpoint by a trigger on the endpoint's deletion,
// not by a foreign key checked for every attempt.
//
// A foreign key is checked row by row: every attempt recorded ran a lookup of its endpoint and
// locked it, about a third of what inserting the attempt costs, for the one endpoint a whole
// batch of attempts usually shares. Recording now locks each endpoint of a batch once (see
// webhooks/outcomes.ts), which is what the key's check guarded against: an endpoint deleted
// while its attempts are being recorded. Deleting endpoints, alone or with their account, still
// takes their attempts, in one statement per deletion.
//
// SQLite checks a key with one lookup in the parent's index, inside the same call; it keeps it.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table webhook_attempts drop constraint webhook_attempts_endpoint_id_fkey`.execute(db);
  // `set search_path from current`: the schema the table was made in, whoever deletes.
  await sql`
    create function webhook_attempts_follow_endpoint() returns trigger language plpgsql
    set search_path from current as $$
    begin
      delete from webhook_attempts a using deleted_endpoints d where a.endpoint_id = d.id;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger webhook_attempts_follow_endpoint after delete on webhook_endpoints
    referencing old table as deleted_endpoints
    for each statement execute function webhook_attempts_follow_endpoint()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`drop trigger webhook_attempts_follow_endpoint on webhook_endpoints`.execute(db);
  await sql`drop function webhook_attempts_follow_endpoint()`.execute(db);
  await sql`delete from webhook_attempts a where not exists (select 1 from webhook_endpoints e where e.id = a.endpoint_id)`.execute(db);
  await sql`alter table webhook_attempts add constraint webhook_attempts_endpoint_id_fkey
    foreign key (endpoint_id) references webhook_endpoints (id) on delete cascade`.execute(db);
}
