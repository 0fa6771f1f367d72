#!/usr/bin/env node
// Runs the test suite with Node's built-in runner through tsx. Node 20 expands no globs,
// so the files are listed here. Arguments narrow the run: `npm test -- test/oauth`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const passthrough = process.argv.slice(2).filter((a) => a.startsWith('--'));
// A report written to a file (e.g. coverage/lcov.info) gets its directory.
for (const arg of passthrough) {
  const destination = /^--test-reporter-destination=(.+)$/.exec(arg)?.[1];
  if (destination && destination !== 'stdout' && destination !== 'stderr') fs.mkdirSync(path.dirname(destination), { recursive: true });
}
const files = [];
for (const root of roots.length > 0 ? roots : ['test']) {
  if (fs.statSync(root).isFile()) {
    files.push(root);
    continue;
  }
  for (const entry of fs.readdirSync(root, { recursive: true })) {
    const file = path.join(root, String(entry));
    if (file.endsWith('.test.ts')) files.push(file);
  }
}
files.sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const where = process.env.GATEHOUSE_TEST_DATABASE_URL ? 'SQLite and PostgreSQL' : 'SQLite (set GATEHOUSE_TEST_DATABASE_URL for PostgreSQL too)';
console.log(`gatehouse tests: ${files.length} files on ${where}`);
// Node applies --test-timeout to each file as well as to each test in it, so it is the slowest
// honest file's need: crash safety, whose workload has a 150 s deadline of its own (the file took
// 90 s, the slowest other file 99 s, in a run at load average 14 on two cores). A hung test or
// file fails instead of holding the run.
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=180000', ...passthrough, ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
