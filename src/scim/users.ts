/**
 * SCIM users (RFC 7643 §4.1, RFC 7644 §3.3-3.6): the rules of creating, replacing, patching,
 * deactivating and deleting the people of an account.
 *
 * - userName is unique per account, case-insensitively (409 uniqueness).
 * - externalId is the directory's and may change (RFC 7643 §3.1, readWrite; Entra ID renames it
 *   with the person); it is not unique. A PUT that leaves it out keeps the stored one, as one
 *   without `active` keeps the person's state; a PUT sending null or "", or a PATCH removing it,
 *   removes it.
 * - password is write-only and never returned: it sets the argon2id hash the login page checks,
 *   under the same password policy as the admin API (400 invalidValue), however it is written.
 * - Values are bounded (limits.ts): userName and externalId 256 characters, other strings 1024.
 * - active=false and DELETE end the person's access in the same transaction (revokeUserAccess);
 *   a deleted user's past records keep no attribution to them.
 * - meta.version is the row's version; If-Match that does not match → 412. `groups` is part of
 *   the representation, so joining or leaving a group, or a rename of one of the user's groups,
 *   gives the user a new version too (see groups.ts).
 * - Conversely a group shows its members' ids and displays: deleting a user, or changing what it
 *   shows as `members[].display` (displayName, else userName), gives each of its groups a new
 *   version and lastModified in the same transaction, in one UPDATE. Other edits of the user
 *   leave its groups alone. The user's row is locked before its groups', the order in which
 *   group writes lock member users and then their group.
 */
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { isClosedAccountWrite, isUniqueViolation } from '../platform/db/database.ts';
import { sharedTransactions, type GroupCommit } from '../platform/db/group-commit.ts';
import type { RevokeUserAccess } from '../oauth/user-access.ts';
import type { UserRow } from '../users/tables.ts';
import { hashPassword, passwordHashFor, passwordPolicyViolation } from '../users/passwords.ts';
import { displayNameOf, type PersonChange } from '../users/service.ts';
import { coerceResource, isObject, leavesOut, type JsonObject } from './coerce.ts';
import { invalidCredential, invalidSyntax, invalidValue, notFound, preconditionFailed, uniqueness } from './errors.ts';
import { applyPatch, normaliseOperations } from './patch.ts';
import { COMMON_ATTRIBUTES, CORE_USER, ENTERPRISE_USER, PATCH_OP, USER_SCHEMA } from './schema-catalog.ts';
import { searchValues, splitUserDocument, userDocument } from './user-document.ts';
import type { ListQuery, ScimUserStore, UserGroupRef } from './users-store.ts';
import { memberDisplay, type ScimGroupStore } from './groups-store.ts';
import { checkLengths } from './limits.ts';
import { changesOf, detachPerson, recordAudit as recordAuditRecord, type AuditBy, type RecordAudit } from '../audit/index.ts';

export interface ScimUsersDeps {
  db: Db;
  store: ScimUserStore;
  /** For the versions of the groups a user's writes change. */
  groups: ScimGroupStore;
  clock: Clock;
  revokeUserAccess: RevokeUserAccess;
  /** Base URL of the SCIM endpoint, e.g. https://gatehouse.example/scim/v2 */
  baseUrl: string;
  /** How the writes are recorded in the audit trail (record.ts); recordAudit unless a benchmark says. */
  recordAudit?: RecordAudit;
  /** The node's shared commits, which the writes join on SQLite (`sharedTransactions`). */
  groupCommit?: GroupCommit | undefined;
}

const WRITABLE_COMMON = COMMON_ATTRIBUTES.filter((a) => a.name === 'externalId');
/** Attributes kept in indexes as they are, bounded as identifiers. */
const IDENTIFIERS = ['userName', 'externalId'];

export function etagOf(version: number): string {
  return `W/"${version}"`;
}

/** RFC 7232 If-Match against the current version; `*` matches any existing resource. */
export function checkIfMatch(ifMatch: string | undefined, version: number): void {
  if (ifMatch === undefined) return;
  const tags = ifMatch.split(',').map((t) => t.trim());
  const current = etagOf(version);
  if (tags.includes('*')) return;
  if (!tags.some((t) => t === current || t === current.slice(2))) throw preconditionFailed();
}

/**
 * RFC 7232 §3.2 If-None-Match against the current entity tag: true when the header lists it
 * (weak comparison: `W/"3"` and `"3"` are the same tag) or is `*`.
 */
export function noneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t.trim()) === opaque(etag));
}

export function checkSchemas(body: JsonObject, expected: string): void {
  if (body.schemas === undefined) return;
  if (!Array.isArray(body.schemas) || !body.schemas.every((s) => typeof s === 'string')) throw invalidSyntax('schemas must be an array of URNs');
  if (!body.schemas.some((s) => (s as string).toLowerCase() === expected.toLowerCase())) throw invalidSyntax(`schemas must include ${expected}`);
}

function amended(doc: JsonObject, change: PersonChange): JsonObject {
  const next: JsonObject = { ...doc };
  if (change.userName !== undefined) next.userName = change.userName;
  if (change.name) {
    const before = isObject(doc.name) ? doc.name : {};
    const name: JsonObject = { ...before };
    for (const member of ['givenName', 'familyName'] as const) {
      const value = change.name[member];
      if (value === undefined) continue;
      if (value === null || value.trim() === '') delete name[member];
      else name[member] = value.trim();
    }
    const derived = (n: JsonObject) => displayNameOf(n.givenName as string | undefined, n.familyName as string | undefined);
    // name.formatted and displayName follow the parts when they were made from them ("given
    // family"; absent for no name): a directory's own wording stays.
    if (typeof name.formatted === 'string' && name.formatted === derived(before)) {
      const formatted = derived(name);
      if (formatted === null) delete name.formatted;
      else name.formatted = formatted;
    }
    if (Object.keys(name).length > 0) next.name = name;
    else delete next.name;
    if ((doc.displayName ?? null) === derived(before)) {
      const display = derived(name);
      if (display === null) delete next.displayName;
      else next.displayName = display;
    }
  }
  return next;
}

export function createScimUsers(deps: ScimUsersDeps) {
  const { db, store, clock } = deps;
  const recordAudit = deps.recordAudit ?? recordAuditRecord;
  const transact = sharedTransactions(db, deps.groupCommit);

  function render(row: UserRow, groups: UserGroupRef[]): JsonObject {
    const doc = userDocument(row);
    const schemas = [CORE_USER, ...(isObject(doc[ENTERPRISE_USER]) ? [ENTERPRISE_USER] : [])];
    const resource: JsonObject = { schemas, id: row.id, ...doc };
    resource.groups = groups.map((g) => ({ value: g.groupId, $ref: `${deps.baseUrl}/Groups/${g.groupId}`, display: g.displayName, type: 'direct' }));
    resource.meta = {
      resourceType: 'User',
      created: toRfc3339(row.created_at),
      lastModified: toRfc3339(row.updated_at),
      location: `${deps.baseUrl}/Users/${row.id}`,
      version: etagOf(row.version),
    };
    return resource;
  }

  /**
   * Checks the document a write would store (POST, PUT, and PATCH after its operations are
   * applied, whatever their form); returns it with the password, checked against the policy, taken out.
   */
  function prepare(doc: JsonObject): { doc: JsonObject; password: string | undefined } {
    if (typeof doc.userName !== 'string' || doc.userName.trim() === '') throw invalidValue('userName is required');
    const out: JsonObject = { ...doc, userName: doc.userName.trim() };
    checkLengths(out, IDENTIFIERS);
    const password = typeof out.password === 'string' ? out.password : undefined;
    if (password !== undefined) {
      const violation = passwordPolicyViolation(password);
      if (violation !== undefined) throw invalidValue(violation);
    }
    delete out.password;
    return { doc: out, password };
  }

  async function readOne(trx: Db | Transaction<Tables>, accountId: string, id: string): Promise<JsonObject> {
    const row = await store.find(trx, accountId, id);
    if (!row) throw notFound('User', id);
    return render(row, await store.groupsOf(trx, accountId, id));
  }

  /**
   * Stores `next` over `row` (PUT and PATCH), with the effects of a deactivation. A document
   * without `active` (a PUT that leaves it out) keeps the person's state: a replace by a directory
   * that does not send it must not turn a deactivated person back on. A write that changes nothing
   * (a directory's periodic sync sending what is stored) writes nothing: no new version, no record
   * of a change that is none.
   */
  async function save(
    trx: Transaction<Tables>,
    row: UserRow,
    next: JsonObject,
    passwordHash: string | undefined,
    audit: { by: AuditBy | undefined; action: 'scim.user.replaced' | 'scim.user.patched' | 'user.updated' },
  ): Promise<UserRow> {
    if (next.active === undefined) next.active = row.active === 1;
    const { columns, attributes } = splitUserDocument(next);
    const now = clock.now();
    const proposed = { ...row, ...columns, attributes: JSON.stringify(attributes) };
    const changes = { ...changesOf(userDocument(row), userDocument(proposed)), ...(passwordHash ? changesOf(null, { password: true }) : {}) };
    if (Object.keys(changes).length === 0) return row;
    const updated: UserRow = {
      ...row,
      ...columns,
      password_hash: passwordHash ?? row.password_hash,
      attributes: JSON.stringify(attributes),
      version: row.version + 1,
      updated_at: Math.max(now, row.updated_at),
    };
    const record = recordAudit.row(audit.by, {
      accountId: row.account_id,
      action: row.active === 1 && updated.active === 0 ? 'scim.user.deactivated' : audit.action,
      target: { type: 'user', id: row.id },
      changes,
      at: now,
    });
    try {
      // The record goes with the row's UPDATE (users-store.ts): no round trip of its own.
      await store.update(trx, updated, searchValues(row.account_id, row.id, attributes), record);
    } catch (error) {
      if (isUniqueViolation(error)) throw uniqueness(`userName ${columns.user_name} is already taken in this account`);
      throw error;
    }
    if (row.active === 1 && updated.active === 0) await deps.revokeUserAccess(trx, row.account_id, row.id, now, 'deactivated');
    if (memberDisplay(updated) !== memberDisplay(row)) await deps.groups.touchGroupsOf(trx, row.account_id, row.id, now);
    return updated;
  }

  async function locked(trx: Transaction<Tables>, accountId: string, id: string, ifMatch: string | undefined): Promise<UserRow> {
    const row = await store.findForWrite(trx, accountId, id);
    if (!row) throw notFound('User', id);
    checkIfMatch(ifMatch, row.version);
    return row;
  }

  return {
    render,

    async create(accountId: string, body: JsonObject, by?: AuditBy): Promise<JsonObject> {
      checkSchemas(body, CORE_USER);
      const { doc, password } = prepare(coerceResource(USER_SCHEMA, body, WRITABLE_COMMON));
      const passwordHash = password === undefined ? undefined : await hashPassword(password);
      const { columns, attributes } = splitUserDocument(doc);
      const now = clock.now();
      const row: UserRow = {
        id: newTimeOrderedId('usr', now),
        account_id: accountId,
        ...columns,
        password_hash: passwordHash ?? null,
        attributes: JSON.stringify(attributes),
        version: 1,
        created_at: now,
        updated_at: now,
      };
      try {
        const changes = changesOf(null, { ...doc, ...(passwordHash ? { password: true } : {}) });
        const record = recordAudit.row(by, { accountId, action: 'scim.user.created', target: { type: 'user', id: row.id }, changes, at: now });
        await store.create(row, searchValues(accountId, row.id, attributes), record);
      } catch (error) {
        if (isUniqueViolation(error)) throw uniqueness(`userName ${columns.user_name} is already taken in this account`);
        if (isClosedAccountWrite(error)) throw invalidCredential();
        throw error;
      }
      return render(row, []);
    },

    get: (accountId: string, id: string) => readOne(db, accountId, id),

    async replace(accountId: string, id: string, body: JsonObject, ifMatch?: string, by?: AuditBy): Promise<JsonObject> {
      checkSchemas(body, CORE_USER);
      const { doc, password } = prepare(coerceResource(USER_SCHEMA, body, WRITABLE_COMMON));
      // A directory's PUT that does not send externalId means no change; null or "" removes it.
      const keepsExternalId = leavesOut(body, 'externalId');
      // The password is compared (and hashed) before the transaction, against the hash stored now,
      // so that no lock is held for it; again inside only if that hash changed meanwhile.
      const compared = password === undefined ? undefined : await store.find(db, accountId, id);
      const early = await passwordHashFor(password, compared?.password_hash ?? null);
      return transact(async (trx) => {
        const row = await locked(trx, accountId, id, ifMatch);
        // Any write since the comparison (a new password among them) moved the version.
        const passwordHash = password !== undefined && row.version !== compared?.version ? await passwordHashFor(password, row.password_hash) : early;
        const next = keepsExternalId && row.external_id !== null ? { ...doc, externalId: row.external_id } : doc;
        const saved = await save(trx, row, next, passwordHash, { by, action: 'scim.user.replaced' });
        return render(saved, await store.groupsOf(trx, accountId, id));
      });
    },

    async patch(accountId: string, id: string, body: JsonObject, ifMatch?: string, by?: AuditBy): Promise<JsonObject> {
      checkSchemas(body, PATCH_OP);
      const operations = normaliseOperations(body.Operations ?? body.operations);
      return transact(async (trx) => {
        const row = await locked(trx, accountId, id, ifMatch);
        const { doc, password } = prepare(applyPatch(USER_SCHEMA, userDocument(row), operations));
        const passwordHash = await passwordHashFor(password, row.password_hash);
        const saved = await save(trx, row, doc, passwordHash, { by, action: 'scim.user.patched' });
        return render(saved, await store.groupsOf(trx, accountId, id));
      });
    },

    /**
     * The operator's change of a person's userName or name (admin API), made as a directory's
     * PATCH is: the same checks, version, search rows and group member names, recorded as
     * `user.updated`. A display name that was made from the name follows it; one a directory
     * set stays.
     */
    async amend(accountId: string, id: string, change: PersonChange, by?: AuditBy): Promise<UserRow> {
      return transact(async (trx) => {
        const row = await locked(trx, accountId, id, undefined);
        const { doc } = prepare(amended(userDocument(row), change));
        return save(trx, row, doc, undefined, { by, action: 'user.updated' });
      });
    },

    /** `action` names who deleted: the directory (SCIM) or the operator (admin API); both detach alike. */
    async delete(accountId: string, id: string, ifMatch?: string, by?: AuditBy, action: 'scim.user.deleted' | 'user.deleted' = 'scim.user.deleted'): Promise<void> {
      await transact(async (trx) => {
        await locked(trx, accountId, id, ifMatch);
        const now = clock.now();
        // What the trail recorded about the person goes with them (audit/detach.ts); the
        // deletion's own record, written after, keeps its target.
        await detachPerson(trx, accountId, id, now);
        await deps.revokeUserAccess(trx, accountId, id, now, 'deleted');
        // Its groups lose it from `members`.
        await deps.groups.leaveAllGroups(trx, accountId, id, now);
        // The record goes with the row's DELETE (users-store.ts): no round trip of its own.
        await store.delete(trx, accountId, id, recordAudit.row(by, { accountId, action, target: { type: 'user', id }, at: now }));
      });
    },

    async list(accountId: string, query: ListQuery): Promise<{ resources: JsonObject[]; total: number }> {
      const { users, total } = await store.list(accountId, query);
      return { resources: users.map((u) => render(u.row, u.groups)), total };
    },
  };
}

export type ScimUsers = ReturnType<typeof createScimUsers>;
