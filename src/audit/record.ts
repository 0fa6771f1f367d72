/**
 * Writing the audit trail: `recordAudit(trx, by, entry)` inserts one record in the caller's
 * transaction, so the record and the change it describes commit together or not at all. A
 * replay of an Idempotency-Key never runs its handler, so it writes no second record.
 *
 * The write is one prepared INSERT and nothing else: no lock, no read (or, where a write sends
 * its rows as one statement, one more WITH clause in it: `recordAudit.row`). Its place in the
 * account's hash chain is given later by the sealer (sealer.ts), so concurrent writers of an
 * account never queue behind one another for the chain's head; the sealer also hands the
 * record, chained, to the account's webhook endpoints that subscribe to it (stream.ts).
 *
 * `by` says who acted and from where (`auditBy(request)` on the HTTP path, `cliActor` and
 * `systemActor` elsewhere). A person acting through a client is recorded as the person, with
 * the client beside them. Display names are not stored: they are read from the person, client
 * or token when the trail is read, so deleting a person leaves nothing of their name behind.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import { preparedInsert } from '../platform/db/prepared.ts';
import type { ActorType, AuditAction } from './catalogue.ts';
import type { AuditEventRow } from './tables.ts';

export interface Actor {
  type: ActorType;
  id: string;
  /** The OAuth client a person acted through. */
  clientId?: string | null;
}

/** Who acted, and the request they acted in (absent for the CLI and background work). */
export interface AuditBy {
  actor: Actor;
  requestId?: string | null;
  idempotencyKey?: string | null;
  sourceAddress?: string | null;
  userAgent?: string | null;
}

export interface Change {
  before?: unknown;
  after?: unknown;
}

export type Changes = Record<string, Change>;

export interface AuditEntry {
  accountId: string;
  action: AuditAction;
  target: { type: string; id: string };
  changes?: Changes | null;
  /** The instant of the change; the caller's clock reading, so the record and the row agree. */
  at: number;
}

/** Work the server does on its own (payout processing, automatic disabling). */
export const systemActor = (id: string): AuditBy => ({ actor: { type: 'system', id } });
/** The operator at the command line. */
export const cliActor: AuditBy = { actor: { type: 'admin', id: 'cli' } };

const MAX_HEADER = 512;

function header(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value.slice(0, MAX_HEADER) : null;
}

/**
 * Who made `request`: the bearer principal (a person through a client, a client on its own, a
 * SCIM token), else the operator when the request came to the admin listener, else `fallback`
 * (a sign-in page names the person itself).
 */
export function auditBy(request: FastifyRequest, fallback?: Actor): AuditBy {
  const principal = request.principal;
  let actor: Actor;
  if (principal?.kind === 'scim_token') actor = { type: 'scim_token', id: principal.tokenId };
  else if (principal?.userId) actor = { type: 'user', id: principal.userId, clientId: principal.clientId };
  else if (principal) actor = { type: 'client', id: principal.clientId };
  else actor = fallback ?? { type: 'admin', id: 'admin_api' };
  return {
    actor,
    requestId: request.id,
    idempotencyKey: header(request, 'idempotency-key'),
    sourceAddress: request.ip ?? null,
    userAgent: header(request, 'user-agent'),
  };
}

const SECRET_FIELD = /secret|password|token|digest|private|credential|hash|authorization/i;
export const REDACTED = '[redacted]';

/**
 * Registration metadata whose names contain a secret-sounding word but which say how a client
 * authenticates, never with what (RFC 7591 §2; OpenID Connect Registration §2): kept in clear,
 * since "which auth method did this client switch to?" is what the trail is read for.
 */
const PUBLIC_METADATA = new Set(['token_endpoint_auth_method', 'token_endpoint_auth_signing_alg', 'id_token_signed_response_alg']);

function redact(name: string, value: unknown): unknown {
  if (value === undefined || value === null) return value;
  return SECRET_FIELD.test(name) && !PUBLIC_METADATA.has(name) ? REDACTED : value;
}

/**
 * The fields that differ between `before` and `after` (either may be absent: creation,
 * deletion), each as { before, after }, with every secret-named field redacted.
 */
export function changesOf(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined): Changes {
  const changes: Changes = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    const b = before?.[name];
    const a = after?.[name];
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    const change: Change = {};
    if (before) change.before = redact(name, b ?? null);
    if (after) change.after = redact(name, a ?? null);
    changes[name] = change;
  }
  return changes;
}

const RECORD_COLUMNS = [
  'id',
  'account_id',
  'occurred_at',
  'action',
  'actor_type',
  'actor_id',
  'actor_client_id',
  'target_type',
  'target_id',
  'request_id',
  'idempotency_key',
  'source_address',
  'user_agent',
  'changes',
] as const;

/** A record as `recordAudit` inserts it: the columns a write sets, the chain's left to the sealer. */
export type AuditRow = Pick<AuditEventRow, (typeof RECORD_COLUMNS)[number]>;

const insertRecord = preparedInsert('audit_events', RECORD_COLUMNS);

/** The record of `entry` by `by` (undefined: the server itself), as a row. */
export function auditRow(by: AuditBy | undefined, entry: AuditEntry): AuditRow {
  const who = by ?? systemActor('gatehouse');
  return {
    id: newTimeOrderedId('aud', entry.at),
    account_id: entry.accountId,
    occurred_at: entry.at,
    action: entry.action,
    actor_type: who.actor.type,
    actor_id: who.actor.id,
    actor_client_id: who.actor.clientId ?? null,
    target_type: entry.target.type,
    target_id: entry.target.id,
    request_id: who.requestId ?? null,
    idempotency_key: who.idempotencyKey ?? null,
    source_address: who.sourceAddress ?? null,
    user_agent: who.userAgent ?? null,
    changes: entry.changes && Object.keys(entry.changes).length > 0 ? JSON.stringify(entry.changes) : null,
  };
}

/** Writes `row` in `trx`, as the prepared INSERT `recordAudit` sends. */
export async function insertAuditRow(trx: Db, row: AuditRow): Promise<void> {
  await insertRecord.execute(trx, row);
}

/** Writes one record in `trx`; `by` undefined records the server itself as the actor. */
async function writeRecord(trx: Db, by: AuditBy | undefined, entry: AuditEntry): Promise<string> {
  const row = auditRow(by, entry);
  await insertAuditRow(trx, row);
  return row.id;
}

/**
 * What capabilities write records with, a dependency like any other: the services that take it
 * (payouts, SCIM users) default to `recordAudit`; the audit-cost benchmark passes
 * `recordNothing`, for the reference the trail's cost is measured against. `row` is the record
 * the call would write, for a write that sends it inside a statement of its own (a data-modifying
 * WITH clause on PostgreSQL: a payout, SCIM POST /Users) instead of after it; null when nothing
 * is recorded.
 */
export interface RecordAudit {
  (trx: Db, by: AuditBy | undefined, entry: AuditEntry): Promise<string>;
  row(by: AuditBy | undefined, entry: AuditEntry): AuditRow | null;
}

export const recordAudit: RecordAudit = Object.assign(writeRecord, { row: auditRow });

/** The trail left out: only the audit-cost benchmark's reference is built with it. */
export const recordNothing: RecordAudit = Object.assign(async () => '', { row: () => null });
