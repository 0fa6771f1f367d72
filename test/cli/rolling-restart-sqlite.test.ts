/** A rolling restart behind a balancer, and a worker's bounded shutdown on SQLite; the tests are in lifecycle.ts. */
import { databaseTargets } from '../helpers/databases.ts';
import { describeRollingRestart } from './lifecycle.ts';

for (const target of databaseTargets().filter((t) => t.kind === 'sqlite')) describeRollingRestart(target);
