/**
 * `gatehouse serve`, loaded but not started: every module is imported (most of a start's cost
 * on a busy machine), then the process waits for one line on standard input before it runs
 * `serve`, which opens the database, migrates and listens. A restart after a crash then costs
 * only the start itself, and the database is still first touched after the kill.
 */
import { once } from 'node:events';
import { main } from '../../src/main.ts';

process.stdout.write('gatehouse loaded\n');
await once(process.stdin, 'data');
process.stdin.pause();
process.exitCode = await main(['serve']);
