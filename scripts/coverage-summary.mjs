#!/usr/bin/env node
// Sums an lcov report (Node's `--test-reporter=lcov`) over the files under src/: lines,
// branches and functions covered, and the source files no test loaded at all.
import fs from 'node:fs';
import path from 'node:path';

const file = process.argv[2] ?? 'coverage/lcov.info';
const totals = { lines: [0, 0], branches: [0, 0], functions: [0, 0] };
const seen = new Set();
let current;
for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
  if (line.startsWith('SF:')) current = path.relative(process.cwd(), path.resolve(line.slice(3)));
  if (!current?.startsWith(`src${path.sep}`)) continue;
  seen.add(current);
  const [tag, value] = line.split(':');
  const add = { LF: ['lines', 0], LH: ['lines', 1], BRF: ['branches', 0], BRH: ['branches', 1], FNF: ['functions', 0], FNH: ['functions', 1] }[tag];
  if (add) totals[add[0]][add[1]] += Number(value);
}
const unloaded = fs
  .readdirSync('src', { recursive: true })
  .map((f) => path.join('src', String(f)))
  .filter((f) => f.endsWith('.ts') && !seen.has(f));
const percent = ([found, hit]) => (found === 0 ? '-' : `${((100 * hit) / found).toFixed(1)}%`);
const summary =
  `coverage of src/ (${seen.size} files): lines ${percent(totals.lines)}, branches ${percent(totals.branches)}, functions ${percent(totals.functions)}` +
  (unloaded.length ? `; not loaded by any test: ${unloaded.join(', ')}` : '');
console.log(summary);
if (process.env.GITHUB_STEP_SUMMARY) fs.appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${summary}\n`);
