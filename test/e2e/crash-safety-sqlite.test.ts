/** Crash safety on SQLite; the test itself is in crash-safety.ts. */
import { describeCrashSafety } from './crash-safety.ts';

describeCrashSafety('sqlite');
