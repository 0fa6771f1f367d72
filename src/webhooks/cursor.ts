/**
 * Cursors of the webhook collections (events, attempts). One boundary: `sealCursor` and
 * `openCursor`, so the collections can move to a shared paging helper without touching the
 * queries. A cursor is the keyset position sealed with AES-256-GCM, bound to the account,
 * the collection and its order, and the filter fingerprint; callers can neither read nor
 * forge it (interface "Collection reads" rule 3). Tampered → cursor_malformed; another
 * account's → cursor_foreign; another filter or order → cursor_mismatch; older than a day →
 * cursor_expired.
 */
import { problem } from '../platform/errors/catalogue.ts';
import type { Sealer } from './secrets.ts';

export interface Position {
  at: number;
  id: string;
}

interface Sealed {
  a: string;
  c: string;
  f: string;
  p: [number, string];
  t: number;
}

const LIFETIME_MS = 24 * 3600 * 1000;

export interface CursorScope {
  accountId: string;
  /** collection and order, e.g. "events:created_desc" */
  collection: string;
  /** fingerprint of the filters the read was started with */
  filter: string;
}

export function sealCursor(sealer: Sealer, scope: CursorScope, position: Position, now: number): string {
  const body: Sealed = { a: scope.accountId, c: scope.collection, f: scope.filter, p: [position.at, position.id], t: now };
  return sealer.seal(JSON.stringify(body), 'cursor');
}

export function openCursor(sealer: Sealer, scope: CursorScope, cursor: string, now: number): Position {
  const text = sealer.open(cursor, 'cursor');
  if (text === undefined) throw problem('cursor_malformed');
  const body = JSON.parse(text) as Sealed;
  if (body.a !== scope.accountId) throw problem('cursor_foreign');
  if (body.c !== scope.collection || body.f !== scope.filter) throw problem('cursor_mismatch');
  if (now - body.t > LIFETIME_MS) throw problem('cursor_expired');
  return { at: body.p[0], id: body.p[1] };
}
