/** Start-up and shutdown of real processes on SQLite; the tests are in lifecycle.ts. */
import { databaseTargets } from '../helpers/databases.ts';
import { describeStartAndStop } from './lifecycle.ts';

for (const target of databaseTargets().filter((t) => t.kind === 'sqlite')) describeStartAndStop(target);
