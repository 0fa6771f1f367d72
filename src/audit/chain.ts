/**
 * The hash chain of an account's audit records (docs/AUDIT.md, "Tamper evidence").
 *
 * hash(n) = SHA-256(prev_hash(n) "\n" JSON[id, account, occurred_at, action, actor…, target…,
 * request…, changes_mac]), with prev_hash(1) the account's genesis value. The place in the
 * chain (`seq`) is not hashed: it is the order the links spell, so a row moved to another
 * place keeps a valid hash of its own but no longer links to its neighbour ("reordered"),
 * while a row whose content changed no longer matches its hash ("altered").
 *
 * `changes` enters through its MAC (HMAC-SHA-256 under a key derived from the secrets key):
 * deleting a person removes the values recorded about them (detach.ts) and the chain still
 * verifies, while the MAC of a value cannot be used to guess that value.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { sha256Hex } from '../platform/crypto.ts';
import type { AuditEventRow } from './tables.ts';

export function genesisHash(accountId: string): string {
  return sha256Hex(`gatehouse audit chain\n${accountId}`);
}

/** The key of the changes' MACs, derived from the secrets key for this purpose only. */
export function changesMacKey(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'gatehouse audit changes', 32));
}

export function changesMac(key: Buffer, changes: string | null): string | null {
  return changes === null ? null : createHmac('sha256', key).update(changes).digest('hex');
}

type Hashed = Pick<
  AuditEventRow,
  | 'id'
  | 'account_id'
  | 'occurred_at'
  | 'action'
  | 'actor_type'
  | 'actor_id'
  | 'actor_client_id'
  | 'target_type'
  | 'target_id'
  | 'request_id'
  | 'idempotency_key'
  | 'source_address'
  | 'user_agent'
  | 'changes_mac'
>;

export function recordHash(prevHash: string, row: Hashed): string {
  const content = JSON.stringify([
    row.id,
    row.account_id,
    Number(row.occurred_at),
    row.action,
    row.actor_type,
    row.actor_id,
    row.actor_client_id,
    row.target_type,
    row.target_id,
    row.request_id,
    row.idempotency_key,
    row.source_address,
    row.user_agent,
    row.changes_mac,
  ]);
  return sha256Hex(`${prevHash}\n${content}`);
}
