/** Start-up and shutdown of real processes on PostgreSQL (skipped, saying so, without GATEHOUSE_TEST_DATABASE_URL); the tests are in lifecycle.ts. */
import { describeOnDatabase } from '../helpers/databases.ts';
import { describeStartAndStop } from './lifecycle.ts';

describeOnDatabase('postgres', 'start-up and shutdown on PostgreSQL', describeStartAndStop);
