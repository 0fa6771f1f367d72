/**
 * SCIM groups (RFC 7643 §4.2, RFC 7644 §3.3-3.6). displayName is unique per account
 * (case-insensitively, 409 uniqueness); members are users of the same account (groups do not
 * nest). externalId is the directory's and may change (RFC 7643 §3.1); a PUT that leaves it out
 * keeps the stored one, and one sending null or "", or a PATCH removing it, removes it, as for users. displayName, externalId
 * and member ids are identifiers of at most 256 characters (limits.ts). PATCH on members adds
 * or removes only the rows named — `add members`, `remove members[value eq "…"]`, `remove
 * members` with a value list (Okta, Entra) — so a change to a 10,000-member group never reads
 * or rewrites the list.
 *
 * A user's `groups` is part of the user's representation (RFC 7643 §3.1: the version changes
 * when the representation does), so every write that adds or removes members gives exactly those
 * users a new version and lastModified, in the same transaction. Renaming a group changes every
 * member's `groups[].display`, and deleting it every member's `groups`: all members get a new
 * version then, in one statement however large the group. Member users are written before an
 * existing group's row, so concurrent writes of a group and of its members lock rows in one order.
 *
 * Conversely the group's `members` shows each member's id and display, so deleting a member or
 * changing its display gives the group a new version too (see users.ts). The group's row is not
 * locked when a group write reads it (that would come before its members), so its version is
 * counted on in SQL and If-Match is checked again against the version the write replaced.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { isClosedAccountWrite, isUniqueViolation } from '../platform/db/database.ts';
import { sharedTransactions, type GroupCommit } from '../platform/db/group-commit.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/index.ts';
import { coerceResource, coerceValue, isObject, leavesOut, type Json, type JsonObject } from './coerce.ts';
import { invalidCredential, invalidValue, notFound, uniqueness } from './errors.ts';
import { applyPatch, normaliseOperations, parsePatchPath, type PatchOperation } from './patch.ts';
import { COMMON_ATTRIBUTES, CORE_GROUP, GROUP_SCHEMA, PATCH_OP, findAttr } from './schema-catalog.ts';
import type { GroupRow, MemberRef, ScimGroupStore } from './groups-store.ts';
import type { ScimUserStore, ListQuery } from './users-store.ts';
import { checkIfMatch, checkSchemas, etagOf } from './users.ts';
import { checkIdentifierLength } from './limits.ts';

export interface ScimGroupsDeps {
  db: Db;
  store: ScimGroupStore;
  users: ScimUserStore;
  clock: Clock;
  baseUrl: string;
  /** The node's shared commits, which the writes join on SQLite (`sharedTransactions`). */
  groupCommit?: GroupCommit | undefined;
}

const WRITABLE_COMMON = COMMON_ATTRIBUTES.filter((a) => a.name === 'externalId');
const MEMBERS = findAttr(GROUP_SCHEMA.attributes, 'members')!;
type Trx = Transaction<Tables>;

/** Users whose membership a write changed: true for those who end as members, false for those who left. */
type MemberChanges = Map<string, boolean>;

/** One write of a group: its transaction, the group as read, the write's instant, and the members it changed so far. */
interface GroupWrite {
  trx: Trx;
  row: GroupRow;
  at: number;
  changes: MemberChanges;
}

function newWrite(trx: Trx, row: GroupRow, at: number): GroupWrite {
  return { trx, row, at, changes: new Map() };
}

/** Notes users as having joined (`member`) or left; returns whether there were any. */
function record(write: GroupWrite, userIds: string[], member: boolean): boolean {
  for (const id of userIds) write.changes.set(id, member);
  return userIds.length > 0;
}

/** The member ids of a `members` value (array of {value}). */
function memberIds(value: unknown): string[] {
  const items = coerceValue(MEMBERS, value, 'members') as Json[] | null;
  return [...new Set((items ?? []).map((m, i) => {
    if (!isObject(m) || typeof m.value !== 'string' || m.value === '') throw invalidValue(`members[${i}].value is required`);
    checkIdentifierLength(`members[${i}].value`, m.value);
    return m.value;
  }))];
}

export function createScimGroups(deps: ScimGroupsDeps) {
  const { db, store, clock } = deps;
  const transact = sharedTransactions(db, deps.groupCommit);

  function render(row: GroupRow, members: MemberRef[] | null): JsonObject {
    const resource: JsonObject = { schemas: [CORE_GROUP], id: row.id };
    if (row.external_id !== null) resource.externalId = row.external_id;
    resource.displayName = row.display_name;
    if (members) resource.members = members.map((m) => ({ value: m.userId, $ref: `${deps.baseUrl}/Users/${m.userId}`, display: m.display, type: 'User' }));
    resource.meta = {
      resourceType: 'Group',
      created: toRfc3339(row.created_at),
      lastModified: toRfc3339(row.updated_at),
      location: `${deps.baseUrl}/Groups/${row.id}`,
      version: etagOf(row.version),
    };
    return resource;
  }

  /** The name and externalId a write would store; externalId null when the document has none. */
  function checkDoc(doc: JsonObject): { displayName: string; externalId: string | null } {
    if (typeof doc.displayName !== 'string' || doc.displayName.trim() === '') throw invalidValue('displayName is required');
    const displayName = doc.displayName.trim();
    checkIdentifierLength('displayName', displayName);
    if (typeof doc.externalId !== 'string') return { displayName, externalId: null };
    checkIdentifierLength('externalId', doc.externalId);
    return { displayName, externalId: doc.externalId };
  }

  /**
   * The ids of `ids` that name a user of the account, in their order. The others are left out
   * rather than refused: a directory sends membership in batches, and a person deleted out of band
   * (another account's id looks the same) would otherwise fail every batch that names them, on
   * every sync, so that the group's membership, and the roles it carries, never converge.
   */
  async function knownUsers(trx: Trx, accountId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return ids;
    const found = await deps.users.existing(trx, accountId, ids);
    return ids.filter((id) => found.has(id));
  }

  async function writeRow<T>(write: () => Promise<T>, displayName: string): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueness(`a group named ${displayName} already exists in this account`);
      if (isClosedAccountWrite(error)) throw invalidCredential();
      throw error;
    }
  }

  async function locked(trx: Trx, accountId: string, id: string, ifMatch: string | undefined): Promise<GroupRow> {
    const row = await store.findToWrite(trx, accountId, id);
    if (!row) throw notFound('Group', id);
    checkIfMatch(ifMatch, row.version);
    return row;
  }

  /**
   * If-Match again, against the version the write replaced (undefined: the group is gone). A
   * group's row is locked only against deletion when read, since member users are locked before
   * it is updated; a member's deletion or change of display may have given the group a new
   * version in between, and a client that named the version it read gets 412, as it would a
   * moment later.
   */
  function checkReplaced(ifMatch: string | undefined, replaced: number | undefined, id: string): void {
    if (replaced === undefined) throw notFound('Group', id);
    checkIfMatch(ifMatch, replaced);
  }

  /** Stores the group's name and externalId. */
  async function touch(trx: Trx, row: GroupRow, displayName: string, externalId: string | null, at: number, ifMatch: string | undefined): Promise<GroupRow> {
    const next: GroupRow = { ...row, display_name: displayName, display_name_lower: displayName.toLowerCase(), external_id: externalId };
    const stored = await writeRow(() => store.update(trx, next, at), next.display_name);
    checkReplaced(ifMatch, stored === undefined ? undefined : stored.version - 1, row.id);
    return { ...next, ...stored };
  }

  async function addMembers(write: GroupWrite, ids: string[]): Promise<boolean> {
    return record(write, await store.addMembers(write.trx, write.row.account_id, write.row.id, ids, write.at), true);
  }

  async function removeMembers(write: GroupWrite, ids: string[]): Promise<boolean> {
    return record(write, await store.removeMembers(write.trx, write.row.id, ids), false);
  }

  /**
   * Makes `ids` the members: removes the others, adds the missing; members kept are not written.
   * Returns whether the members changed.
   */
  async function setMembers(write: GroupWrite, ids: string[]): Promise<boolean> {
    const keep = new Set(ids);
    const current = (await store.membersOf(write.trx, [write.row.id])).map((m) => m.userId);
    const removed = await removeMembers(write, current.filter((u) => !keep.has(u)));
    const added = await addMembers(write, ids);
    return removed || added;
  }

  /**
   * Gives each user whose `groups` the write changed the next version, once. After a rename every
   * member's `groups[].display` changed: the members are touched in one statement, and beside
   * them only the users who left.
   */
  async function touchMemberUsers(write: GroupWrite, renamed: boolean): Promise<void> {
    const { trx, row, at } = write;
    if (renamed) await deps.users.touchMembersOf(trx, row.account_id, row.id, at);
    const changed = [...write.changes].filter(([, member]) => !renamed || !member).map(([id]) => id);
    await deps.users.touch(trx, row.account_id, changed, at);
  }

  /** Applies the member part of one PATCH operation; returns true when it changed anything. */
  async function patchMembers(write: GroupWrite, operation: PatchOperation, path: string | undefined): Promise<boolean> {
    const { trx, row } = write;
    const target = path ? parsePatchPath(GROUP_SCHEMA, path) : null;
    if (target?.sub) throw invalidValue('member sub-attributes cannot be changed; add or remove the member');
    if (target?.filter) {
      if (operation.op !== 'remove') throw invalidValue('members[…] paths can only be removed; add members by value');
      return removeMembers(write, await store.matchingMembers(trx, row.account_id, row.id, target.filter));
    }
    switch (operation.op) {
      case 'add': {
        const ids = await knownUsers(trx, row.account_id, memberIds(operation.value));
        return addMembers(write, ids);
      }
      case 'remove':
        if (operation.value === undefined || operation.value === null) return record(write, await store.removeAllMembers(trx, row.id), false);
        return removeMembers(write, memberIds(operation.value));
      case 'replace': {
        const ids = await knownUsers(trx, row.account_id, memberIds(operation.value));
        return setMembers(write, ids);
      }
    }
  }

  const namesOf = (row: GroupRow) => ({ displayName: row.display_name, externalId: row.external_id });
  /** Whether a write would store the name and externalId `row` has. */
  const keepsNames = (row: GroupRow, displayName: string, externalId: string | null) => displayName === row.display_name && externalId === row.external_id;
  const isMembersPath = (path: string) => /^(urn:ietf:params:scim:schemas:core:2\.0:group:)?members($|[.[])/i.test(path);

  return {
    render,

    async create(accountId: string, body: JsonObject, by?: AuditBy): Promise<JsonObject> {
      checkSchemas(body, CORE_GROUP);
      const doc = coerceResource(GROUP_SCHEMA, body, WRITABLE_COMMON);
      const { displayName, externalId } = checkDoc(doc);
      const named = doc.members === undefined ? [] : memberIds(doc.members);
      const now = clock.now();
      const row: GroupRow = { id: newId('grp'), account_id: accountId, display_name: displayName, display_name_lower: displayName.toLowerCase(), external_id: externalId, version: 1, created_at: now, updated_at: now };
      return transact(async (trx) => {
        await writeRow(() => store.insert(trx, row), displayName);
        const ids = await knownUsers(trx, accountId, named);
        const write = newWrite(trx, row, now);
        await addMembers(write, ids);
        await touchMemberUsers(write, false);
        const changes = changesOf(null, { displayName, externalId, members: ids });
        await recordAudit(trx, by, { accountId, action: 'scim.group.created', target: { type: 'group', id: row.id }, changes, at: now });
        return render(row, await store.membersOf(trx, [row.id]));
      });
    },

    async get(accountId: string, id: string, withMembers = true): Promise<JsonObject> {
      const row = await store.find(db, accountId, id);
      if (!row) throw notFound('Group', id);
      return render(row, withMembers ? await store.membersOf(db, [id]) : null);
    },

    async replace(accountId: string, id: string, body: JsonObject, ifMatch?: string, by?: AuditBy): Promise<JsonObject> {
      checkSchemas(body, CORE_GROUP);
      const doc = coerceResource(GROUP_SCHEMA, body, WRITABLE_COMMON);
      const { displayName, externalId: sent } = checkDoc(doc);
      // A directory's PUT that does not send externalId means no change; null or "" removes it.
      const keepsExternalId = leavesOut(body, 'externalId');
      const named = doc.members === undefined ? [] : memberIds(doc.members);
      return transact(async (trx) => {
        const row = await locked(trx, accountId, id, ifMatch);
        const externalId = keepsExternalId ? row.external_id : sent;
        const ids = await knownUsers(trx, accountId, named);
        const write = newWrite(trx, row, clock.now());
        // A sync sending what is stored writes nothing: no version, lastModified or audit record.
        if (!(await setMembers(write, ids)) && keepsNames(row, displayName, externalId)) return render(row, await store.membersOf(trx, [id]));
        await touchMemberUsers(write, displayName !== row.display_name);
        const saved = await touch(trx, row, displayName, externalId, write.at, ifMatch);
        const changes = { ...changesOf(namesOf(row), namesOf(saved)), members: { after: ids } };
        await recordAudit(trx, by, { accountId, action: 'scim.group.replaced', target: { type: 'group', id }, changes, at: write.at });
        return render(saved, await store.membersOf(trx, [id]));
      });
    },

    /** Applies a PatchOp; returns the new version's row (members are not read). */
    async patch(accountId: string, id: string, body: JsonObject, ifMatch?: string, by?: AuditBy): Promise<GroupRow> {
      checkSchemas(body, PATCH_OP);
      const operations = normaliseOperations(body.Operations ?? body.operations);
      return transact(async (trx) => {
        const row = await locked(trx, accountId, id, ifMatch);
        const write = newWrite(trx, row, clock.now());
        let doc: JsonObject = { displayName: row.display_name, ...(row.external_id !== null ? { externalId: row.external_id } : {}) };
        let changed = false;
        for (const operation of operations) {
          if (operation.path !== undefined && isMembersPath(operation.path)) {
            changed = (await patchMembers(write, operation, operation.path)) || changed;
            continue;
          }
          if (operation.path === undefined && isObject(operation.value)) {
            // Entra's no-path form may carry members beside displayName.
            const { members, ...rest } = Object.fromEntries(Object.entries(operation.value).map(([k, v]) => [k.toLowerCase() === 'members' ? 'members' : k, v]));
            if (members !== undefined) changed = (await patchMembers(write, { ...operation, value: members }, undefined)) || changed;
            if (Object.keys(rest).length === 0) continue;
            doc = applyPatch(GROUP_SCHEMA, doc, [{ ...operation, value: rest }]);
          } else {
            doc = applyPatch(GROUP_SCHEMA, doc, [operation]);
          }
        }
        const { displayName, externalId } = checkDoc(doc);
        // Members that changed, or a name: else nothing is written (a sync sending what is stored).
        if (!changed && keepsNames(row, displayName, externalId)) return row;
        await touchMemberUsers(write, displayName !== row.display_name);
        const saved = await touch(trx, row, displayName, externalId, write.at, ifMatch);
        const members = operations.filter((o) => o.path !== undefined && isMembersPath(o.path)).map((o) => o.op.toLowerCase());
        const changes = { ...changesOf(namesOf(row), namesOf(saved)), ...(members.length > 0 ? { members: { after: members } } : {}) };
        await recordAudit(trx, by, { accountId, action: 'scim.group.patched', target: { type: 'group', id }, changes, at: write.at });
        return saved;
      });
    },

    async delete(accountId: string, id: string, ifMatch?: string, by?: AuditBy): Promise<void> {
      await transact(async (trx) => {
        const row = await locked(trx, accountId, id, ifMatch);
        await recordAudit(trx, by, { accountId, action: 'scim.group.deleted', target: { type: 'group', id }, changes: changesOf(namesOf(row), null), at: clock.now() });
        // Every member loses the group from its `groups`; the memberships go with the group.
        await deps.users.touchMembersOf(trx, accountId, id, clock.now());
        checkReplaced(ifMatch, await store.delete(trx, accountId, id), id);
      });
    },

    async list(accountId: string, query: ListQuery, withMembers: boolean): Promise<{ resources: JsonObject[]; total: number }> {
      const { rows, total } = await store.list(accountId, query);
      const members = withMembers ? await store.membersOf(db, rows.map((r) => r.id)) : [];
      const byGroup = new Map<string, MemberRef[]>();
      for (const m of members) {
        const list = byGroup.get(m.groupId);
        if (list) list.push(m);
        else byGroup.set(m.groupId, [m]);
      }
      return { resources: rows.map((r) => render(r, withMembers ? (byGroup.get(r.id) ?? []) : null)), total };
    },
  };
}

export type ScimGroups = ReturnType<typeof createScimGroups>;
