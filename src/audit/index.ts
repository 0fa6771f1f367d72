/**
 * The audit trail (docs/AUDIT.md): records written with each change (record.ts), chained and
 * checkpointed in the background (sealer.ts), verified (verify.ts), read and exported
 * (query.ts, routes.ts), pruned by retention (retention.ts), detached from deleted people
 * (detach.ts). Call sites need only `recordAudit` and `auditBy`.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { Paging } from '../paging/page.ts';
import { changesMacKey } from './chain.ts';
import { createAuditQueries } from './query.ts';
import { createAuditRetention } from './retention.ts';
import { createAuditSealer, type CheckpointSigner } from './sealer.ts';
import { createAuditVerifier } from './verify.ts';
import { createKeyVault } from '../platform/secrets-key.ts';

export { recordAudit, auditBy, changesOf, cliActor, systemActor, type AuditBy, type RecordAudit } from './record.ts';
export { detachPerson } from './detach.ts';

export interface AuditDeps {
  db: Db;
  clock: Clock;
  paging: Paging;
  secretsKey: Buffer;
  signer: CheckpointSigner;
  issuer: string;
  retentionDays: number;
  checkpointIntervalSeconds: number;
}

export function createAudit(deps: AuditDeps) {
  const macKey = changesMacKey(deps.secretsKey);
  const sealer = createAuditSealer({
    db: deps.db,
    clock: deps.clock,
    macKey,
    signer: deps.signer,
    issuer: deps.issuer,
    checkpointIntervalMs: deps.checkpointIntervalSeconds * 1000,
  });
  return {
    sealer,
    verifier: createAuditVerifier({ db: deps.db, macKey, vault: createKeyVault(deps.secretsKey) }),
    queries: createAuditQueries({ db: deps.db, paging: deps.paging }),
    retention: createAuditRetention({ db: deps.db, clock: deps.clock, retentionDays: deps.retentionDays, signer: deps.signer, issuer: deps.issuer }),
  };
}

export type Audit = ReturnType<typeof createAudit>;
