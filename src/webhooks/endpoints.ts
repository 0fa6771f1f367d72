/**
 * Webhook endpoints of an account: register, read, update, enable/disable, delete, rotate.
 * Every query is scoped by account: another account's endpoint is indistinguishable from a
 * missing one. The secret is generated (`whsec_…`), returned once, and kept sealed with the
 * endpoint id as associated data, so a sealed secret moved to another row does not open.
 * Rotation keeps the previous secret signing for an overlap window. The list of an account's
 * endpoints is read a page at a time in collections.ts.
 */
import { holdAccountOpen } from '../accounts/store.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import { invalidToken } from '../platform/auth.ts';
import { changesOf, recordAudit, REDACTED, type AuditBy, type Changes } from '../audit/record.ts';
import type { Transaction } from 'kysely';
import type { Db } from '../platform/db/database.ts';
import type { Tables } from '../platform/db/tables.ts';
import type { Clock } from '../platform/clock.ts';
import { toRfc3339 } from '../platform/clock.ts';
import { newId } from '../platform/ids.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { newWebhookSecret, type Sealer } from './secrets.ts';
import { RefusedTarget, type TargetPolicy } from './target-policy.ts';
import { disableEndpoint } from './lifecycle.ts';
import type { EndpointRow } from './tables.ts';
import { checkEndpointHeaders, openHeaders, presentHeaders, sealHeaders, type EndpointHeaders } from './endpoint-headers.ts';

type Trx = Transaction<Tables>;

export interface EndpointInput {
  url: string;
  event_types: string[];
  description?: string | null;
  /** Added to every delivery; on update, the whole set is replaced ({} removes them all). */
  headers?: EndpointHeaders;
}

export interface EndpointView {
  id: string;
  object: 'webhook_endpoint';
  url: string;
  description: string | null;
  event_types: string[];
  headers: EndpointHeaders;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  secret?: string;
}

/** `headers` as opened from the row (see endpoint-headers.ts); credential-like values are withheld here. */
function presentEndpoint(row: EndpointRow, now: number, headers: EndpointHeaders, secret?: string): EndpointView {
  const overlap = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now ? row.previous_secret_expires_at : null;
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    description: row.description,
    event_types: JSON.parse(row.event_types) as string[],
    headers: presentHeaders(headers),
    status: row.enabled === 1 ? 'enabled' : 'disabled',
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: overlap === null ? null : toRfc3339(overlap),
    created_at: toRfc3339(row.created_at),
    updated_at: toRfc3339(row.updated_at),
    ...(secret === undefined ? {} : { secret }),
  };
}

/** A stored endpoint as the API shows it, its headers opened with the secrets `sealer`. */
export function presentStoredEndpoint(sealer: Sealer, row: EndpointRow, now: number, secret?: string): EndpointView {
  return presentEndpoint(row, now, openHeaders(sealer, row.id, row.headers_sealed) ?? {}, secret);
}

/**
 * The endpoint as a `webhook_endpoint.disabled` event carries it: as the API shows it, less its
 * `headers` and with its URL's secrets redacted (the query's values, the path past its first
 * segment), as its audit record keeps them. An event's body is stored as sent (events/outbox.ts),
 * is read with `events:read` (which `webhooks:manage`, needed to see the endpoint itself, is not)
 * and is sent to the account's other receivers: a `?token=…` in the URL would reach them all in
 * clear.
 */
export function presentEndpointInEvent(row: EndpointRow, now: number): Omit<EndpointView, 'headers'> {
  const view: Partial<EndpointView> = presentEndpoint(row, now, {});
  delete view.headers;
  view.url = withSecretsRedacted(row.url);
  return view as Omit<EndpointView, 'headers'>;
}

/**
 * What changed of an endpoint (`before` null: what it was created with), for its audit record.
 * Header values, the values of the URL's query and its path past the first segment often are
 * credentials (`?token=…`, `/services/T…/B…/<secret>`), and the trail is read with `audit:read`
 * and streamed to other receivers: the record names the headers and the query's parameters, shows
 * where deliveries go, and says that the rest changed, never what it was or became.
 */
export function endpointChanges(before: AuditedEndpoint | null, after: AuditedEndpoint): Changes {
  const fields = (e: AuditedEndpoint) => ({ url: withSecretsRedacted(e.url), event_types: e.event_types, description: e.description, header_names: Object.keys(e.headers).sort() });
  const changes = changesOf(before && fields(before), fields(after));
  const secretParts = (e: AuditedEndpoint | null) => ({
    header_values: e === null || Object.keys(e.headers).length === 0 ? null : JSON.stringify(Object.entries(e.headers).sort(([a], [b]) => (a < b ? -1 : 1))),
    url_path: e === null ? null : urlParts(e.url).pathRest,
    url_query_values: e === null ? null : urlParts(e.url).query,
  });
  const [was, is] = [secretParts(before), secretParts(after)];
  for (const name of ['header_values', 'url_path', 'url_query_values'] as const) {
    if (was[name] === is[name]) continue;
    changes[name] = before === null ? { after: REDACTED } : { before: was[name] === null ? null : REDACTED, after: is[name] === null ? null : REDACTED };
  }
  return changes;
}
export interface AuditedEndpoint {
  url: string;
  event_types: string[];
  description: string | null;
  headers: EndpointHeaders;
}

/**
 * A URL's parts as the trail tells them apart: what says where deliveries go (scheme, host, port
 * and the path's first segment), the rest of the path, and the query. Hook URLs carry their
 * credential in the path as often as in the query (Slack's /services/T…/B…/<secret>, Discord's
 * /api/webhooks/<id>/<token>), and a query's credential may be a bare `?<key>`, without `=`.
 */
function urlParts(url: string): { where: string; pathRest: string | null; query: string | null } {
  const parsed = new URL(url);
  const [, first = '', rest = ''] = /^(\/[^/]*)(.*)$/.exec(parsed.pathname) ?? [];
  return { where: `${parsed.origin}${first}`, pathRest: rest === '' || rest === '/' ? null : rest, query: parsed.search === '' ? null : parsed.search };
}

/**
 * `https://h.example/services/T1/B2/xyz?token=abc&sk_live_x` as
 * `https://h.example/services/[redacted]?token=[redacted]&[redacted]`: a parameter's name is kept
 * when it has a value, and is itself redacted when it has none (it is the value).
 */
function withSecretsRedacted(url: string): string {
  let parts: ReturnType<typeof urlParts>;
  try {
    parts = urlParts(url);
  } catch {
    return REDACTED;
  }
  const path = parts.pathRest === null ? '' : `/${REDACTED}`;
  const query = parts.query === null ? '' : `?${parts.query.slice(1).split('&').map((pair) => (pair.includes('=') ? `${pair.split('=', 1)[0]}=${REDACTED}` : REDACTED)).join('&')}`;
  return `${parts.where}${path}${query}`;
}

export function createEndpoints(deps: { db: Db; clock: Clock; sealer: Sealer; policy: TargetPolicy }) {
  const { db, clock, sealer, policy } = deps;

  async function checkedUrl(url: string): Promise<string> {
    try {
      return (await policy.checkUrl(url)).href;
    } catch (error) {
      if (error instanceof RefusedTarget) throw problem('webhook_url_invalid', { detail: error.message });
      throw error;
    }
  }

  const present = (row: EndpointRow, now: number, secret?: string): EndpointView => presentStoredEndpoint(sealer, row, now, secret);

  async function find(executor: Db | Trx, accountId: string, id: string): Promise<EndpointRow> {
    const row = await executor
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw problem('webhook_endpoint_not_found');
    return row;
  }

  return {
    find: (accountId: string, id: string) => find(db, accountId, id),

    /**
     * The endpoint's event types; in `trx` with its row locked until that transaction ends, so
     * what the caller decides from them holds for the change it makes there.
     */
    async eventTypesOf(trx: Db | Trx | undefined, accountId: string, id: string): Promise<string[]> {
      const query = (trx ?? db).selectFrom('webhook_endpoints').select('event_types').where('id', '=', id).where('account_id', '=', accountId);
      const row = await (trx === undefined ? query : dialectOf(trx).lockForWrite(query)).executeTakeFirst();
      if (!row) throw problem('webhook_endpoint_not_found');
      return JSON.parse(row.event_types) as string[];
    },

    async get(accountId: string, id: string): Promise<EndpointView> {
      return present(await find(db, accountId, id), clock.now());
    },

    async create(trx: Trx, accountId: string, input: EndpointInput): Promise<EndpointView> {
      const url = await checkedUrl(input.url);
      const headers = checkEndpointHeaders(input.headers ?? {});
      // Its token was checked before this transaction; the account may have closed since.
      if (!(await holdAccountOpen(trx, accountId))) throw invalidToken();
      const now = clock.now();
      const id = newId('we');
      const secret = newWebhookSecret();
      const row: EndpointRow = {
        id,
        account_id: accountId,
        url,
        description: input.description ?? null,
        event_types: JSON.stringify([...new Set(input.event_types)]),
        enabled: 1,
        disabled_reason: null,
        secret_sealed: sealer.seal(secret, id),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        headers_sealed: sealHeaders(sealer, id, headers),
        failing_since: null,
        created_at: now,
        updated_at: now,
      };
      await trx.insertInto('webhook_endpoints').values(row).execute();
      return present(row, now, secret);
    },

    /**
     * Applies the members given and returns the endpoint with what changed, for its audit record.
     * An update that changes nothing writes nothing (`changes` is empty).
     */
    async update(trx: Trx, accountId: string, id: string, input: Partial<EndpointInput>): Promise<{ view: EndpointView; changes: Changes }> {
      const row = await find(trx, accountId, id);
      const before: AuditedEndpoint = { url: row.url, event_types: JSON.parse(row.event_types) as string[], description: row.description, headers: openHeaders(sealer, id, row.headers_sealed) ?? {} };
      const after: AuditedEndpoint = {
        url: input.url === undefined ? before.url : await checkedUrl(input.url),
        event_types: input.event_types === undefined ? before.event_types : [...new Set(input.event_types)],
        description: input.description === undefined ? before.description : input.description,
        headers: input.headers === undefined ? before.headers : checkEndpointHeaders(input.headers),
      };
      const changes = endpointChanges(before, after);
      if (Object.keys(changes).length === 0) return { view: present(row, clock.now()), changes };
      const now = clock.now();
      await trx
        .updateTable('webhook_endpoints')
        .set({
          url: after.url,
          event_types: JSON.stringify(after.event_types),
          description: after.description,
          ...(input.headers === undefined ? {} : { headers_sealed: sealHeaders(sealer, id, after.headers) }),
          updated_at: now,
        })
        .where('id', '=', id)
        .execute();
      return { view: present(await find(trx, accountId, id), now), changes };
    },

    /**
     * Enables or disables the endpoint by its owner's request; `changes` is empty when it already
     * was (nothing is written: a disable leaves an automatic disable's reason as it was).
     */
    async setEnabled(trx: Trx, accountId: string, id: string, enabled: boolean): Promise<{ view: EndpointView; changes: Changes }> {
      const row = await find(trx, accountId, id);
      if ((row.enabled === 1) === enabled) return { view: present(row, clock.now()), changes: {} };
      const now = clock.now();
      if (enabled) {
        await trx
          .updateTable('webhook_endpoints')
          .set({ enabled: 1, disabled_reason: null, failing_since: null, updated_at: now })
          .where('id', '=', id)
          .execute();
      } else {
        await disableEndpoint(trx, { accountId, endpointId: id, reason: 'manual', now });
      }
      const after = await find(trx, accountId, id);
      const stateOf = (r: EndpointRow) => ({ enabled: r.enabled === 1, disabled_reason: r.disabled_reason });
      return { view: present(after, now), changes: changesOf(stateOf(row), stateOf(after)) };
    },

    async remove(accountId: string, id: string, by?: AuditBy): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const deleted = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) throw problem('webhook_endpoint_not_found');
        await recordAudit(trx, by, { accountId, action: 'webhook_endpoint.deleted', target: { type: 'webhook_endpoint', id }, at: clock.now() });
      });
    },

    /** A new secret; the current one keeps signing (as a second signature) for `overlapSeconds`. */
    async rotateSecret(trx: Trx, accountId: string, id: string, overlapSeconds: number): Promise<EndpointView> {
      await find(trx, accountId, id);
      const now = clock.now();
      const secret = newWebhookSecret();
      await trx
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          secret_sealed: sealer.seal(secret, id),
          // The secret as the row holds it when updated, not as read above: of two rotations at
          // once, the second keeps the first's secret signing beside its own.
          previous_secret_sealed: overlapSeconds > 0 ? eb.ref('secret_sealed') : null,
          previous_secret_expires_at: overlapSeconds > 0 ? now + overlapSeconds * 1000 : null,
          updated_at: now,
        }))
        .where('id', '=', id)
        .execute();
      return present(await find(trx, accountId, id), now, secret);
    },
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;
