/**
 * Queries of SCIM groups and their memberships. A membership is one row, so adding or
 * removing one member costs one indexed write whatever the size of the group.
 */
import { sql, type SqlBool, type Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { SqlDialect } from '../platform/db/dialect.ts';
import { invalidFilter, invalidValue } from './errors.ts';
import type { Filter } from 'scim2-parse-filter';
import { orderExpression, sortDirection, translateAst, translateFilter, type FilterTarget, type Operand } from './filter.ts';
import { GROUP_SCHEMA, resolvePath, type AttrDef, type ResolvedPath } from './schema-catalog.ts';
import type { ScimTables } from './tables.ts';
import type { ListQuery } from './users-store.ts';
import { nextVersion, touchInIdOrder } from './versions.ts';

type Executor = Db | Transaction<Tables>;
export type GroupRow = ScimTables['scim_groups'];
export interface MemberRef {
  groupId: string;
  userId: string;
  display: string;
}

/** A group's version and lastModified, as a write left them. */
export type GroupVersion = Pick<GroupRow, 'version' | 'updated_at'>;

/**
 * What a group shows as a member's `members[].display`: the user's displayName, else its
 * userName (the SQL of filters says the same with coalesce).
 */
export function memberDisplay(user: { display_name: string | null; user_name: string }): string {
  // `||`: a display name stored empty before "" came to mean no value still falls back.
  return user.display_name || user.user_name;
}

/** The ids of the groups `userId` is a member of, as a subquery. */
function groupIdsOf(trx: Executor, userId: string) {
  return trx.selectFrom('scim_group_members').select('group_id').where('user_id', '=', userId);
}

const scalar = (ref: string, type: AttrDef['type'], caseExact: boolean, lowered = false, trimmed = false): Operand => ({ kind: 'scalar', sql: sql.ref(ref), type, caseExact, lowered, trimmed });

function columnOperand(path: ResolvedPath): Operand | undefined {
  const name = path.sub ? `${path.def.name}.${path.sub.name}` : path.def.name;
  switch (name) {
    case 'id': return scalar('scim_groups.id', 'string', true);
    case 'externalId': return scalar('scim_groups.external_id', 'string', true);
    case 'displayName': return scalar('scim_groups.display_name_lower', 'string', false, true, true);
    case 'meta.created': return scalar('scim_groups.created_at', 'dateTime', true);
    case 'meta.lastModified': return scalar('scim_groups.updated_at', 'dateTime', true);
    case 'meta.resourceType': return { kind: 'constant', value: 'Group' };
  }
  if (path.def.name === 'meta') throw invalidFilter(`${name} cannot be filtered`);
  return undefined;
}

function memberOperand(sub: AttrDef): Operand {
  switch (sub.name) {
    case 'value': return scalar('m.user_id', 'string', true);
    case 'display': return { kind: 'scalar', sql: sql`coalesce(u.display_name, u.user_name)`, type: 'string', caseExact: false, lowered: false };
    case 'type': return { kind: 'constant', value: 'User' };
  }
  throw invalidFilter(`members.${sub.name} cannot be filtered`);
}

export function groupFilterTarget(accountId: string, dialect: SqlDialect): FilterTarget {
  const membersWhere = (condition: unknown) =>
    sql<SqlBool>`scim_groups.id in (select m.group_id from scim_group_members m join users u on u.id = m.user_id where m.account_id = ${accountId} and ${condition})`;
  return {
    schema: GROUP_SCHEMA,
    dialect,
    operand(path) {
      const column = columnOperand(path);
      if (column) return column;
      const operand = memberOperand(path.sub!);
      if (operand.kind !== 'scalar') return operand;
      return { kind: 'set', build: (test) => membersWhere(test(operand)) };
    },
    elements(_path, inner) {
      return membersWhere(inner(memberOperand));
    },
  };
}

function sortOperand(sortBy: string): Operand & { kind: 'scalar' } {
  const path = resolvePath(GROUP_SCHEMA, sortBy);
  const column = path ? columnOperand(path) : undefined;
  if (column?.kind !== 'scalar') throw invalidValue(`sortBy: ${sortBy} cannot be sorted on`);
  return column;
}

export function createScimGroupStore(deps: { db: Db; dialect: SqlDialect }) {
  const { db, dialect } = deps;

  return {
    async insert(trx: Executor, row: GroupRow): Promise<void> {
      await trx.insertInto('scim_groups').values(row).execute();
    },
    /**
     * Stores the group's name and externalId as the next version, last modified at `at` or
     * later; returns the version and lastModified stored (undefined when the group is gone).
     */
    async update(trx: Executor, row: GroupRow, at: number): Promise<GroupVersion | undefined> {
      // Counted up in SQL: a group's row is not locked when a group write reads it (member users
      // are locked before it), so a member's write may give it a version meanwhile.
      return nextVersion(trx, 'scim_groups', row.account_id, at)
        .set({ display_name: row.display_name, display_name_lower: row.display_name_lower, external_id: row.external_id })
        .where('id', '=', row.id)
        .returning(['version', 'updated_at'])
        .executeTakeFirst();
    },
    async find(trx: Executor, accountId: string, id: string): Promise<GroupRow | undefined> {
      return trx.selectFrom('scim_groups').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    },
    /**
     * The group, for a write of its members: locked against deletion only (`lockForReference`),
     * so a deletion committing meanwhile is waited for and seen here rather than met by the
     * memberships' foreign key. Its row is updated, and so locked for that, after its members.
     */
    async findToWrite(trx: Executor, accountId: string, id: string): Promise<GroupRow | undefined> {
      return dialect.lockForReference(trx.selectFrom('scim_groups').selectAll().where('account_id', '=', accountId).where('id', '=', id)).executeTakeFirst();
    },
    /** Deletes the group; returns the version it had when deleted (undefined when it was gone). */
    async delete(trx: Executor, accountId: string, id: string): Promise<number | undefined> {
      const deleted = await trx.deleteFrom('scim_groups').where('account_id', '=', accountId).where('id', '=', id).returning('version').executeTakeFirst();
      return deleted?.version;
    },
    /**
     * Gives every group `userId` is a member of the next version, however many there are: a
     * change of the user's display changes their `members`. For a transaction holding the
     * user's row: a change of the user's memberships cannot commit meanwhile (it writes the user
     * too), so the groups locked are the groups updated.
     */
    async touchGroupsOf(trx: Executor, accountId: string, userId: string, at: number): Promise<void> {
      await touchInIdOrder(trx, dialect, 'scim_groups', accountId, groupIdsOf(trx, userId), at);
    },
    /**
     * Removes the user from every group and gives those groups the next version (their
     * `members` lost it). The memberships are deleted before any group is locked, so waiting
     * for a concurrent change of one of them never holds a group's row.
     */
    async leaveAllGroups(trx: Executor, accountId: string, userId: string, at: number): Promise<void> {
      const left = await trx.deleteFrom('scim_group_members').where('account_id', '=', accountId).where('user_id', '=', userId).returning('group_id').execute();
      await touchInIdOrder(trx, dialect, 'scim_groups', accountId, left.map((r) => r.group_id), at);
    },
    /** Adds memberships that do not exist yet; returns the users added (not those already members). */
    async addMembers(trx: Executor, accountId: string, groupId: string, userIds: string[], at: number): Promise<string[]> {
      const added: string[] = [];
      for (let i = 0; i < userIds.length; i += 500) {
        const rows = userIds.slice(i, i + 500).map((user_id) => ({ group_id: groupId, user_id, account_id: accountId, created_at: at }));
        const inserted = await trx.insertInto('scim_group_members').values(rows).onConflict((oc) => oc.doNothing()).returning('user_id').execute();
        for (const r of inserted) added.push(r.user_id);
      }
      return added;
    },
    /** Removes the named memberships; returns the users that were members. */
    async removeMembers(trx: Executor, groupId: string, userIds: string[]): Promise<string[]> {
      const removed: string[] = [];
      for (let i = 0; i < userIds.length; i += 500) {
        const deleted = await trx.deleteFrom('scim_group_members').where('group_id', '=', groupId).where('user_id', 'in', userIds.slice(i, i + 500)).returning('user_id').execute();
        for (const r of deleted) removed.push(r.user_id);
      }
      return removed;
    },
    /** Removes every membership of the group; returns the users that were members. */
    async removeAllMembers(trx: Executor, groupId: string): Promise<string[]> {
      const deleted = await trx.deleteFrom('scim_group_members').where('group_id', '=', groupId).returning('user_id').execute();
      return deleted.map((r) => r.user_id);
    },
    /** Member ids of `groupId` matching the value filter of a `members[…]` path, found in SQL. */
    async matchingMembers(trx: Executor, accountId: string, groupId: string, valFilter: Filter): Promise<string[]> {
      const target: FilterTarget = { ...groupFilterTarget(accountId, dialect), elements: (_path, inner) => inner(memberOperand) };
      const condition = translateAst(target, { op: '[]', attrPath: 'members', valFilter } as Filter);
      const rows = await trx
        .selectFrom('scim_group_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('m.user_id')
        .where('m.group_id', '=', groupId)
        .where(condition)
        .execute();
      return rows.map((r) => r.user_id);
    },
    async membersOf(trx: Executor, groupIds: string[]): Promise<MemberRef[]> {
      if (groupIds.length === 0) return [];
      const rows = await trx
        .selectFrom('scim_group_members as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select(['m.group_id', 'm.user_id', 'u.display_name', 'u.user_name'])
        .where('m.group_id', 'in', groupIds)
        .orderBy('m.created_at')
        .orderBy('m.user_id')
        .execute();
      return rows.map((r) => ({ groupId: r.group_id, userId: r.user_id, display: memberDisplay(r) }));
    },
    async list(accountId: string, query: ListQuery): Promise<{ rows: GroupRow[]; total: number }> {
      const condition = query.filter ? translateFilter(groupFilterTarget(accountId, dialect), query.filter) : sql<boolean>`1 = 1`;
      const base = db.selectFrom('scim_groups').where('scim_groups.account_id', '=', accountId).where(condition);
      const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
      const totalResults = Number(total);
      if (query.count === 0 || query.startIndex > totalResults) return { rows: [], total: totalResults };
      let page = base.selectAll('scim_groups');
      const direction = query.descending ? 'desc' : 'asc';
      if (query.sortBy) page = page.orderBy(orderExpression(dialect, sortOperand(query.sortBy)), sortDirection(query.descending));
      page = page.orderBy('scim_groups.created_at', direction).orderBy('scim_groups.id', direction);
      return { rows: await page.limit(query.count).offset(query.startIndex - 1).execute(), total: totalResults };
    },
  };
}

export type ScimGroupStore = ReturnType<typeof createScimGroupStore>;
