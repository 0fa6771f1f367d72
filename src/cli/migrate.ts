import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../platform/db/database.ts';
import { migrateToLatest } from '../platform/db/migrate.ts';
import type { CommandContext } from './commands.ts';

export async function migrate({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const database = await openConfiguredDatabase(config);
  try {
    console.log(`gatehouse: migrating ${database.dialect.name} database at ${database.location}`);
    const result = await migrateToLatest(database, { waiting: () => console.log('gatehouse: another process holds the migration lock; waiting for it') });
    const applied = result.results ?? [];
    for (const r of applied) console.log(`  ${r.status === 'Success' ? 'applied' : r.status} ${r.migrationName}`);
    console.log(applied.length === 0 ? 'gatehouse: already up to date' : `gatehouse: ${applied.length} migration(s) applied`);
    return 0;
  } finally {
    await database.close();
  }
}
