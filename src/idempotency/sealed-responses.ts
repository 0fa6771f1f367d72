/**
 * Stored answers that carry a secret (a webhook endpoint's signing secret, shown once) are kept
 * sealed, so that the record an Idempotency-Key replays, and with it every backup and
 * `gatehouse export`, holds only ciphertext:
 *
 * - the whole answer, headers and body, is one AES-256-GCM box under the secrets key's
 *   "stored responses" sub-key (platform/secrets-key.ts), stored as `sealed:<box>` in place of
 *   the body, with `{}` as its headers; the status stays clear;
 * - the box is bound (associated data) to the record's account, client, key and request
 *   fingerprint, so a box moved to another record does not open;
 * - a replay opens it and sends the same status, headers and bytes as the first answer.
 *
 * Answers without a secret are stored as sent: sealing them would protect nothing and cost
 * every write and replay a cipher. A body stored in clear never begins with `sealed:` (every
 * stored body is JSON text or empty), so records written before sealing still replay.
 */
import type { Sealer } from '../platform/secrets-key.ts';
import { storedResponseOf, type KeyScope, type StoredResponse } from './store.ts';
import type { IdempotencyRow } from './tables.ts';

const SEALED = 'sealed:';

/** Associated data of a sealed answer: the record it belongs to, and the request it answered. */
function boundTo(scope: KeyScope, fingerprint: string): string {
  return JSON.stringify(['idempotency record', scope.accountId, scope.clientId, scope.key, fingerprint]);
}

export interface ResponseSealing {
  /** The stored form of an answer that carries a secret. */
  seal(response: StoredResponse, scope: KeyScope, fingerprint: string): StoredResponse;
  /** The answer a record replays, opened when it was stored sealed. */
  replayOf(row: IdempotencyRow): StoredResponse;
}

export function createResponseSealing(sealer: Sealer): ResponseSealing {
  return {
    seal(response, scope, fingerprint) {
      const box = sealer.seal(JSON.stringify({ headers: response.headers, body: response.body }), boundTo(scope, fingerprint));
      return { status: response.status, headers: {}, body: SEALED + box };
    },

    replayOf(row) {
      const stored = storedResponseOf(row);
      if (!stored.body.startsWith(SEALED)) return stored;
      const scope = { accountId: row.account_id, clientId: row.client_id, key: row.idempotency_key };
      const opened = sealer.open(stored.body.slice(SEALED.length), boundTo(scope, row.fingerprint));
      if (opened === undefined) {
        // Altered, moved from another record, or sealed under another GATEHOUSE_SECRETS_KEY.
        throw new Error(`the stored answer of idempotency record ${row.id} cannot be opened: check GATEHOUSE_SECRETS_KEY`);
      }
      const { headers, body } = JSON.parse(opened) as { headers: Record<string, string>; body: string };
      return { status: stored.status, headers, body };
    },
  };
}
