/**
 * SCIM creates that arrive together, written on PostgreSQL as one statement.
 *
 * An identity provider provisions with several workers at once, and most of a create's cost on
 * PostgreSQL is not the rows but the round trip: the statement's messages written to the socket,
 * its parse, its commit and WAL flush, the answer read back. Creates submitted while the event
 * loop handles one round of I/O (arriving-together.ts) go as one INSERT of every person, with
 * their search rows and audit records in WITH clauses of the same statement, so each person's
 * record commits with them or not at all.
 *
 * - **Uniqueness per person.** The persons' INSERT skips a row whose userName the account already
 *   has (ON CONFLICT DO NOTHING, which also skips the second of two rows of the batch with the
 *   same key), and returns the ids it inserted; search rows and records are inserted only for
 *   those ids. Each person left out is answered as a unique violation, its request a 409, while
 *   the others are created. A concurrent transaction holding the same userName uncommitted is
 *   waited for, as a lone INSERT would wait for it.
 * - **One statement, one shape.** Every column goes as one array (`unnest`), so the statement's
 *   text is the same whatever the batch holds: prepared once per connection.
 * - **Lock order.** Persons are inserted in order of (account, userName): two batches that
 *   share userNames meet them in the same order instead of deadlocking. A deadlock or
 *   serialization failure all the same runs the statement again (`retryOnConflict`).
 * - **A failing batch does not fail its neighbours.** Any other error (a value PostgreSQL
 *   refuses, say) sends each create of the batch again on its own, so each gets its own answer.
 * - **Alone, as before.** A create with nobody to share with, or with more search rows than a
 *   batch takes per person, is sent by the caller's own statement (users-store.ts).
 */
import { CompiledQuery } from 'kysely';
import { nameStatement, retryOnConflict, type Db } from '../platform/db/database.ts';
import { arrivingTogether } from '../platform/db/arriving-together.ts';
import type { AuditRow } from '../audit/record.ts';
import type { UserRow } from '../users/tables.ts';
import type { ScimTables } from './tables.ts';

type ValueRow = ScimTables['scim_user_values'];

/** At most this many persons share a statement: one batch holds the event loop for a bounded time. */
const MAX_BATCH = 64;

/** Each table's columns, with the PostgreSQL type its array is cast to. */
const USER_COLUMNS = [
  ['id', 'text'],
  ['account_id', 'text'],
  ['user_name', 'text'],
  ['user_name_lower', 'text'],
  ['external_id', 'text'],
  ['given_name', 'text'],
  ['family_name', 'text'],
  ['display_name', 'text'],
  ['active', 'integer'],
  ['password_hash', 'text'],
  ['attributes', 'text'],
  ['version', 'integer'],
  ['created_at', 'bigint'],
  ['updated_at', 'bigint'],
] as const satisfies ReadonlyArray<readonly [keyof UserRow, string]>;

const VALUE_COLUMNS = [
  ['account_id', 'text'],
  ['user_id', 'text'],
  ['attr', 'text'],
  ['item', 'integer'],
  ['sub', 'text'],
  ['value', 'text'],
  ['value_lower', 'text'],
] as const satisfies ReadonlyArray<readonly [keyof ValueRow, string]>;

const RECORD_COLUMNS = [
  ['id', 'text'],
  ['account_id', 'text'],
  ['occurred_at', 'bigint'],
  ['action', 'text'],
  ['actor_type', 'text'],
  ['actor_id', 'text'],
  ['actor_client_id', 'text'],
  ['target_type', 'text'],
  ['target_id', 'text'],
  ['request_id', 'text'],
  ['idempotency_key', 'text'],
  ['source_address', 'text'],
  ['user_agent', 'text'],
  ['changes', 'text'],
] as const satisfies ReadonlyArray<readonly [keyof AuditRow, string]>;

type Columns = ReadonlyArray<readonly [string, string]>;

/** `insert into table (columns) select … from unnest($n::type[], …)`, its arrays numbered from `first`. */
function insertFromArrays(table: string, columns: Columns, first: number, alias: string, where: string): string {
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type], i) => `$${first + i}::${type}[]`).join(', ');
  const conflict = where === '' ? ' on conflict do nothing returning id' : '';
  const filter = where === '' ? '' : ` where ${alias}.${where} in (select id from person)`;
  return `insert into ${table} (${names}) select ${alias}.* from unnest(${arrays}) as ${alias}(${names})${filter}${conflict}`;
}

const STATEMENT = [
  `with person as (${insertFromArrays('users', USER_COLUMNS, 1, 'u', '')}),`,
  `search_rows as (${insertFromArrays('scim_user_values', VALUE_COLUMNS, 1 + USER_COLUMNS.length, 'v', 'user_id')}),`,
  `record as (${insertFromArrays('audit_events', RECORD_COLUMNS, 1 + USER_COLUMNS.length + VALUE_COLUMNS.length, 'a', 'target_id')})`,
  'select id from person',
].join('\n');

/** The rows as one array per column, in `columns`' order. */
function arraysOf(rows: readonly object[], columns: Columns): unknown[][] {
  return columns.map(([name]) => rows.map((row) => (row as Record<string, unknown>)[name] ?? null));
}

/** What a person left out of the batch's INSERT is answered with: PostgreSQL's unique_violation, as a lone INSERT would fail. */
class UserNameTaken extends Error {
  readonly code = '23505';
  constructor() {
    super('the userName is already taken in this account');
  }
}

export interface NewPerson {
  row: UserRow;
  values: ValueRow[];
  record: AuditRow | null;
}

interface Waiting extends NewPerson {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Creates on `db` (PostgreSQL) sent together; `alone` writes one create by itself (a batch of
 * one, and each create of a batch that failed).
 */
export function createTogether(db: Db, alone: (person: NewPerson) => Promise<void>) {
  nameStatement(db, STATEMENT);

  function settleAlone(person: Waiting): void {
    alone(person).then(person.resolve, person.reject);
  }

  async function write(batch: Waiting[]): Promise<void> {
    batch.sort((a, b) => compare(a.row.account_id, b.row.account_id) || compare(a.row.user_name_lower, b.row.user_name_lower));
    const records = batch.flatMap((p) => (p.record ? [p.record] : []));
    const parameters = [
      ...arraysOf(batch.map((p) => p.row), USER_COLUMNS),
      ...arraysOf(batch.flatMap((p) => p.values), VALUE_COLUMNS),
      ...arraysOf(records, RECORD_COLUMNS),
    ];
    let inserted: Set<string>;
    try {
      const { rows } = await retryOnConflict(() => db.executeQuery<{ id: string }>(CompiledQuery.raw(STATEMENT, parameters)));
      inserted = new Set(rows.map((r) => r.id));
    } catch {
      for (const person of batch) settleAlone(person);
      return;
    }
    for (const person of batch) {
      if (inserted.has(person.row.id)) person.resolve();
      else person.reject(new UserNameTaken());
    }
  }

  const submit = arrivingTogether<Waiting>((batch) => (batch.length === 1 ? settleAlone(batch[0]!) : void write(batch)), MAX_BATCH);

  return {
    /** Resolves once `person` is stored; rejects as a unique violation when their userName is taken. */
    create: (person: NewPerson): Promise<void> => new Promise<void>((resolve, reject) => submit({ ...person, resolve, reject })),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
