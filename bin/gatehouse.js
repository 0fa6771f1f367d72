#!/usr/bin/env node
// Entry point of the `gatehouse` command. The service is written in TypeScript and loaded
// through tsx's ESM hooks, so a fresh clone runs without a separate build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
