#!/usr/bin/env node
// Entry point of the `gatehouse` command. The service is written in TypeScript and loaded
// through tsx's ESM hooks, so a fresh clone runs without a separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
const code = await main(process.argv.slice(2));
process.exitCode = code;
// A command that has returned is over: a handle left open (a socket a hung peer holds, a pool
// still closing after a shutdown timeout) must not keep the process alive. The timer does not
// keep it alive either: a process with nothing left open exits at once.
setTimeout(() => process.exit(code), 2000).unref();
