import { loadConfig } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { requireMigrated } from '../platform/db/migrate.ts';
import { createSigningKeys, SIGNING_LEAD_SECONDS } from '../oauth/keys.ts';
import { openKeyVault } from '../platform/secrets-key.ts';
import { cliActor } from '../audit/record.ts';
import type { CommandContext } from './commands.ts';

/**
 * `gatehouse rotate-keys [--revoke]`: new keys. The signing key is published at once and signs once
 * every cached JWKS holds it; the old ones stay in the JWKS until what they signed expires.
 * `--revoke` makes the new keys sign at once and withdraws the old ones.
 */
export async function rotateKeys({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const database = await openConfiguredDatabase(config);
  try {
    await requireMigrated(database);
    const vault = await openKeyVault({ database, configured: config.secretsKey });
    const keys = createSigningKeys({ db: database.db, clock: systemClock, vault, retainSeconds: config.accessTokenTtl });
    const revoke = flags['--revoke'] === 'true';
    const { kid, signsFrom, retired, withdrawn, retainSeconds } = await keys.rotate(cliActor, { revoke });
    if (revoke) {
      console.log(`gatehouse: signing key ${kid} is published and signs now; every earlier key is withdrawn (${withdrawn.join(', ')})`);
      console.log('  access tokens they sealed stop working within a minute on every node: clients fetch new ones;');
      console.log('  relying parties accept what the withdrawn keys signed until their cached JWKS expires (at most 5 minutes)');
      return 0;
    }
    const from = new Date(signsFrom).toISOString();
    console.log(`gatehouse: signing key ${kid} is published now and signs from ${from} (in ${SIGNING_LEAD_SECONDS} s, once every cached JWKS holds it)`);
    for (const old of retired) console.log(`  ${old} signs until then, and stays published ${retainSeconds} s longer`);
    console.log('  a new token sealing key seals now; the old one verifies the tokens it sealed until they expire');
    return 0;
  } finally {
    await database.close();
  }
}
