import { loadConfig } from '../config.ts';
import { systemClock } from '../platform/clock.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { requireMigrated } from '../platform/db/migrate.ts';
import { createSigningKeys } from '../oauth/keys.ts';
import { openKeyVault } from '../platform/secrets-key.ts';
import { cliActor } from '../audit/record.ts';
import type { CommandContext } from './commands.ts';

/** `gatehouse rotate-keys`: a new active signing key; the old ones stay in the JWKS until what they signed expires. */
export async function rotateKeys({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const database = await openConfiguredDatabase(config);
  try {
    await requireMigrated(database);
    const vault = await openKeyVault({ database, configured: config.secretsKey });
    const keys = createSigningKeys({ db: database.db, clock: systemClock, vault, retainSeconds: config.accessTokenTtl });
    const { kid, retired, retainSeconds } = await keys.rotate(cliActor);
    console.log(`gatehouse: signing key ${kid} is now active`);
    for (const old of retired) console.log(`  ${old} retired; published for another ${retainSeconds} s`);
    return 0;
  } finally {
    await database.close();
  }
}
