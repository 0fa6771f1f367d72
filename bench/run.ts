/**
 * `npm run bench [-- [--quick] scenario…]`: runs each scenario beside its reference in one run and
 * writes a markdown table to bench/results/latest.md (and standard output); a full-length run also
 * writes docs/BENCHMARKS.md, where a run of some scenarios replaces only their figures (the figures
 * behind the document are kept, in version control, in bench/benchmarks.json; without that file
 * only a run of every scenario writes it).
 * BENCH_SECONDS sets the length of each measurement (default 10);
 * BENCH_DATABASE_URL adds PostgreSQL beside SQLite; --quick: see lib/options.ts; --render rewrites
 * docs/BENCHMARKS.md from bench/benchmarks.json without measuring (after a change to its text).
 */
import { quick, wantedScenarios } from './lib/options.ts';
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import path from 'node:path';
import { machineLine, renderTable, type Row } from './lib/report.ts';
import { handWrittenSections, machineOf, renderBenchmarksDoc, type ScenarioRun } from './lib/benchmarks-doc.ts';
import { healthz } from './scenarios/healthz.ts';
import { scimFilter } from './scenarios/scim-filter.ts';
import { listInvoices } from './scenarios/list-invoices.ts';
import { tokenClientCredentials } from './scenarios/token-client-credentials.ts';
import { webhookThroughput } from './scenarios/webhook-throughput.ts';
import { payouts } from './scenarios/payouts.ts';
import { loggingCost } from './scenarios/logging-cost.ts';

export interface BenchDatabase {
  kind: 'sqlite' | 'postgres';
  /** undefined: Gatehouse's default embedded SQLite in a fresh data dir */
  url: string | undefined;
}

export interface Scenario {
  name: string;
  /** Other names that select it (a scenario measuring several subjects in one pass). */
  aliases?: string[];
  /** `note` adds a line to the report (e.g. how long seeding took). */
  run(context: { databases: BenchDatabase[]; note(line: string): void }): Promise<Row[]>;
}

function withSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('schema', schema);
  return u.href;
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`drop schema if exists ${schema} cascade`);
  await client.end();
}

const SCENARIOS: Scenario[] = [healthz, tokenClientCredentials, listInvoices, payouts, scimFilter, webhookThroughput, loggingCost];
const store = path.join('bench', 'benchmarks.json');

function publish(runs: ScenarioRun[]): void {
  const soakFile = path.join('bench', 'results', 'soak.md');
  const soak = fs.existsSync(soakFile) ? fs.readFileSync(soakFile, 'utf8') : undefined;
  const page = path.join('docs', 'BENCHMARKS.md');
  // Sections written by hand into the page (not from a run) are carried over.
  const kept = handWrittenSections(fs.existsSync(page) ? fs.readFileSync(page, 'utf8') : undefined);
  fs.writeFileSync(page, renderBenchmarksDoc({ machine: machineLine(), cores: os.cpus().length, runs, soak, kept }));
  console.log('written to docs/BENCHMARKS.md');
}

if (process.argv.includes('--render')) {
  publish(JSON.parse(fs.readFileSync(store, 'utf8')) as ScenarioRun[]);
  process.exit(0);
}

const wanted = wantedScenarios;
const selected = wanted.length ? SCENARIOS.filter((s) => [s.name, ...(s.aliases ?? [])].some((n) => wanted.includes(n))) : SCENARIOS;
const pgUrl = process.env.BENCH_DATABASE_URL;
// A schema of this run's own: the database may be shared with other runs and test suites.
const runSchema = `bench_run_${randomBytes(4).toString('hex')}`;
const runPgUrl = pgUrl ? withSchema(pgUrl, runSchema) : undefined;
const databases: BenchDatabase[] = [{ kind: 'sqlite', url: undefined }, ...(runPgUrl ? [{ kind: 'postgres' as const, url: runPgUrl }] : [])];

const rows: Row[] = [];
const runs: ScenarioRun[] = [];
const benchStarted = Date.now();
for (const scenario of selected) {
  console.log(`bench: ${scenario.name} … (load ${os.loadavg()[0]!.toFixed(1)})`);
  const notes: string[] = [];
  const started = new Date();
  const loadBefore = os.loadavg()[0]!;
  let scenarioRows: Row[];
  try {
    scenarioRows = await scenario.run({ databases, note: (line) => (console.log(`  ${line}`), notes.push(line)) });
  } catch (error) {
    // One scenario failing to run is a result to report, not a reason to lose the others.
    console.error(error);
    scenarioRows = [{ scenario: scenario.name, subject: `did not complete: ${(error as Error).message.split('\n')[0]}`, database: '-', requestsPerSecond: 0, p50Ms: 0, p99Ms: 0, non2xx: 0, pass: false }];
  }
  rows.push(...scenarioRows);
  const seconds = (Date.now() - started.getTime()) / 1000;
  runs.push({ scenario: scenario.name, rows: scenarioRows, startedAt: started.toISOString(), seconds, loadBefore, loadAfter: os.loadavg()[0]!, notes, databases: databases.map((d) => d.kind), machine: machineOf(machineLine()) });
  console.log(`  ${scenario.name} took ${seconds.toFixed(0)} s`);
}
if (pgUrl) await dropSchema(pgUrl, runSchema);
const table = renderTable(rows);
const report = `# Benchmark run\n\n${machineLine()}${quick ? ' (--quick)' : ''}; ${((Date.now() - benchStarted) / 60_000).toFixed(1)} min; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n\n${table}\n`;
fs.mkdirSync(path.join('bench', 'results'), { recursive: true });
fs.writeFileSync(path.join('bench', 'results', 'latest.md'), report);
console.log(`\n${report}`);
console.log('written to bench/results/latest.md');
if (!quick && selected.length < SCENARIOS.length && !fs.existsSync(store)) {
  // Without the figures of the earlier runs, the report would keep only this run's scenarios.
  console.log(`not written to docs/BENCHMARKS.md: ${store} (the earlier runs' figures) is missing; run every scenario once to publish`);
} else if (!quick) {
  // The published report: these scenarios' figures replace those of earlier full runs.
  const previous: ScenarioRun[] = fs.existsSync(store) ? (JSON.parse(fs.readFileSync(store, 'utf8')) as ScenarioRun[]) : [];
  const order = SCENARIOS.map((s) => s.name);
  const merged = [...previous.filter((p) => !runs.some((r) => r.scenario === p.scenario) && order.includes(p.scenario)), ...runs].sort(
    (a, b) => order.indexOf(a.scenario) - order.indexOf(b.scenario),
  );
  fs.writeFileSync(store, `${JSON.stringify(merged, null, 2)}\n`);
  publish(merged);
}
process.exit(rows.every((r) => r.pass !== false) ? 0 : 1);
