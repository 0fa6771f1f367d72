/** Crash safety on PostgreSQL (when GATEHOUSE_TEST_DATABASE_URL is set); the test itself is in crash-safety.ts. */
import { describeCrashSafety } from './crash-safety.ts';

describeCrashSafety('postgres');
