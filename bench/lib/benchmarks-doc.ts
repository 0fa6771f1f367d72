/**
 * docs/BENCHMARKS.md: the figures of one full `npm run bench`, with the machine, the date, how
 * busy the machine was, the seeding times, and a paragraph per scenario on what it measures.
 */
import { renderTable, type Row } from './report.ts';

/** What each scenario measures and how; a scenario without an entry is still tabled. */
const ABOUT: Record<string, string> = {
  healthz:
    'GET /healthz with 50 connections for the measured seconds (after a 2 s warm-up), against a fastify hello-world answering a GET in its own process. It is the floor every other figure stands on: the cost of Gatehouse\'s HTTP stack (request ids, logging, hooks) over bare fastify. Each row also gives the server\'s CPU time per request (from /proc), which moves much less than req/s on a shared machine. Target: ≥ 0.8 of the ceiling.',
  'token-client-credentials':
    'POST /token with grant_type=client_credentials and client_secret_basic, 50 connections, on a Gatehouse as it runs in production: the default log level (info: a request line each, written to a file as a log collector takes it) and rate limits on (counted in-process; the per-client budget raised to 10,000,000/s so that the one bench client is never refused, which keeps the limiter\'s cost in the figure and its refusals out). The reference is oidc-provider (the release named in its row; bench/peers/oidc-provider.ts) set up as its production equivalent doing no less than Gatehouse on the same request: client_secret_basic, opaque access tokens (Gatehouse\'s client-credentials tokens are opaque too, so neither signs a JWT) valid one hour, its own ES256 keys rather than its development keys, and a request line per request at info through pino in asynchronous 4 KiB batches to a file, with a request id in `x-request-id` (oidc-provider logs no requests by default); it keeps tokens in its in-memory adapter, its fastest store. The ceiling is the fastify hello-world taking the same form POST (the same headers and form body, parsed by @fastify/formbody as Gatehouse parses it). The reference and the ceiling stay up for the whole scenario and each database is measured in three rounds (BENCH_TOKEN_ROUNDS) of the three subjects back to back, the order turning each round; every measurement is alike: a 2 s warm-up, then the measured seconds (BENCH_SECONDS, 10), 50 connections. **The ratio** is Gatehouse\'s req/s divided by the reference\'s (or the ceiling\'s) req/s measured in the same round, and the row shows the median round\'s; every round is listed in the notes with both sides\' req/s and CPU time per request (from /proc), which moves much less than req/s on a shared machine, and the row adds the median of oidc-provider\'s CPU per request over Gatehouse\'s. A round where the reference answered anything but 2xx fails the row. Targets on both databases: ≥ 3 × oidc-provider and ≥ 0.4 × the ceiling, no non-2xx.',
  'list-invoices':
    'GET /v1/invoices?limit=100 with a bearer token over one account holding 1,000,000 invoices: the first page, then a page about a million rows deep reached with a real sealed cursor. Seeding writes the rows, each with its stored representation, straight into the store in one transaction (SQLite: prepared 1,000-row inserts without journal, the keyset index built once at the end from its own definition; PostgreSQL: the keys and indexes set aside and rebuilt once, in bulk); the seeded database is kept in bench/.cache (SQLite file, PostgreSQL schema) and reused by later runs while the schema is unchanged, so the seeding time shown is that of the run that built it. Each database is measured in three rounds of (ceiling, first page, deep page), the ceiling taking the same GET with the same bearer header, and each ratio is shown from its median round (every round is listed in the notes). Targets: deep/first p50 ≤ 1.2 on both databases (keyset paging costs the same at any depth; autocannon gives p50 in whole milliseconds, so at a p50 near 10 ms one millisecond moves the ratio by 0.1, and the CPU per request of the two rows is the finer comparison); first page ≥ 0.25 × the ceiling on SQLite and ≥ 0.12 × on PostgreSQL (whose backends take their share of the same two cores).',
  'create-payout':
    'POST /v1/payouts with a fresh Idempotency-Key per request (claim, balance debit, payout row, ledger posting, outbox event, audit record and stored response in one transaction), and with one key repeated (the stored response replayed), beside the fastify hello-world ceiling taking the same POST (the same headers and JSON body, which it parses before answering): reading a request body costs fastify about as much again as answering a GET, so the like-for-like ceiling is about half the GET one (see healthz for that). Two shapes of load, 50 connections each: one hot account (every payout debits the same balance row; `create-payout`), and a platform (`create-payout-accounts`): 1,000 accounts, each seeded with a balance straight into the store, and every request from one picked at random, so payouts of different accounts run side by side. Each row gives the server\'s CPU time per request and, on PostgreSQL, that of the database\'s backends serving its connections (found in pg_stat_activity by an `application_name` the bench sets in the URL, read from /proc/<pid>/stat before and after the measured seconds; the server\'s shared processes such as the WAL writer are not counted). The bench reaches a PostgreSQL on loopback through its Unix socket (`?host=/var/run/postgresql`) when the server has one there (BENCH_PG_TCP=1 keeps TCP). Targets: replay p50 ≤ create p50; create ≥ 0.2 × the ceiling on SQLite; on PostgreSQL one hot account ≥ 1,000 payouts/s, and over many accounts ≥ 0.06 × the ceiling with Gatehouse\'s CPU per request ≤ 1.5 × SQLite\'s.',
  'scim-filter':
    'GET /scim/v2/Users?filter=userName eq "…" over 100,000 users with a SCIM token, 10 connections (an identity provider provisioning with a few parallel workers, as Okta and Entra ID do), measured after a 3 s warm-up at the same load, against scimmy + scimmy-routers on express holding the same 100,000 users in memory (it filters by scanning; 4 connections, as each request takes about a second). The users are written straight into the store in 5,000-row transactions. Also reported: provisioning by POST /Users with 10 connections (users/s, with the server\'s CPU time per created user and, on PostgreSQL, that of its backends, measured as for create-payout) and adding one member to a 10,000-member group by PATCH. Target on SQLite: ≥ 500 × scimmy with p99 < 10 ms.',
  'webhook-throughput':
    'Events committed through the outbox and delivered by the dispatcher to a local receiver answering 204: the drain rate of a 20,000-event backlog committed in one transaction while the dispatcher runs, warmed by 2,000 untimed deliveries (deliveries/s, from that commit until every acknowledgement is recorded) against a plain undici loop POSTing the same requests (bodies and signature headers, signed once) to the same receiver with the same 16 connections (after 2,000 untimed requests of its own). Runs are paired: each drain, in a fresh process and database, is compared with the mean of a run of the loop just before it and one just after, and the table shows the pair with the median ratio of five per database (every pair is listed in the notes), since on a shared machine both sides drift by half within minutes; and commit-to-first-attempt latency (p50/p99 columns) for 1,000 events raised at a steady 200/s. Each row also gives CPU time per delivery (from /proc) of Gatehouse, of PostgreSQL\'s server processes and of the receiver over the drain, and per request of the loop and the receiver: on a machine of few cores every process shares them, so the drain cannot go faster than the cores give the sum of its CPU, and these figures move much less than deliveries/s. Targets: ≥ 0.5 × the raw loop; p50 < 50 ms, p99 < 250 ms.',
  'logging-cost':
    'What the default log level costs: POST /token (client_credentials, client_secret_basic, 50 connections) on a Gatehouse at `info`, which writes one request line per request, against the same on a Gatehouse at `warn`, which writes none, each in its own process with its standard output going to a file (as a log collector takes it). Both run for the whole scenario and are measured in nine rounds, each a 2 s warm-up and 5 s measured (BENCH_LOGGING_ROUNDS, BENCH_LOGGING_SECONDS), the two loads running at the same time from two load generators in processes of their own: on a shared machine the neighbours move req/s by far more than the difference measured, and only two sides measured over the same seconds meet the same neighbours (the two servers share the cores, so their req/s compare what a request costs each). The ratio is that of the median round, and over all rounds together (every round is listed in the notes, with CPU time per request of both), and the info process\'s log is counted after it stops to show that every request left its line. Measured on SQLite only: the grant reads no table on its path. Target: info ≥ 0.95 × warn.',
};

/** One scenario's part of a run, kept in bench/results/benchmarks.json so a later run of some scenarios replaces only theirs. */
export interface ScenarioRun {
  scenario: string;
  rows: Row[];
  /** ISO instant the scenario began. */
  startedAt: string;
  seconds: number;
  /** 1-minute load average when it began and ended. */
  loadBefore: number;
  loadAfter: number;
  notes: string[];
  databases: string[];
  /** The machine it ran on (`machineLine` without the date); absent in runs recorded before it was kept. */
  machine?: string;
}



/** The headings this file writes; any other `## ` section of the page as it stands is kept (written by hand, e.g. by bench/audit-cost.ts's reader). */
// "Measurements behind decisions" and the other sections of figures measured once are written by hand
// beside the decisions they support: a run keeps them as they stand.
const GENERATED_SECTIONS = ['## Seeding and notes', '## What each scenario measures', '## Soak', '## Reproducing'];

/** The hand-written `## ` sections of `page` (the document as it stands), in order. */
export function handWrittenSections(page: string | undefined): string[] {
  if (page === undefined) return [];
  const sections = page.split(/\n(?=## )/).slice(1);
  return sections.filter((section) => !GENERATED_SECTIONS.some((heading) => section.startsWith(heading))).map((section) => `${section.trimEnd()}\n\n`);
}

export function renderBenchmarksDoc(input: { machine: string; cores: number; runs: ScenarioRun[]; soak?: string; kept?: string[] }): string {
  const { runs } = input;
  const rows = runs.flatMap((r) => r.rows);
  const failed = rows.filter((r) => r.pass === false);
  // A scenario itself keeps about two cores busy (the server and autocannon), so only load beyond
  // that is other work.
  const peak = (r: ScenarioRun) => Math.max(r.loadBefore, r.loadAfter);
  const busyRuns = runs.filter((r) => peak(r) > input.cores + 2);
  const busiest = Math.max(...busyRuns.map(peak));
  // Ratios compare figures of one run; figures of runs on other machines are not comparable.
  const elsewhere = runs.filter((r) => r.machine !== machineOf(input.machine));
  const when = (r: ScenarioRun) =>
    `${r.startedAt.replace('T', ' ').slice(0, 16)} UTC, ${Math.round(r.seconds)} s, load ${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)}${r.machine === machineOf(input.machine) ? '' : `, on ${r.machine ?? 'an earlier machine'}`}`;
  const notes = runs.flatMap((r) => r.notes);
  return `# Benchmarks

Every figure below was measured by \`npm run bench\` on this machine (full length, not \`--quick\`);
\`bench/results/latest.md\` holds the table of the most recent run of any length. Servers and references
run in separate processes from the load generator (autocannon), and each scenario measures its reference
in the same run, so every ratio compares figures taken minutes apart on the same machine. Every ceiling is
a fastify hello-world built on the fastify release Gatehouse runs (the project's own node_modules; its row
names the release) and takes the same kind of request as the route it is compared with: a GET for
\`/healthz\` and the lists, a JSON POST for create-payout, a form POST for \`/token\`.

- Machine: ${input.machine}
- Databases: ${[...new Set(runs.flatMap((r) => r.databases))].join(', ')}
- When each scenario ran (and the 1-minute load average as it began and ended):
${runs.map((r) => `  - ${r.scenario}: ${when(r)}`).join('\n')}${busyRuns.length > 0 ? `\n- **The machine was busy** during ${busyRuns.map((r) => r.scenario).join(', ')}: its ${input.cores} cores were shared with other work (load average up to ${busiest.toFixed(1)}), so absolute req/s are low and noisy; the ratios to a reference measured in the same run are the figures to read, and the CPU time per request where a row gives it.` : ''}${elsewhere.length > 0 ? `\n- **Not from this machine**: ${elsewhere.map((r) => r.scenario).join(', ')} (see above); compare its ratios, not its absolute figures, with the other rows.` : ''}
- Result: ${failed.length === 0 ? 'every target met' : `${failed.length} row(s) below target: ${failed.map((r) => `${r.scenario} (${r.database})`).join(', ')}`}

${renderTable(rows)}

Columns: req/s is the mean over the measured seconds; p50/p99 are request latencies in ms; peak RSS is the
server process's highest resident memory (VmRSS from /proc, sampled every 250 ms); the ratio is the figure the
target applies to.

${notes.length ? `## Seeding and notes\n\n${notes.map((n) => `- ${n}`).join('\n')}\n\n` : ''}## What each scenario measures

${runs.map((r) => r.scenario).map((s) => `### ${s}\n\n${ABOUT[s] ?? 'See its file in bench/scenarios/.'}`).join('\n\n')}
${runs.some((r) => r.scenario === 'create-payout') ? '' : '\n### create-payout\n\nNot in this run: the scenario is not registered in bench/run.ts in this build.\n'}
${input.soak ? `## Soak (the last \`npm run soak\` on this machine)\n\n${input.soak.replace(/^# Soak run\n\n/, '').trim()}\n\n` : ''}${(input.kept ?? []).join('')}## Reproducing

\`\`\`
BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench          # full run, writes this file
BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- --quick   # short check, latest.md only
npm run bench -- list-invoices scim-filter                                          # some scenarios
npm run bench -- --render                                                           # this file again from bench/benchmarks.json
\`\`\`

\`BENCH_SECONDS\` sets each measurement's length (default 10); without a PostgreSQL URL only SQLite is measured.
\`npm run soak\` is the long-running counterpart (memory and errors over minutes): see bench/results/soak.md.
`;
}

/** The machine line without its date: runs on one machine on different days are on the same machine. */
export function machineOf(line: string): string {
  return line.replace(/, \d{4}-\d{2}-\d{2}$/, '');
}
