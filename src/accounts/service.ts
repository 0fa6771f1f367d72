/**
 * Rules for accounts: create, read, list (cursor paging), update (name and sign-in branding) and
 * close (closing.ts). No HTTP here.
 *
 * The sign-in pages read an account's branding through `branding`, which keeps what it read for
 * BRANDING_CACHE_MS: a page is shown on every sign-in, the branding changes rarely, and this
 * node forgets it at once when it changes here (other nodes within BRANDING_CACHE_MS). The
 * token endpoint and the redirects of /authorize never read it.
 */
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import type { Paging } from '../paging/page.ts';
import type { AccountState, AccountStore } from './store.ts';
import { ACCOUNTS_ORDER } from './store.ts';
import type { AccountRow } from './tables.ts';
import { changesOf, recordAudit, type AuditBy } from '../audit/index.ts';
import { logoViolation, type Branding } from './branding.ts';
import { closeAccount } from './closing.ts';

const BRANDING_CACHE_MS = 5000;
const BRANDING_CACHE_MAX = 1000;
/** The paging scope of the account list, which belongs to no account. */
const ALL_ACCOUNTS = '*';

export interface Account {
  id: string;
  object: 'account';
  name: string;
  brand_color: string | null;
  logo: string | null;
  created_at: string;
  updated_at: string | null;
  /** When the account was closed; null while it is open. */
  closed_at: string | null;
}

export interface AccountPatch {
  name?: string;
  brand_color?: string | null;
  logo?: string | null;
}

export function presentAccount(row: AccountRow): Account {
  return {
    id: row.id,
    object: 'account',
    name: row.name,
    brand_color: row.brand_color ?? null,
    logo: row.logo ?? null,
    created_at: toRfc3339(row.created_at),
    updated_at: row.updated_at === null || row.updated_at === undefined ? null : toRfc3339(Number(row.updated_at)),
    closed_at: row.deleted_at === null || row.deleted_at === undefined ? null : toRfc3339(Number(row.deleted_at)),
  };
}

/** What the audit trail keeps of a logo: its type and size, not its bytes. */
function logoSummary(logo: string | null): string | null {
  if (logo === null) return null;
  const type = logo.slice(5, logo.indexOf(';'));
  return `${type}, ${Buffer.byteLength(logo.slice(logo.indexOf(',') + 1), 'base64')} bytes`;
}

export function createAccounts(deps: { store: AccountStore; clock: Clock }) {
  const { store, clock } = deps;
  const brandingCache = new Map<string, { branding: Branding | undefined; until: number }>();

  async function requireAccount(id: string): Promise<AccountRow> {
    const row = await store.find(id);
    if (!row) throw problem('account_not_found', { detail: `No account ${id}` });
    return row;
  }

  return {
    async create(input: { name: string }, by?: AuditBy): Promise<Account> {
      const row: AccountRow = { id: newId('acct'), name: input.name.trim(), created_at: clock.now(), brand_color: null, logo: null, updated_at: null, deleted_at: null };
      await store.insert(row, (trx) =>
        recordAudit(trx, by, { accountId: row.id, action: 'account.created', target: { type: 'account', id: row.id }, changes: changesOf(null, { name: row.name }), at: row.created_at }),
      );
      return presentAccount(row);
    },
    /**
     * The account, open or closed: a closed one is shown as its tombstone (`closed_at` set), as a
     * deleted object is still retrieved on Stripe, so an operator can tell closed from mistyped.
     * Everything else about a closed account answers account_not_found (`require`).
     */
    async get(id: string): Promise<Account> {
      const row = await store.findEvenClosed(id);
      if (!row) throw problem('account_not_found', { detail: `No account ${id}` });
      return presentAccount(row);
    },
    /** Throws account_not_found unless the account exists and is open. */
    require: requireAccount,

    /** The open accounts (or the closed ones), newest first, a page at a time (sealed cursors, paging/page.ts). */
    async list(paging: Paging, request: { limit?: number; after?: string; state?: AccountState }) {
      const state = request.state ?? 'open';
      const page = await paging.read(
        { accountId: ALL_ACCOUNTS, limit: request.limit, after: request.after, filters: { state } },
        { orderName: ACCOUNTS_ORDER.name, fetch: (after, take) => store.list(state, after, take), position: (row) => ({ key: Number(row.created_at), id: row.id }) },
      );
      return { data: page.rows.map(presentAccount), next_cursor: page.nextCursor };
    },

    /** Changes the fields given; `null` removes the colour or the logo. */
    async update(id: string, patch: AccountPatch, by?: AuditBy): Promise<Account> {
      if (patch.logo !== undefined && patch.logo !== null) {
        const violation = logoViolation(patch.logo);
        if (violation) throw problem('invalid_branding', { detail: violation });
      }
      const before = await requireAccount(id);
      const now = clock.now();
      const values = {
        ...(patch.name === undefined ? {} : { name: patch.name.trim() }),
        ...(patch.brand_color === undefined ? {} : { brand_color: patch.brand_color === null ? null : patch.brand_color.toLowerCase() }),
        ...(patch.logo === undefined ? {} : { logo: patch.logo }),
        updated_at: now,
      };
      const after = await store.db.transaction().execute(async (trx) => {
        // Closed meanwhile: nothing changed, and the closing's record stays the account's last.
        const after = await trx.updateTable('accounts').set(values).where('id', '=', id).where('deleted_at', 'is', null).returningAll().executeTakeFirst();
        if (!after) throw problem('account_not_found');
        const shown = (row: AccountRow) => ({ name: row.name, brand_color: row.brand_color, logo: logoSummary(row.logo) });
        const changes = Object.fromEntries(Object.entries(changesOf(shown(before), shown(after))).filter(([, c]) => c.before !== c.after));
        await recordAudit(trx, by, { accountId: id, action: 'account.updated', target: { type: 'account', id }, changes, at: now });
        return after;
      });
      brandingCache.delete(id);
      return presentAccount(after);
    },

    /** Closes the account (closing.ts): refused while it holds money or pending payouts. */
    async close(id: string, by?: AuditBy): Promise<void> {
      await closeAccount(store.db, { accountId: id, now: clock.now(), by });
      brandingCache.delete(id);
    },

    /** What the sign-in pages show of the account (undefined for an unknown or closed one). */
    async branding(id: string): Promise<Branding | undefined> {
      const now = clock.now();
      const hit = brandingCache.get(id);
      if (hit && hit.until > now) return hit.branding;
      const row = await store.find(id);
      const branding = row && { name: row.name, color: row.brand_color, logo: row.logo };
      if (brandingCache.size >= BRANDING_CACHE_MAX) brandingCache.delete(brandingCache.keys().next().value!);
      brandingCache.set(id, { branding, until: now + BRANDING_CACHE_MS });
      return branding;
    },
    store,
  };
}

export type Accounts = ReturnType<typeof createAccounts>;
