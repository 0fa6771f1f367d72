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
}

/**
 * Figures measured once, on the way to a decision in docs/DECISIONS.md: kept here with the run they
 * come from, since each was one run on a shared machine, while the decision states what was chosen.
 */
const DECISION_MEASUREMENTS = `## Measurements behind decisions

Each figure is from one run on this kind of shared machine (2 cores, other work beside it); the
decision it supported is in docs/DECISIONS.md under the name given.

- **Identifiers** (time-ordered ids): on SQLite, create-payout went from 2,975 to 3,297 req/s in one run.
- **The deliveries still to be attempted are a table of their own** (migration 0505): recording outcomes
  went from 28 to 20–22 µs of CPU per delivery on PostgreSQL; claiming stayed at 23–27 µs (25–26 when it
  leased delivery rows); SQLite unchanged at 11–13 µs each. In a 20,000-delivery loop every
  acknowledgement was a HOT update.
- **The attempt log's key** (migration 0506): on SQLite, one prepared statement run per attempt instead of
  one JSON parameter took recording from about 11 to 9 µs per delivery.
- **Request metrics bound once**: prom-client's label children cost about 1.5 µs of CPU per request, a
  twentieth of a whole \`/healthz\`.
- **Attempts are sent from the event loop** (a sender thread, rejected): the main thread's CPU per
  delivery fell from about 55 to 27 µs, the process's total rose by 10 to 20 µs, and the drain was no
  faster within the machine's noise.
- **The loop reference is mostly the kernel's**: in one full run the undici loop cost 26 µs per request
  and Gatehouse 54 µs per delivery on SQLite (0.50 × the loop; PostgreSQL 0.44); in another, hours later
  on a slower machine (and after migration 0506 saved Gatehouse about 2 µs), 48 and 70 (0.66; PostgreSQL
  0.56); in a third, in between, 38 and 61 (0.61; PostgreSQL 0.54).

`;

/**
 * The PostgreSQL payout work: each step's quick run (figures from one run each, on the shared
 * machine), the driver comparison and what was not kept; docs/DECISIONS.md gives the decisions.
 */
const POSTGRES_PAYOUTS = `## PostgreSQL payouts: the steps, and what was not kept

Quick runs (\`npm run bench -- --quick create-payout\`: 3 s per measurement, 50 connections) while other
work shared the machine (1-minute load in brackets), so compare the figures within a row; CPU is µs per
request of Gatehouse + PostgreSQL's backends serving it.

| step | one account (PostgreSQL) | 1,000 accounts (PostgreSQL) | 1,000 accounts, Gatehouse CPU × SQLite's |
|---|---|---|---|
| before: 12 statements per request over TCP (load 7) | 301/s, 2,417 + 1,829 | 594/s, 1,105 + 1,200 | 2.39 |
| one statement per payout, group commit by account, TCP (load 9) | 369/s, 1,573 + 877 | 579/s, 974 + 812 | 2.05 |
| the same through the Unix socket (load 9) | 74/s, 2,422 + 1,211 (savepoints released) | 423/s, 773 + 789 | 1.76 |
| the claim completed in the payout's statement (load 12) | 594/s, 1,067 + 719 | 874/s, 778 + 694 | 1.52 |
| batches without savepoints unless a work fails (load 7) | 409/s, 1,010 + 708 | 642/s, 743 + 779 | 1.88 |
| the fan-out in the statement; a payout alone without BEGIN and COMMIT (load 5–8; the ceiling at half its quiet rate) | 353/s, 1,445 + 1,010 | 479/s, 814 + 946 | 1.97 |
| the same, full-length run on the quiet machine (load 0.1 → 3.7; the table above) | 750/s, 767 + 740 | 799/s, 652 + 799 | 1.47 |

The statements of one payout request, counted at the driver (\`test/payments/payout-statements-postgres.test.ts\`):
12 before (the bearer token's lookup, the claim, BEGIN, the claim's proof, payout, postings, event,
endpoints, audit record, debit, completion, COMMIT), 3 now (the lookup, the claim, and the payout's one
statement, which commits on its own, or inside its account's batch).
Below the HTTP layer, 50 concurrent payouts of one account through the stores and the group commit
(\`createGroupCommit\` keyed by account, socket) ran at 336/s with a savepoint released after each work
(load 11), 463–792/s with nested savepoints (load 9–11) and 1,119/s with no savepoint unless a work
fails (load 7), at 363 µs of the client's CPU per payout. Over 1,000 accounts the same loop took 540 µs of
the client's CPU per payout with BEGIN and COMMIT around the payout's statement and 416 µs without them
(load 7, one run each). A round trip costs this machine's kernel most:
in the profiles, \`writev\` to the database's socket is a fifth to a quarter of the server's CPU (each
write wakes the backend on the other core).

**Driver: pg against postgres.js** (3.4.9, through \`kysely-postgres-js\` 3.0.0, the release for Kysely 0.28;
its queries made prepared, as pg's named statements are), on the payout path itself (claim; BEGIN; the
payout's statement; the claim's completion; COMMIT, through Gatehouse's stores, without the group commit;
10 workers; 1,500 payouts each; load 4–5, one run; by a script over a scratch install of both packages,
not kept, as the project does not depend on postgres.js):

| transport | driver | 1,000 accounts | client CPU/payout | PostgreSQL CPU/payout | one account | client CPU/payout |
|---|---|---:|---:|---:|---:|---:|
| TCP | pg | 1,023/s | 568 µs | 733 µs | 627/s | 689 µs |
| TCP | postgres.js | 1,062/s | 672 µs | 727 µs | 599/s | 733 µs |
| socket | pg | 1,068/s | 444 µs | 767 µs | 288/s | 668 µs |
| socket | postgres.js | 865/s | 561 µs | 787 µs | 226/s | 900 µs |

An earlier run of the same comparison (load 9, before the payout's statement took in the claim's
completion and the fan-out) gave the same order: pg 503/369 µs of client CPU per payout (TCP/socket),
postgres.js 604/452 µs.

Not kept:
- **postgres.js**: no faster (Kysely awaits every statement, so its pipelining never applies) and 5–35 %
  more client CPU; it serialised a JSON text bound to a \`json\` parameter as a JSON string (the payout statement
  failed until its json type was overridden), and the error codes, pool gauge, LISTEN and named statements
  would all need porting.
- **Releasing each savepoint** (two commands per request in a batch): savepoints nest instead, and are
  taken only when a work of the batch fails.
- **Proving the claim at the start of the transaction**: its completion's compare-and-set at the end
  proves the same, one round trip fewer.
- **Choosing the socket on its own**: a socket at the default path may be another server's; the
  operator writes it in the URL (docs/OPERATIONS.md), the bench does on this machine.
- **Caching a bearer token's lookup**: one round trip per request, kept, because a revoked token or a
  deactivated person must stop working on the next request on every node.
- **The endpoints read by the payout's statement, the fan-out written after it** (an intermediate step):
  an account with endpoints paid two more round trips and needed BEGIN and COMMIT; the fan-out is now
  part of the statement, its delivery ids' random part drawn by PostgreSQL.

`;

/** The headings this file writes; any other `## ` section of the page as it stands is kept (written by hand, e.g. by bench/audit-cost.ts's reader). */
const GENERATED_SECTIONS = ['## Seeding and notes', '## What each scenario measures', '## Soak', '## Measurements behind decisions', '## PostgreSQL payouts', '## Reproducing'];

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
  const busiest = Math.max(...runs.map((r) => Math.max(r.loadBefore, r.loadAfter)));
  // A scenario itself keeps about two cores busy (the server and autocannon), so only load beyond
  // that is other work.
  const busy = busiest > input.cores + 2;
  const when = (r: ScenarioRun) => `${r.startedAt.replace('T', ' ').slice(0, 16)} UTC, ${Math.round(r.seconds)} s, load ${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)}`;
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
${runs.map((r) => `  - ${r.scenario}: ${when(r)}`).join('\n')}${busy ? `\n- **The machine was busy**: its ${input.cores} cores were shared with other work (load average up to ${busiest.toFixed(1)}), so absolute req/s are low and noisy; the ratios to a reference measured in the same run are the figures to read, and the CPU time per request where a row gives it.` : ''}
- Result: ${failed.length === 0 ? 'every target met' : `${failed.length} row(s) below target: ${failed.map((r) => `${r.scenario} (${r.database})`).join(', ')}`}

${renderTable(rows)}

Columns: req/s is the mean over the measured seconds; p50/p99 are request latencies in ms; peak RSS is the
server process's highest resident memory (VmRSS from /proc, sampled every 250 ms); the ratio is the figure the
target applies to.

${notes.length ? `## Seeding and notes\n\n${notes.map((n) => `- ${n}`).join('\n')}\n\n` : ''}## What each scenario measures

${runs.map((r) => r.scenario).map((s) => `### ${s}\n\n${ABOUT[s] ?? 'See its file in bench/scenarios/.'}`).join('\n\n')}
${runs.some((r) => r.scenario === 'create-payout') ? '' : '\n### create-payout\n\nNot in this run: the scenario is not registered in bench/run.ts in this build.\n'}
${input.soak ? `## Soak (the last \`npm run soak\` on this machine)\n\n${input.soak.replace(/^# Soak run\n\n/, '').trim()}\n\n` : ''}${DECISION_MEASUREMENTS}${POSTGRES_PAYOUTS}${(input.kept ?? []).join('')}## Reproducing

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
