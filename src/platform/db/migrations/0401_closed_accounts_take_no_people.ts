/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run against any schema version */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * No person or group is written into a closed account (docs/DECISIONS.md, "Nothing new lands in a
 * closed account").
 *
 * Closing an account deletes its people and groups in its transaction. A SCIM create whose token
 * was checked before that transaction, and whose own write runs after it, would otherwise land a
 * person (and the audit record naming them) in the closed account: its foreign key still finds the
 * account's row, which stays as a tombstone. The check sits in the database because every way a
 * person is written (alone, in a statement shared with other creates, in the group commit, from
 * the admin API) must meet it.
 *
 * - PostgreSQL: before each row is inserted into `users` or `scim_groups`, its account is read
 *   `for share`. A closing holds its account `for no key update` from its start, which a share
 *   lock waits for (the key share of a foreign key's check does not), and READ COMMITTED then
 *   reads the row as the closing left it: a closed account fails the statement (SQLSTATE GHA01),
 *   which rolls it back. A closing that begins after the lock was taken waits for the create,
 *   then finds the person and deletes them. One indexed read per row: about 45 µs of the
 *   database's CPU per single-row insert (a statement trigger over the inserted rows cost 70–80).
 * - SQLite: one writer, so a trigger before each row's insert reads the account as it is.
 *
 * Invoices, endpoints and the books are not guarded here: a closed account keeps them, and
 * `gatehouse import` writes them back as they were.
 */
const TABLES = ['users', 'scim_groups'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // `set search_path from current`: the schema the tables were made in, whoever writes.
    await sql`
      create function refuse_row_of_closed_account() returns trigger language plpgsql
      set search_path from current as $$
      declare closed_at bigint;
      begin
        -- The row as a closing in progress leaves it, once that closing has ended.
        select deleted_at into closed_at from accounts where id = new.account_id for share;
        if closed_at is not null then
          raise exception 'the account was closed' using errcode = 'GHA01';
        end if;
        return new;
      end $$`.execute(db);
    for (const table of TABLES) {
      await sql`
        create trigger ${sql.id(`${table}_only_in_open_accounts`)} before insert on ${sql.table(table)}
        for each row execute function refuse_row_of_closed_account()`.execute(db);
    }
    return;
  }
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.id(`${table}_only_in_open_accounts`)} before insert on ${sql.table(table)}
      when (select deleted_at from accounts where id = new.account_id) is not null
      begin select raise(abort, 'GHA01 the account was closed'); end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const table of TABLES) {
    const trigger = sql.id(`${table}_only_in_open_accounts`);
    await (postgres ? sql`drop trigger ${trigger} on ${sql.table(table)}` : sql`drop trigger ${trigger}`).execute(db);
  }
  if (postgres) await sql`drop function refuse_row_of_closed_account()`.execute(db);
}
