/** Crash safety on SQLite; the test itself is in crash-safety.ts. */
import { databaseTargets } from '../helpers/databases.ts';
import { describeCrashSafety } from './crash-safety.ts';

for (const target of databaseTargets().filter((t) => t.kind === 'sqlite')) describeCrashSafety(target);
