/**
 * A page of a collection (interface: "Page of a collection", "Collection reads rules"):
 * `{ data, next_cursor }`, `limit` from 1 to 100 (default 20, anything else 400
 * `limit_out_of_range`), `after` the previous page's next_cursor. `next_cursor` is null exactly
 * when no row remains after the page; a page may be shorter than `limit` only at the end here,
 * but callers must not rely on that.
 *
 * `createPaging` binds the cursor keys, the clock and the cursor lifetime once, so a
 * collection reads a page with one call: open the cursor, run its keyset query for limit+1
 * rows, seal the next cursor.
 */
import type { Clock } from '../platform/clock.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { filterFingerprint, openCursor, sealCursor, type CursorKeyRing, type CursorPosition } from './cursor.ts';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface PageRequest {
  accountId: string;
  /** `limit` as given in the query string, if any. */
  limit: number | undefined;
  /** `after` as given, if any. */
  after: string | undefined;
  /** The filters of this read; a cursor only continues a read with the same filters. */
  filters?: Record<string, string | number | boolean | undefined | null>;
}

export interface Collection<Row> {
  /** Names the collection and its order in cursors; change it when the order changes. */
  orderName: string;
  /** Rows after `after` (all when undefined) in the collection's order, at most `take` of them. */
  fetch(after: CursorPosition | undefined, take: number): Promise<Row[]>;
  /** The position of `row` in that order, sealed into the next cursor. */
  position(row: Row): CursorPosition;
}

export interface Page<Row> {
  rows: Row[];
  nextCursor: string | null;
}

/** Validates `limit`; query-string coercion has already made it an integer. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw problem('limit_out_of_range', { detail: `limit must be a whole number from 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})` });
  }
  return limit;
}

/**
 * A page's rows as one text, as a database can hand them over without a value per row: how
 * many rows the read found (at most limit + 1), the first `limit` of them joined by commas,
 * and the last of those (whose position the next cursor seals), undefined when none was found.
 */
export interface JoinedRows {
  found: number;
  joined: string;
  last: string | undefined;
}

/** A collection read as joined texts (see `JoinedRows`): `keysetRead` collections. */
export interface JoinedCollection {
  orderName: string;
  /** The rows after `after` (all when undefined) in the collection's order: `limit` of them and one more if there is one. */
  fetch(after: CursorPosition | undefined, limit: number): Promise<JoinedRows>;
  /** The position of a row, read from its text, sealed into the next cursor. */
  position(row: string): CursorPosition;
}

export function createPaging(deps: { ring: CursorKeyRing; clock: Clock; cursorTtlMs: number }) {
  const { ring, clock, cursorTtlMs } = deps;

  /** The request's limit, filter fingerprint and opened cursor, and the time the read runs at. */
  function begin(request: PageRequest, orderName: string) {
    const limit = pageLimit(request.limit);
    const filter = filterFingerprint(request.filters ?? {});
    const now = clock.now();
    const after =
      request.after === undefined
        ? undefined
        : openCursor(ring, request.after, { order: orderName, filter, accountId: request.accountId, now, ttlMs: cursorTtlMs });
    return { limit, filter, now, after };
  }

  function next(request: PageRequest, orderName: string, read: { filter: string; now: number }, position: CursorPosition): string {
    return sealCursor(ring, { position, order: orderName, filter: read.filter, accountId: request.accountId, issuedAt: read.now });
  }

  return {
    async read<Row>(request: PageRequest, collection: Collection<Row>): Promise<Page<Row>> {
      const read = begin(request, collection.orderName);
      const fetched = await collection.fetch(read.after, read.limit + 1);
      if (fetched.length <= read.limit) return { rows: fetched, nextCursor: null };
      const rows = fetched.slice(0, read.limit);
      return { rows, nextCursor: next(request, collection.orderName, read, collection.position(rows[rows.length - 1]!)) };
    },

    /** The same read for a collection whose database joins the rows' texts (`JoinedCollection`). */
    async readJoined(request: PageRequest, collection: JoinedCollection): Promise<{ joined: string; nextCursor: string | null }> {
      const read = begin(request, collection.orderName);
      const { found, joined, last } = await collection.fetch(read.after, read.limit);
      if (found <= read.limit || last === undefined) return { joined, nextCursor: null };
      return { joined, nextCursor: next(request, collection.orderName, read, collection.position(last)) };
    },
  };
}

export type Paging = ReturnType<typeof createPaging>;

/** The media type pages are sent with, as the framework's own JSON serialization labels it. */
export const PAGE_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The JSON text of a page, `{"data":[…],"next_cursor":…}`, from its rows' stored
 * representations (each the JSON text of the row as the response schema shows it; see
 * payments/tables.ts), joined by commas. A page of 100 rows is the largest answer most routes
 * give; joining the stored texts skips building an object per row and serializing it again.
 */
export function pageJson(page: { joined: string; nextCursor: string | null }): string {
  return `{"data":[${page.joined}],"next_cursor":${page.nextCursor === null ? 'null' : JSON.stringify(page.nextCursor)}}`;
}

/** Query-string members every collection route accepts (add the collection's filters beside them). */
export const pageQueryProperties = {
  limit: {
    type: 'integer',
    // The bounds pageLimit enforces, so that the documents (and clients built from them) know them;
    // a value outside them fails here first, and is still answered 400 limit_out_of_range (server.ts).
    minimum: 1,
    maximum: MAX_LIMIT,
    description: `Largest number of rows in the page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT}); out of range → 400 limit_out_of_range`,
  },
  after: {
    type: 'string',
    minLength: 1,
    maxLength: 1024,
    description: 'The next_cursor of the previous page, passed back unmodified; omitted on the first request',
  },
} as const;

/** Response schema of a page whose rows match `item`. */
export function pageSchema(item: object, description: string) {
  return {
    type: 'object',
    description,
    required: ['data', 'next_cursor'],
    properties: {
      data: { type: 'array', items: item },
      next_cursor: {
        type: ['string', 'null'],
        description: 'Opaque cursor for the next page; null when the read is complete',
      },
    },
  } as const;
}
