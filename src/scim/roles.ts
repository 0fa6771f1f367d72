/**
 * Roles from group membership: an account maps directory groups (by displayName,
 * case-insensitively, or by externalId, exactly) to roles; a role names the scopes its
 * holders may consent to. `userScopeBound` is what OAuth asks when it builds a consent page
 * or issues/refreshes a user's token, so a membership change takes effect at the next token.
 * An account without any mapping answers null: OAuth then gives people no privileged scope.
 */
import type { Paging } from '../paging/page.ts';
import { keysetPage, type KeysetColumns } from '../paging/keyset.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/record.ts';
import { sql } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { isUniqueViolation } from '../platform/db/database.ts';
import { dialectOf } from '../platform/db/dialect.ts';

export interface GroupSelector {
  displayName?: string;
  externalId?: string;
}

export interface RoleInput {
  name: string;
  scopes: string[];
  groups: GroupSelector[];
}

export interface RoleView {
  id: string;
  object: 'role';
  name: string;
  scopes: string[];
  groups: GroupSelector[];
  created_at: string;
  updated_at: string;
}

export type UserScopeBound = (accountId: string, userId: string) => Promise<ReadonlySet<string> | null>;

export function createUserScopeBound(deps: { db: Db }): UserScopeBound {
  const { db } = deps;
  return async (accountId, userId) => {
    const any = await db.selectFrom('role_groups').select('role_id').where('account_id', '=', accountId).limit(1).executeTakeFirst();
    if (!any) return null;
    const rows = await db
      .selectFrom('roles as r')
      .select('r.scopes')
      .where('r.account_id', '=', accountId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('role_groups as rg')
            .innerJoin('scim_groups as g', (join) =>
              join
                .onRef('g.account_id', '=', 'rg.account_id')
                .on(sql<boolean>`((rg.match = 'displayName' and g.display_name_lower = rg.value) or (rg.match = 'externalId' and g.external_id = rg.value))`),
            )
            .innerJoin('scim_group_members as m', 'm.group_id', 'g.id')
            .select('rg.role_id')
            .whereRef('rg.role_id', '=', 'r.id')
            .where('m.user_id', '=', userId),
        ),
      )
      .execute();
    return new Set(rows.flatMap((r) => r.scopes.split(' ').filter(Boolean)));
  };
}

export class RoleNameTaken extends Error {}

/** Roles are listed by name, then id. */
const BY_NAME: KeysetColumns = { sortColumn: 'name', idColumn: 'id', direction: 'asc' };

/** A role's groups as the API presents them, from its stored selectors. */
function groupsOf(rows: ReadonlyArray<{ match: string; value: string }>): GroupSelector[] {
  return rows.map((g) => (g.match === 'displayName' ? { displayName: g.value } : { externalId: g.value }));
}

/** The same in one order whatever the database's collation, so that a record compares like with like. */
function groupsInCodePointOrder(rows: ReadonlyArray<{ match: string; value: string }>): GroupSelector[] {
  const key = (g: { match: string; value: string }) => `${g.match}\u0000${g.value}`;
  return groupsOf([...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)));
}

export function createRoles(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function view(id: string): Promise<RoleView | undefined> {
    const role = await db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
    if (!role) return undefined;
    const groups = await db.selectFrom('role_groups').select(['match', 'value']).where('role_id', '=', id).orderBy('match').orderBy('value').execute();
    return {
      id: role.id,
      object: 'role',
      name: role.name,
      scopes: role.scopes.split(' ').filter(Boolean),
      groups: groupsOf(groups),
      created_at: new Date(role.created_at).toISOString(),
      updated_at: new Date(role.updated_at).toISOString(),
    };
  }

  const selectorRows = (roleId: string, accountId: string, groups: GroupSelector[]) =>
    groups.map((g) =>
      g.displayName !== undefined
        ? { role_id: roleId, account_id: accountId, match: 'displayName', value: g.displayName.toLowerCase() }
        : { role_id: roleId, account_id: accountId, match: 'externalId', value: g.externalId! },
    );

  /**
   * Creates the role, or replaces the one stored (false when there is none). A replace reads the
   * role locked in its transaction: a deletion that commits meanwhile is waited for and seen,
   * never met by the selectors' foreign key, and the record's `before` is what was replaced.
   */
  async function write(accountId: string, roleId: string, input: RoleInput, create: boolean, by: AuditBy | undefined): Promise<boolean> {
    const now = clock.now();
    try {
      return await db.transaction().execute(async (trx) => {
        const scopes = [...new Set(input.scopes)].join(' ');
        const rows = selectorRows(roleId, accountId, input.groups);
        let before: Record<string, unknown> | null = null;
        if (create) await trx.insertInto('roles').values({ id: roleId, account_id: accountId, name: input.name, scopes, created_at: now, updated_at: now }).execute();
        else {
          const stored = await dialectOf(trx)
            .lockForWrite(trx.selectFrom('roles').select(['name', 'scopes']).where('account_id', '=', accountId).where('id', '=', roleId))
            .executeTakeFirst();
          if (!stored) return false;
          const groups = await trx.selectFrom('role_groups').select(['match', 'value']).where('role_id', '=', roleId).execute();
          before = { name: stored.name, scopes: stored.scopes, groups: groupsInCodePointOrder(groups) };
          await trx.updateTable('roles').set({ name: input.name, scopes, updated_at: now }).where('id', '=', roleId).execute();
          await trx.deleteFrom('role_groups').where('role_id', '=', roleId).execute();
        }
        if (rows.length > 0) await trx.insertInto('role_groups').values(rows).execute();
        const changes = changesOf(before, { name: input.name, scopes, groups: groupsInCodePointOrder(rows) });
        await recordAudit(trx, by, { accountId, action: create ? 'role.created' : 'role.updated', target: { type: 'role', id: roleId }, changes, at: now });
        return true;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new RoleNameTaken(input.name);
      throw error;
    }
  }

  return {
    async create(accountId: string, input: RoleInput, by?: AuditBy): Promise<RoleView> {
      const id = newId('role');
      await write(accountId, id, input, true, by);
      return (await view(id))!;
    },
    async replace(accountId: string, id: string, input: RoleInput, by?: AuditBy): Promise<RoleView | undefined> {
      return (await write(accountId, id, input, false, by)) ? view(id) : undefined;
    },
    async get(accountId: string, id: string): Promise<RoleView | undefined> {
      const found = await db.selectFrom('roles').select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
      return found ? view(found.id) : undefined;
    },
    /** A page of the account's roles by name (names are unique in an account), with sealed cursors. */
    async list(paging: Paging, accountId: string, request: { limit?: number; after?: string }) {
      const page = await paging.read(
        { accountId, limit: request.limit, after: request.after },
        {
          orderName: 'roles:name.asc,id.asc',
          fetch: (after, take) => keysetPage(db.selectFrom('roles').select(['id', 'name']).where('account_id', '=', accountId), BY_NAME, after, take).execute(),
          position: (row) => ({ key: row.name, id: row.id }),
        },
      );
      const data = (await Promise.all(page.rows.map((r) => view(r.id)))).filter((r): r is RoleView => r !== undefined);
      return { data, next_cursor: page.nextCursor };
    },
    async delete(accountId: string, id: string, by?: AuditBy): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('roles').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
        if (result.numDeletedRows === 0n) return false;
        await recordAudit(trx, by, { accountId, action: 'role.deleted', target: { type: 'role', id }, at: clock.now() });
        return true;
      });
    },
  };
}

export type Roles = ReturnType<typeof createRoles>;
