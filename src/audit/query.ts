/**
 * Reading the trail: newest first by (occurred_at, id), filtered by actor, action prefix,
 * target and time range, paged with the sealed cursors every collection uses (src/paging/),
 * and streamed oldest first for export.
 *
 * Names are read at read time, from the person, client or SCIM token a record names: a
 * deactivated person keeps theirs; a deleted one has none left to show.
 */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import { isRfc3339DateTime, toRfc3339 } from '../platform/clock.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { PLATFORM_ACCOUNT } from './catalogue.ts';
import type { Paging } from '../paging/page.ts';
import { keysetPage } from '../paging/keyset.ts';
import { queryTimeRange } from '../paging/time-range.ts';
import type { CursorPosition } from '../paging/cursor.ts';
import type { AuditEventRow } from './tables.ts';

export interface AuditFilters {
  actor?: string;
  /** Action prefix, e.g. `scim.user.` or `payout`. */
  action?: string;
  target?: string;
  /** RFC 3339 instants, inclusive `since`, exclusive `until`. */
  since?: string;
  until?: string;
}

export interface AuditEventView {
  id: string;
  object: 'audit_event';
  occurred_at: string;
  account: string;
  action: string;
  actor: { type: string; id: string; display: string | null; client?: { id: string; display: string | null } };
  target: { type: string; id: string };
  request_id: string | null;
  idempotency_key: string | null;
  source: { address: string | null; user_agent: string | null };
  changes: unknown;
  /** Place in the account's chain; null until sealed (within seconds). */
  seq: number | null;
  hash: string | null;
  /** The person this record was about or by was deleted and their details removed. */
  detached: boolean;
}

export const AUDIT_ORDER = 'audit_events:occurred_at.desc,id.desc';
/** Cursors of the admin API's cross-account read are bound to this instead of an account. */
export const ALL_ACCOUNTS = '*';

/** Whether `value` is an instant the `since` and `until` filters take (RFC 3339 date-time). */
export const isInstant = isRfc3339DateTime;

const OPERATOR_NAMES: Record<string, string> = { admin_api: 'Operator (admin API)', cli: 'Operator (command line)' };

/** Names of the people, clients and tokens `rows` mention, by id. */
async function namesOf(db: Db, rows: readonly AuditEventRow[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = (type: string) => [...new Set(rows.filter((r) => r.actor_type === type).map((r) => r.actor_id))];
  const users = ids('user');
  const clients = [...new Set([...ids('client'), ...rows.flatMap((r) => (r.actor_client_id ? [r.actor_client_id] : []))])];
  const tokens = ids('scim_token');
  if (users.length > 0) {
    for (const u of await db.selectFrom('users').select(['id', 'user_name', 'display_name']).where('id', 'in', users).execute()) names.set(u.id, u.display_name ?? u.user_name);
  }
  if (clients.length > 0) {
    for (const c of await db.selectFrom('oauth_clients').select(['id', 'client_name']).where('id', 'in', clients).execute()) names.set(c.id, c.client_name);
  }
  if (tokens.length > 0) {
    for (const t of await db.selectFrom('scim_tokens').select(['id', 'description']).where('id', 'in', tokens).execute()) names.set(t.id, t.description);
  }
  return names;
}

function present(row: AuditEventRow, names: Map<string, string>): AuditEventView {
  const display = row.actor_type === 'admin' ? (OPERATOR_NAMES[row.actor_id] ?? 'Operator') : row.actor_type === 'system' ? row.actor_id : (names.get(row.actor_id) ?? null);
  return {
    id: row.id,
    object: 'audit_event',
    occurred_at: toRfc3339(Number(row.occurred_at)),
    account: row.account_id,
    action: row.action,
    actor: {
      type: row.actor_type,
      id: row.actor_id,
      display,
      ...(row.actor_client_id ? { client: { id: row.actor_client_id, display: names.get(row.actor_client_id) ?? null } } : {}),
    },
    target: { type: row.target_type, id: row.target_id },
    request_id: row.request_id,
    idempotency_key: row.idempotency_key,
    source: { address: row.source_address, user_agent: row.user_agent },
    changes: storedChanges(row.changes),
    seq: row.seq === null ? null : Number(row.seq),
    hash: row.hash,
    detached: row.detached_at !== null,
  };
}

/**
 * A record's changes as stored; null when they are not JSON, which only an edit of the database
 * makes them (verification names that record: its MAC no longer matches), so that one altered
 * record does not make the trail unreadable.
 */
function storedChanges(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Records as the API presents them, with the names of who acted read now. */
export async function presentAuditRecords(db: Db, rows: readonly AuditEventRow[]): Promise<AuditEventView[]> {
  const names = await namesOf(db, rows);
  return rows.map((r) => present(r, names));
}


/**
 * Which records a read takes: the read indexes by actor, target and time across accounts hold
 * sealed records only (migration 0602), so every read runs twice, once over the sealed records
 * through those indexes and once over the unsealed few through theirs (`audit_events_unsealed`),
 * and the two are merged. A record is in exactly one half whenever the read runs.
 */
type Half = 'sealed' | 'unsealed';
const HALVES: readonly Half[] = ['sealed', 'unsealed'];

function filtered(db: Db, accountId: string | undefined, filters: AuditFilters, half: Half) {
  const { since, until } = queryTimeRange(filters);
  let q = db.selectFrom('audit_events').selectAll();
  q = half === 'sealed' ? q.where('seq', 'is not', null) : q.where('seq', 'is', null);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  if (filters.actor) q = q.where('actor_id', '=', filters.actor);
  if (filters.target) q = q.where('target_id', '=', filters.target);
  if (filters.action) q = q.where(sql<SqlBool>`substr(action, 1, ${filters.action.length}) = ${filters.action}`);
  if (since !== undefined) q = q.where('occurred_at', '>=', since);
  if (until !== undefined) q = q.where('occurred_at', '<', until);
  return q;
}

/**
 * The query of up to `take` of `accountId`'s records (every account's when undefined) after
 * `after` in (occurred_at, id) order: `take` from each half, each read in order from its
 * index, then merged and cut to `take`.
 */
export function auditPageQuery(
  db: Db,
  page: { accountId: string | undefined; filters: AuditFilters; direction: 'asc' | 'desc'; after: CursorPosition | undefined; take: number },
) {
  const { direction, take } = page;
  const [sealed, unsealed] = HALVES.map((half) =>
    db.selectFrom(keysetPage(filtered(db, page.accountId, page.filters, half), { sortColumn: 'occurred_at', idColumn: 'id', direction }, page.after, take).as(half)).selectAll(),
  );
  return sealed!.unionAll(unsealed!).orderBy('occurred_at', direction).orderBy('id', direction).limit(take);
}

export function createAuditQueries(deps: { db: Db; paging: Paging }) {
  const { db, paging } = deps;

  /**
   * An account named that neither exists nor left anything in the trail is refused (404
   * account_not_found), as verification refuses it: an empty answer would pass a mistyped id
   * as an account with no history. A closed account keeps its trail, and is known by it; the
   * operator's own trail (`platform`: key rotations, imports) is always known, empty or not.
   */
  async function requireKnown(accountId: string): Promise<void> {
    if (accountId === PLATFORM_ACCOUNT) return;
    const exists = await db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
    if (exists) return;
    const recorded = await db.selectFrom('audit_events').select('id').where('account_id', '=', accountId).limit(1).executeTakeFirst();
    if (!recorded) throw problem('account_not_found', { detail: `No account ${accountId}, and no audit records of one` });
  }

  return {
    /** A page of `accountId`'s records (every account's when undefined: the admin API). */
    async list(request: { accountId: string | undefined; limit: number | undefined; after: string | undefined; filters: AuditFilters }) {
      const { accountId, filters } = request;
      const read = await paging.read(
        { accountId: accountId ?? ALL_ACCOUNTS, limit: request.limit, after: request.after, filters: { ...filters } },
        {
          orderName: AUDIT_ORDER,
          fetch: (after, take) => auditPageQuery(db, { accountId, filters, direction: 'desc', after, take }).execute(),
          position: (row) => ({ key: Number(row.occurred_at), id: row.id }),
        },
      );
      if (read.rows.length === 0 && accountId !== undefined && request.after === undefined) await requireKnown(accountId);
      return { data: await presentAuditRecords(db, read.rows), next_cursor: read.nextCursor };
    },

    requireKnown,

    /**
     * Every record of the range, oldest first, a batch at a time (export). `onBatch` hears how
     * many have been read so far.
     */
    async *stream(request: { accountId: string | undefined; filters: AuditFilters; batchSize?: number }): AsyncGenerator<AuditEventView> {
      const batchSize = request.batchSize ?? 1000;
      let after: { key: number; id: string } | undefined;
      for (;;) {
        const rows = await auditPageQuery(db, { accountId: request.accountId, filters: request.filters, direction: 'asc', after, take: batchSize }).execute();
        for (const view of await presentAuditRecords(db, rows)) yield view;
        if (rows.length < batchSize) return;
        const last = rows[rows.length - 1]!;
        after = { key: Number(last.occurred_at), id: last.id };
      }
    },

    /** How many records the range holds (export's progress). */
    async count(request: { accountId: string | undefined; filters: AuditFilters }): Promise<number> {
      // Both halves in one statement, so a record sealed meanwhile is counted once.
      const [sealed, unsealed] = HALVES.map((half) =>
        filtered(db, request.accountId, request.filters, half)
          .clearSelect()
          .select((eb) => eb.fn.countAll<number>().as('n')),
      );
      const rows = await sealed!.unionAll(unsealed!).execute();
      return rows.reduce((total, row) => total + Number(row.n), 0);
    },
  };
}

export type AuditQueries = ReturnType<typeof createAuditQueries>;
