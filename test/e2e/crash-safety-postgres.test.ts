/** Crash safety on PostgreSQL (when GATEHOUSE_TEST_DATABASE_URL is set); the test itself is in crash-safety.ts. */
import { databaseTargets } from '../helpers/databases.ts';
import { describeCrashSafety } from './crash-safety.ts';

for (const target of databaseTargets().filter((t) => t.kind === 'postgres')) describeCrashSafety(target);
