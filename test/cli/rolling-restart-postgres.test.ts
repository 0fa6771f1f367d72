/** A rolling restart behind a balancer, and a worker's bounded shutdown on PostgreSQL (skipped, saying so, without GATEHOUSE_TEST_DATABASE_URL); the tests are in lifecycle.ts. */
import { describeOnDatabase } from '../helpers/databases.ts';
import { describeRollingRestart } from './lifecycle.ts';

describeOnDatabase('postgres', 'rolling restart and worker shutdown on PostgreSQL', describeRollingRestart);
