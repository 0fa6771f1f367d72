/** Start-up and shutdown of real processes on PostgreSQL (when GATEHOUSE_TEST_DATABASE_URL is set); the tests are in lifecycle.ts. */
import { databaseTargets } from '../helpers/databases.ts';
import { describeStartAndStop } from './lifecycle.ts';

for (const target of databaseTargets().filter((t) => t.kind === 'postgres')) describeStartAndStop(target);
