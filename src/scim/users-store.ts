/**
 * Queries of SCIM users: the `users` rows shared with sign-in, their searchable values and
 * their derived `groups`. Every query is scoped by account.
 */
import { sql, type Compilable, type OperationNodeSource, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import { retryOnConflict, type Db } from '../platform/db/database.ts';
import { placeholder, preparedQuery, type Placeholder, type PreparedQuery } from '../platform/db/prepared.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { SqlDialect } from '../platform/db/dialect.ts';
import { findUser } from '../users/store.ts';
import type { UserRow } from '../users/tables.ts';
import { filterShape, orderExpression, parseFilter, sortDirection, translateAst, type Bind } from './filter.ts';
import { sortOperand, userFilterTarget } from './user-filter.ts';
import type { ScimTables } from './tables.ts';
import { touchInIdOrder } from './versions.ts';
import { insertTogether, writeTogether, type RowsInsert } from '../platform/db/writes-together.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { insertAuditRow, type AuditRow } from '../audit/record.ts';
import { createTogether } from './create-together.ts';
import { sharedTransactions, type GroupCommit } from '../platform/db/group-commit.ts';

type Executor = Db | Transaction<Tables>;
type ValueRow = ScimTables['scim_user_values'];

export interface ListQuery {
  filter?: string;
  sortBy?: string;
  descending: boolean;
  /** 1-based */
  startIndex: number;
  count: number;
}

export interface UserGroupRef {
  groupId: string;
  displayName: string;
}

/** A user of a list page, with its direct groups. */
export interface ListedUser {
  row: UserRow;
  groups: UserGroupRef[];
}

/**
 * The direct groups of each listed user, ordered by name, as one JSON column of the page
 * query: `[[id, displayName], …]`. One query serves a page and its memberships.
 */
function groupRefsOf(dialect: SqlDialect) {
  const members = sql`from scim_group_members m join scim_groups g on g.id = m.group_id where m.account_id = users.account_id and m.user_id = users.id`;
  const refs = dialect.jsonArrayAgg(dialect.jsonArray(sql.ref('g.id'), sql.ref('g.display_name')), sql.ref('g.display_name_lower'));
  return sql<unknown>`(select ${refs} ${members})`;
}

function decodeGroupRefs(refs: Array<[string, string]>): UserGroupRef[] {
  return refs.map(([groupId, displayName]) => ({ groupId, displayName }));
}

/** List query shapes kept compiled, and filter texts kept translated, per store (see listQuery). */
const LIST_PLANS = 500;

/** The values a list query binds: the account, then the filter's values by their place in it. */
type ListValues = Record<string, unknown>;

interface ListPlan {
  /** How many filter values it binds, after the account. */
  values: number;
  page: PreparedQuery<ListValues, UserRow & { group_refs: unknown }>;
  count: PreparedQuery<ListValues, { total: number | string }>;
}

/** A list plan is one of up to LIST_PLANS shapes per store: not kept on every PostgreSQL connection. */
const ONE_SHAPE_OF_MANY = { named: false };

/** A binder that puts a new placeholder in the SQL for each value, keeping the values in order. */
function placeholderBinder(values: unknown[]): Bind {
  return (value) => {
    const bound = placeholder(`value ${values.length}`);
    values.push(value);
    return bound;
  };
}

function listValues(accountId: string, values: readonly unknown[]): ListValues {
  const named: ListValues = { account_id: accountId };
  values.forEach((value, i) => (named[`value ${i}`] = value));
  return named;
}

/**
 * The statement that creates a user has one shape per number of search rows: kept prepared on
 * PostgreSQL for the people an identity provider usually sends (a few names, emails and
 * phones), parsed afresh for the rare large one.
 */
const NAMED_UP_TO_VALUES = 32;

/** A user read alone (GET, PUT, PATCH) asks for its groups: compiled once, run with the ids. */
const groupsOfOne = preparedQuery((db, value: Placeholder<{ accountId: string; userId: string }>) =>
  db
    .selectFrom('scim_group_members as m')
    .innerJoin('scim_groups as g', 'g.id', 'm.group_id')
    .select(['g.id', 'g.display_name'])
    .where('m.account_id', '=', value('accountId'))
    .where('m.user_id', '=', value('userId'))
    .orderBy('g.display_name_lower'),
);

/** The person's row, up to 500 of their search rows and their audit record, as inserts of one statement (`insertTogether`). */
function newPersonInserts(row: UserRow, values: ValueRow[], record: AuditRow | null): RowsInsert[] {
  return [
    { table: 'users', rows: [row] },
    { table: 'scim_user_values', rows: values },
    { table: 'audit_events', rows: record ? [record] : [] },
  ];
}

/**
 * `write` and `record` (an audit record, or null) in `trx`: on PostgreSQL as one statement
 * (`writeTogether`), the record a WITH clause of the write; elsewhere the write, then the
 * record's prepared INSERT.
 */
async function withRecord(trx: Executor, write: Compilable & OperationNodeSource, record: AuditRow | null): Promise<void> {
  if (record === null) {
    await trx.executeQuery(write.compile());
  } else if (dialectOf(trx).writableCtes) {
    await writeTogether(trx, [trx.insertInto('audit_events').values(record), write]);
  } else {
    await trx.executeQuery(write.compile());
    await insertAuditRow(trx, record);
  }
}

/** Keeps `value` under `key`, dropping the oldest entry when `map` holds LIST_PLANS. */
function keep<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= LIST_PLANS) map.delete(map.keys().next().value!);
  map.set(key, value);
}

export function createScimUserStore(deps: {
  db: Db;
  dialect: SqlDialect;
  /**
   * The node's shared commits: on SQLite a create joins the transaction of the writes arriving
   * with it (`sharedTransactions`), so an identity provider's parallel creates commit together.
   */
  groupCommit?: GroupCommit | undefined;
}) {
  const { db, dialect } = deps;
  const transact = sharedTransactions(db, deps.groupCommit);

  // Identity providers send list queries of a few shapes over and over (`userName eq "…"`
  // before every provisioning). A query's SQL depends only on its filter's shape (the filter with
  // each value replaced by its type: see filterShape), sort and paging; the account and the
  // filter's values are bound when it runs. So each shape is compiled once (at most LIST_PLANS
  // kept), and each filter text is translated once into its shape's plan and its values (at most
  // LIST_PLANS texts kept): translation is a pure function of the text. Filters or sorts that
  // fail are never kept.
  const plansByShape = new Map<string, ListPlan>();
  const queriesByText = new Map<string, { plan: ListPlan; values: unknown[] }>();

  function compileListPlan(query: ListQuery, account: string, condition: RawBuilder<SqlBool>, values: number): ListPlan {
    const base = (db: Db) => db.selectFrom('users').where('users.account_id', '=', account).where(condition);
    const direction = query.descending ? 'desc' : 'asc';
    // Checked now, not when first run: a sort that fails is never kept.
    const sortBy = query.sortBy ? orderExpression(dialect, sortOperand(query.sortBy)) : undefined;
    return {
      values,
      page: preparedQuery((db) => {
        let page = base(db).selectAll('users').select(groupRefsOf(dialect).as('group_refs'));
        if (sortBy) page = page.orderBy(sortBy, sortDirection(query.descending));
        page = page.orderBy('users.created_at', direction).orderBy('users.id', direction);
        return page.limit(query.count).offset(query.startIndex - 1);
      }, ONE_SHAPE_OF_MANY),
      count: preparedQuery((db) => base(db).select((eb) => eb.fn.countAll<number | string>().as('total')), ONE_SHAPE_OF_MANY),
    };
  }

  function listQuery(query: ListQuery): { plan: ListPlan; values: unknown[] } {
    const textKey = JSON.stringify([query.filter, query.sortBy, query.descending, query.count, query.startIndex]);
    const known = queriesByText.get(textKey);
    if (known) return known;
    const account = placeholder<string>('account_id');
    const values: unknown[] = [];
    const filter = query.filter ? parseFilter(query.filter) : undefined;
    const condition = filter ? translateAst(userFilterTarget(account, dialect, placeholderBinder(values)), filter) : sql<SqlBool>`1 = 1`;
    const shapeKey = JSON.stringify([filter && filterShape(filter), query.sortBy, query.descending, query.count, query.startIndex]);
    let plan = plansByShape.get(shapeKey);
    // One shape binds the same values in the same order; anything else is a bug, never a query.
    if (plan && plan.values !== values.length) throw new Error(`filter shape ${shapeKey} bound ${values.length} values, its plan ${plan.values}`);
    if (!plan) {
      plan = compileListPlan(query, account, condition, values.length);
      keep(plansByShape, shapeKey, plan);
    }
    const translated = { plan, values };
    keep(queriesByText, textKey, translated);
    return translated;
  }

  async function countMatches(plan: ListPlan, values: ListValues): Promise<number> {
    return Number((await plan.count.execute(db, values)).rows[0]!.total);
  }

  async function writeValues(trx: Executor, rows: ValueRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) await trx.insertInto('scim_user_values').values(rows.slice(i, i + 500)).execute();
  }

  /**
   * Inserts the person, their search rows and `record` in `trx`: on PostgreSQL the first 500
   * search rows go in one statement with the person and the record, so the record adds no
   * round trip to the write.
   */
  async function insertPerson(trx: Executor, row: UserRow, values: ValueRow[], record: AuditRow | null): Promise<void> {
    if (!dialect.writableCtes) {
      // In process (SQLite) there is no round trip to save: the record is the prepared INSERT it always is.
      await trx.insertInto('users').values(row).execute();
      await writeValues(trx, values);
      if (record) await insertAuditRow(trx, record);
      return;
    }
    const [first, rest] = [values.slice(0, 500), values.slice(500)];
    await insertTogether(trx, newPersonInserts(row, first, record), { named: first.length <= NAMED_UP_TO_VALUES });
    await writeValues(trx, rest);
  }

  /** A create of up to 500 search rows on PostgreSQL: one statement sent alone (see `create`). */
  const createAlone = ({ row, values, record }: { row: UserRow; values: ValueRow[]; record: AuditRow | null }) =>
    retryOnConflict(() => insertTogether(db, newPersonInserts(row, values, record), { named: values.length <= NAMED_UP_TO_VALUES }));
  const together = dialect.writableCtes ? createTogether(db, createAlone) : undefined;

  return {
    /**
     * Writes a new person, their search rows and `record` (its audit record; null when nothing is
     * recorded), committed before it returns. On PostgreSQL, for a person of up to 500 search
     * rows, that is one statement sent on its own, outside BEGIN and COMMIT: PostgreSQL runs a
     * lone statement as a transaction, so its clauses commit together or not at all, and the
     * write costs one round trip instead of three; a person of the usual few search rows shares
     * that statement with the creates that arrived with theirs (create-together.ts). On SQLite
     * they go in the next transaction of the node's group commit, which a create that fails
     * (a taken userName) leaves to the others. Otherwise the writes go in a transaction
     * (`insert`), run again on a conflict with a concurrent one.
     */
    async create(row: UserRow, values: ValueRow[], record: AuditRow | null): Promise<void> {
      if (together && values.length <= NAMED_UP_TO_VALUES) return together.create({ row, values, record });
      if (dialect.writableCtes && values.length <= 500) return createAlone({ row, values, record });
      await transact((trx) => insertPerson(trx, row, values, record));
    },

    insert: insertPerson,

    /**
     * Stores `row` over the person's row and replaces their search rows; `record`, the write's
     * audit record (null when nothing is recorded), goes with the row's UPDATE as one statement
     * on PostgreSQL, so it adds no round trip.
     */
    async update(trx: Executor, row: UserRow, values: ValueRow[], record: AuditRow | null): Promise<void> {
      const update = trx.updateTable('users').set(row).where('account_id', '=', row.account_id).where('id', '=', row.id);
      await withRecord(trx, update, record);
      await trx.deleteFrom('scim_user_values').where('user_id', '=', row.id).execute();
      await writeValues(trx, values);
    },

    find: (trx: Executor, accountId: string, id: string): Promise<UserRow | undefined> => findUser(trx, accountId, id),

    /**
     * The user, read to be written in the same transaction. On PostgreSQL the row stays locked
     * until the transaction ends, so a group write that gives the user a new version meanwhile
     * waits, and this write counts on from that version instead of reusing it. The lock does not
     * hold back adding or removing the user's memberships (FOR NO KEY UPDATE). SQLite
     * transactions already hold the database's write lock.
     */
    async findForWrite(trx: Transaction<Tables>, accountId: string, id: string): Promise<UserRow | undefined> {
      const query = trx.selectFrom('users').selectAll().where('account_id', '=', accountId).where('id', '=', id);
      return dialect.lockForWrite(query).executeTakeFirst();
    },

    /**
     * Gives users whose `groups` changed (they joined or left a group, or one of their groups was
     * renamed) the next version: their representation changed as much as by a write of their own.
     */
    async touch(trx: Executor, accountId: string, userIds: readonly string[], at: number): Promise<void> {
      await touchInIdOrder(trx, dialect, 'users', accountId, userIds, at);
    },

    /** Gives every member of a group the next version, locked in id order however large the group. */
    async touchMembersOf(trx: Executor, accountId: string, groupId: string, at: number): Promise<void> {
      await touchInIdOrder(trx, dialect, 'users', accountId, trx.selectFrom('scim_group_members').select('user_id').where('group_id', '=', groupId), at);
    },

    /** Deletes the person's row, with `record`, the deletion's audit record, as update does. */
    async delete(trx: Executor, accountId: string, id: string, record: AuditRow | null): Promise<void> {
      await withRecord(trx, trx.deleteFrom('users').where('account_id', '=', accountId).where('id', '=', id), record);
    },

    /**
     * Which of `ids` are people of the account, for a write about to make them members: they are
     * locked against deletion as they are read (`lockForReference`), so a deletion committing
     * meanwhile is waited for and seen here, never met by the membership's foreign key.
     */
    async existing(trx: Executor, accountId: string, ids: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let i = 0; i < ids.length; i += 500) {
        const query = trx.selectFrom('users').select('id').where('account_id', '=', accountId).where('id', 'in', ids.slice(i, i + 500));
        const rows = await dialect.lockForReference(query).execute();
        for (const r of rows) found.add(r.id);
      }
      return found;
    },

    /**
     * One page of users matching `query`, and how many match in all. The page is read first:
     * a page that ends before `count` rows tells the total itself (a filter on a unique
     * attribute always does), so the count is asked only when the page is full or empty.
     */
    async list(accountId: string, query: ListQuery): Promise<{ users: ListedUser[]; total: number }> {
      const { plan, values } = listQuery(query);
      const parameters = listValues(accountId, values);
      if (query.count === 0) return { users: [], total: await countMatches(plan, parameters) };
      const { rows } = await plan.page.execute(db, parameters);
      const partial = rows.length < query.count && (rows.length > 0 || query.startIndex === 1);
      const users = rows.map(({ group_refs, ...row }) => ({ row, groups: decodeGroupRefs(dialect.readJson(group_refs) as Array<[string, string]>) }));
      return { users, total: partial ? query.startIndex - 1 + rows.length : await countMatches(plan, parameters) };
    },

    /** Direct group memberships of one user. */
    async groupsOf(trx: Executor, accountId: string, userId: string): Promise<UserGroupRef[]> {
      const { rows } = await groupsOfOne.execute(trx, { accountId, userId });
      return rows.map((r) => ({ groupId: r.id, displayName: r.display_name }));
    },
  };
}

export type ScimUserStore = ReturnType<typeof createScimUserStore>;
