/**
 * Audit records on webhooks (docs/AUDIT.md "Streaming"): an account's endpoint subscribed to
 * `audit.*` or `audit.<action>` receives each record as an event of that type, signed, retried,
 * parked and recovered like every other event, with `data` the record as GET /v1/audit-events
 * presents it (secrets redacted, its place in the chain and its hash included).
 *
 * The sealer calls `streamSealed` in the transaction that chains the records (sealer.ts): the
 * events commit exactly when the records enter the chain, and a record written while no node
 * was sealing is streamed when it is sealed. So the write path stays one INSERT: streaming
 * costs writers nothing, and an account nobody streams costs the sealer one indexed read of
 * its endpoints per batch.
 */
import type { Db } from '../platform/db/database.ts';
import { recordEvent } from '../events/outbox.ts';
import { auditEventType } from '../events/types.ts';
import { enabledEndpointsOf, subscribes } from '../webhooks/fan-out.ts';
import { PLATFORM_ACCOUNT } from './catalogue.ts';
import { presentAuditRecords } from './query.ts';
import type { AuditEventRow } from './tables.ts';

/** Raises an `audit.<action>` event for each of `rows` (sealed, of one account) some endpoint subscribes to; returns how many. */
export async function streamSealed(trx: Db, accountId: string, rows: readonly AuditEventRow[]): Promise<number> {
  // The platform's chain (key rotation, imports) belongs to no account and has no endpoints.
  if (rows.length === 0 || accountId === PLATFORM_ACCOUNT) return 0;
  const endpoints = await enabledEndpointsOf(trx, accountId);
  const listened = rows
    .map((row) => ({ row, type: auditEventType(row.action) }))
    .map((r) => ({ ...r, to: endpoints.filter((e) => subscribes(e.event_types, r.type)) }))
    .filter((r) => r.to.length > 0);
  if (listened.length === 0) return 0;
  const views = await presentAuditRecords(trx, listened.map((r) => r.row));
  for (const [i, { row, type, to }] of listened.entries()) {
    await recordEvent(trx, { accountId, type, object: 'audit_event', objectId: row.id, state: 'recorded', data: views[i]!, at: Number(row.occurred_at) }, to);
  }
  return listened.length;
}
