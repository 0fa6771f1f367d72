/**
 * The audit trail for a process without the HTTP app (`gatehouse worker`, `gatehouse audit`):
 * the same secrets key (for the changes' MACs) and signing keys (for checkpoints) as `serve`.
 */
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Database } from '../platform/db/database.ts';
import { createKeyVault, loadSecretsKey, type KeyVault } from '../platform/secrets-key.ts';
import { createSigningKeys } from '../oauth/keys.ts';
import { setUpCursorKeys } from '../paging/cursor-keys.ts';
import { createPaging } from '../paging/page.ts';
import { createAudit, type Audit } from './index.ts';
import type { CheckpointSigner } from './sealer.ts';

/** `loaded`: the secrets key and signing keys the process has already (the worker's), else loaded here. */
export async function openAudit(database: Database, config: Config, clock: Clock, loaded?: { secretsKey: Buffer; signer: CheckpointSigner }): Promise<Audit> {
  const { db } = database;
  const secretsKey = loaded?.secretsKey ?? (await loadSecretsKey({ database, configured: config.secretsKey }));
  const vault = createKeyVault(secretsKey);
  const signer = loaded?.signer ?? (await activeSigningKeys(db, clock, vault, config));
  const cursorKeys = await setUpCursorKeys({ db, clock, vault, configured: config.cursorKeys });
  return createAudit({
    db,
    clock,
    paging: createPaging({ ring: cursorKeys, clock, cursorTtlMs: config.cursorTtl * 1000 }),
    secretsKey,
    signer,
    issuer: config.issuer,
    retentionDays: config.auditRetention,
    checkpointIntervalSeconds: config.auditCheckpointInterval,
  });
}

async function activeSigningKeys(db: Database['db'], clock: Clock, vault: KeyVault, config: Config): Promise<CheckpointSigner> {
  const keys = createSigningKeys({ db, clock, vault, retainSeconds: config.accessTokenTtl });
  await keys.ensureActive();
  return keys;
}
