/**
 * The walk-throughs of docs/, run as a newcomer runs them, in the order the pages give, from a
 * fresh start (an empty data directory and database), on each database: every ```sh block of
 * each page in one bash session against a real `gatehouse serve` (test/helpers/walkthrough.ts).
 * The server is started as `npm start` starts it, and again with the settings a page gives; the
 * webhook receiver is the page's own snippet, saved as the page says. The steps a person does in
 * a browser (the OAuth sign-ins and consents of OAUTH.md and AUDIT.md) are done in Chromium, and
 * their result (the code in the address bar) is given to the shell where the page says so. What a
 * page states about stored state (AUDIT.md: a deleted person's details are gone) is read from the
 * database.
 *
 * docs/OPERATIONS.md is not among them: its blocks deploy onto other hosts (db, node1…) and
 * are checked by the tests of each command instead.
 */
import path from 'node:path';
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';
import { describeIf, NEEDS_POSTGRES, type DatabaseTarget, databaseTargets } from '../helpers/databases.ts';
import { until } from '../helpers/until.ts';
import { Walkthrough, type PersonStep } from '../helpers/walkthrough.ts';
import { openDatabase } from '../../src/platform/db/database.ts';

const PAGES = ['PAYMENTS.md', 'IDEMPOTENCY.md', 'WEBHOOKS.md', 'SCIM.md', 'OAUTH.md', 'AUDIT.md'];

const chromiumLookup = findChromium();
const skip = skipWithoutChromium(chromiumLookup);

/** Lines the page's webhook receiver printed (it runs in the background of the session). */
/**
 * The receiver's lines (`new|again <type> <id> <state> <delivery id>`). The receiver shares the
 * session's output, so a line of its may follow, on the same line, a command's output that ends
 * without a newline (the redelivery's 202 races the redelivery itself): it is read at a line's end.
 */
const RECEIVER_LINE = /\b(?:new|again) \S+ \S+ \S+ dlv_\w+$/;
const receiverLines = (walk: Walkthrough) => walk.stdout.split('\n').flatMap((l) => RECEIVER_LINE.exec(l)?.[0] ?? []);

/** A person who signs in at a printed authorization URL: the page, the block printing it, who, and the state the page sent. */
interface SignIn {
  page: string;
  after: RegExp;
  username: string;
  password: string;
  state: string;
  /** The page has the person give the code to the shell (a ```text block `CODE=…`). */
  givesCode: boolean;
}

/** OAUTH.md §3 and AUDIT.md §3: open the printed URL, sign in as the page's person, allow, and give the shell the code if the page asks. */
function signInStep(browser: () => Browser, who: SignIn): PersonStep {
  return {
    page: who.page,
    after: who.after,
    run: async (walk, output) => {
      const url = /http:\/\/\S+\/authorize\?\S+/.exec(output)?.[0];
      assert.ok(url, `the authorization URL was printed: ${output}`);
      const context = await browser().newContext();
      try {
        const page = await context.newPage();
        // Nothing listens at the redirect URI, as the page says: the address bar is what counts.
        let arrived: URL | undefined;
        await page.route('http://localhost:3000/**', async (route) => {
          arrived = new URL(route.request().url());
          await route.fulfill({ status: 404, body: 'nothing here' });
        });
        await page.goto(url);
        await page.getByLabel('Username').fill(who.username);
        await page.getByLabel('Password').fill(who.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
        await page.getByRole('button', { name: 'Allow' }).click();
        await until(() => arrived !== undefined, 30_000, 'the redirect to the callback');
        assert.equal(arrived!.searchParams.get('state'), who.state);
        assert.equal(arrived!.searchParams.get('iss'), walk.gatehouse.url);
        const code = arrived!.searchParams.get('code');
        assert.match(code ?? '', /^gh_ac_/);
        if (who.givesCode) await walk.shell(`CODE=${code}`, 'the code from the address bar');
      } finally {
        await context.close();
      }
    },
  };
}

const ADA: SignIn = { page: 'OAUTH.md', after: /echo "http:\/\/localhost:8080\/authorize\?/, username: 'ada@example.com', password: 'correct horse battery', state: 'xyz123', givesCode: true };
const GRACE: SignIn = { page: 'AUDIT.md', after: /echo "http:\/\/localhost:8080\/authorize\?/, username: 'grace@acme.example', password: 'a long enough password', state: 'grace1', givesCode: false };

/** The audit events the receiver printed, `[new|again, type]`. */
const auditLines = (walk: Walkthrough) => receiverLines(walk).map((l) => l.split(' ').slice(0, 2)).filter(([, type]) => type!.startsWith('audit.'));

/** AUDIT.md §5: the person watches the SIEM's receiver print the records of §3 (they stream as they are chained). */
function watchAuditStep(after: RegExp, expected: (lines: string[][]) => boolean, what: string): PersonStep {
  return {
    page: 'AUDIT.md',
    after,
    // Records stream a second or two after their change; a loaded machine (CI) may take longer.
    run: async (walk) => {
      try {
        await until(() => expected(auditLines(walk)), 60_000, what);
      } catch (error) {
        // What the events say of their deliveries, to tell a slow delivery from a lost one.
        const events = await walk.shell(walk.localise(`curl -s "http://localhost:8080/v1/events?limit=100" -H "Authorization: Bearer $SIEM_TOKEN"`), 'events?');
        throw new Error(`${(error as Error).message}; the receiver printed ${JSON.stringify(auditLines(walk))}; events: ${events}`, { cause: error });
      }
    },
  };
}

const AUDITED = ['audit.scim.user.created', 'audit.client.updated', 'audit.invoice.created', 'audit.signin.succeeded', 'audit.consent.granted'];

/** WEBHOOKS.md §4: the person watches the receiver print (and the delivery be recorded) before going on. */
function watchReceiverStep(after: RegExp, count: number): PersonStep {
  return {
    page: 'WEBHOOKS.md',
    after,
    run: async (walk) => {
      await until(() => receiverLines(walk).length >= count, 30_000, `the receiver to print event ${count}`);
      // The receiver prints as it answers; the delivery is recorded acknowledged just after.
      await until(
        async () => {
          const acknowledged = await walk.shell(walk.localise(`curl -s "http://localhost:8080/v1/events?delivery_state=acknowledged" -H "Authorization: Bearer $TOKEN"`), 'acknowledged?');
          return (JSON.parse(acknowledged) as { data: unknown[] }).data.length >= count;
        },
        30_000,
        `event ${count} recorded as acknowledged`,
      );
    },
  };
}

/** The JSON values printed one after another (curl -s ends its output with no newline). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start)) {
    let depth = 0;
    let inString = false;
    let end = start;
    for (; end < text.length; end++) {
      const c = text[end];
      if (inString) {
        if (c === '\\') end++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) break;
    }
    values.push(JSON.parse(text.slice(start, end + 1)));
    start = end + 1;
  }
  return values;
}

/** The lines a block printed, without those of the receiver running in the background of the session. */
const lines = (output: string) => output.split('\n').filter((l) => l.trim() !== '' && !/^(new|again) /.test(l));

/** AUDIT.md §6, in the stored state: the deleted person's row is gone and nothing stored for the account names her. */
async function assertForgotten(walk: Walkthrough, account: string, userId: string): Promise<void> {
  const opened = await openDatabase({ databaseUrl: walk.databaseUrl(path.join(walk.dir, 'data')) });
  try {
    const { db } = opened;
    assert.equal((await db.selectFrom('users').select('id').where('id', '=', userId).execute()).length, 0);
    const events = await db.selectFrom('events').select(['type', 'payload']).where('account_id', '=', account).execute();
    assert.ok(events.some((e) => e.type === 'audit.scim.user.created'), 'her records were streamed');
    const aboutHer = await db.selectFrom('audit_events').select(['action', 'changes', 'detached_at']).where('account_id', '=', account).where('target_id', '=', userId).execute();
    assert.ok(aboutHer.filter((r) => r.action !== 'scim.user.deleted').every((r) => r.changes === null && r.detached_at !== null), JSON.stringify(aboutHer));
    for (const personal of ['grace@acme.example', 'okta-1906', 'Grace Hopper']) {
      assert.ok(!events.some((e) => e.payload.includes(personal)), `${personal} is gone from the stored events`);
      assert.ok(!aboutHer.some((r) => String(r.changes).includes(personal)), `${personal} is gone from the records`);
    }
  } finally {
    await opened.close();
  }
}

function walkthroughSuite(target: DatabaseTarget): void {
  let walk: Walkthrough;
  let browser: Browser | undefined;
  let database: { url: string; drop(): Promise<void> };
  before(async () => {
    database = await target.create();
    walk = new Walkthrough((dataDir) => (target.kind === 'sqlite' ? `sqlite:${dataDir}/gatehouse.db` : database.url));
    if (!skip) {
      browser = await chromium.launch({ executablePath: chromiumExecutable(chromiumLookup), args: ['--no-sandbox', '--headless', '--disable-background-networking'] });
    }
  });
  after(async () => {
    await browser?.close();
    await walk?.stop();
    await database?.drop();
  });

  it('every page, every block, in order: each step answers as its page says', { skip, timeout: 200_000 }, async () => {
    await walk.start();
    await walk.runPages(PAGES, [
      watchReceiverStep(/^settle_invoice\(\) \{/m, 1),
      // After the recovery: the parked event arrives once.
      { page: 'WEBHOOKS.md', after: /\/recover"/, run: (w) => until(() => receiverLines(w).length >= 2, 30_000, 'the recovered event') },
      signInStep(() => browser!, ADA),
      signInStep(() => browser!, GRACE),
      watchAuditStep(/admin\/v1\/audit-events\?account=/, (lines) => AUDITED.every((type) => lines.some(([seen, t]) => seen === 'new' && t === type)), 'the receiver to print the records of §3'),
      watchAuditStep(/\/redeliver\b/, (lines) => lines.some(([seen, t]) => seen === 'again' && t === 'audit.client.updated'), 'the record sent again'),
    ]);

    // PAYMENTS: the invoice settles, the payout is made, the pages and the ledger read.
    assert.match(walk.output('PAYMENTS.md', '/settle"'), /"state":"settled"/);
    assert.match(walk.output('PAYMENTS.md', 'sleep 6'), /"object":"payout"/);
    assert.match(walk.output('PAYMENTS.md', 'while :'), /"state":"settled"/);
    assert.match(walk.output('PAYMENTS.md', 'ledger_account=balance'), /"ledger_account":"balance"/);

    // IDEMPOTENCY: its own invoice funds the payout, which is made once and replayed after.
    assert.match(walk.output('IDEMPOTENCY.md', '"amount": 10000, "currency": "EUR"}'), /^settled$/m);
    const payouts = walk.output('IDEMPOTENCY.md', 'payout()');
    assert.match(payouts, /HTTP\/1\.1 201 Created/);
    assert.match(payouts, /idempotent-replay: true/i);
    assert.doesNotMatch(payouts, /insufficient_funds/);
    assert.match(walk.output('IDEMPOTENCY.md', '"amount": 9999'), /idempotency_key_reused/);
    assert.match(walk.output('IDEMPOTENCY.md', '"amount": 50000'), /insufficient_funds/);

    // WEBHOOKS: registered; delivered and verified (the receiver answers 400 to what does not
    // verify, and prints only what does); parked while the receiver is down; recovered once.
    assert.match(await walk.variable('ENDPOINT'), /^we_/);
    assert.match(await walk.variable('WEBHOOK_SECRET'), /^whsec_/);
    assert.match(walk.output('WEBHOOKS.md', 'settle_invoice()'), /^inv_\S+ settled$/m);
    const outage = walk.output('WEBHOOKS.md', 'kill $RECEIVER');
    const [parked, attempts] = jsonValues(outage) as Array<{ data: Array<{ id: string; event_id: string; outcome: string; error: string | null }> }>;
    assert.equal(parked!.data.length, 1, outage);
    const failed = attempts!.data.filter((a) => a.event_id === parked!.data[0]!.id && a.outcome === 'failed');
    assert.equal(failed.length, 4, `the first attempt and three retries: ${outage}`);
    assert.ok(failed.every((a) => String(a.error).includes('ECONNREFUSED')), JSON.stringify(failed));
    assert.equal(new Set(failed.map((a) => a.id)).size, 4, 'every attempt has its own Delivery-Id');
    assert.match(walk.output('WEBHOOKS.md', '/recover"'), /"object":"recovery"[^\n]*"requeued":1/);
    assert.deepEqual(
      receiverLines(walk).map((l) => l.split(' ').slice(0, 2).join(' ')).filter((l) => !l.includes(' audit.')),
      ['new invoice.settled', 'new invoice.settled'],
      'each event arrived verified, once',
    );

    // SCIM: its own account and token; the user is created and found; the role is made.
    assert.match(walk.output('SCIM.md', 'SCIM_TOKEN=$('), /"id":"scimtok_/); // the list
    const scim = walk.output('SCIM.md', 'filter=userName');
    assert.match(scim, /"userName":"ann@contoso.com"/);
    assert.match(scim, /"totalResults":1/);
    assert.match(walk.output('SCIM.md', '/roles'), /"name":"finance"/);

    // OAUTH: a client-credentials token, introspected, revoked; the code flow through the browser, then a refresh.
    assert.match(walk.output('OAUTH.md', '-d scope=invoices:read'), /"token_type":"Bearer"[^\n]*"scope":"invoices:read"/);
    const check = walk.output('OAUTH.md', '/introspect');
    assert.match(check, /\{"active":true,[^\n]*/);
    assert.match(check, /\{"active":false/);
    const [tokens] = jsonValues(walk.output('OAUTH.md', 'grant_type=authorization_code')) as Array<Record<string, string>>;
    assert.match(tokens!.refresh_token!, /^gh_rt_/);
    assert.equal(tokens!.scope, 'invoices:read ledger:read');
    assert.match(walk.output('OAUTH.md', 'grant_type=refresh_token'), /"access_token":"gh_at_/);
    // A closed account: its tombstone is read, its routes are gone.
    assert.match(walk.output('OAUTH.md', '$CLOSING/clients'), /^204\n\{"name":"Short-lived","closed_at":"\d{4}-\d\d-\d\dT[\d:.]+Z"\}\naccount_not_found$/m);

    // AUDIT: a change by each kind of actor, found by actor with the actor's name.
    const account = await walk.variable('ACCOUNT');
    const grace = await walk.variable('GRACE');
    assert.match(grace, /^usr_/);
    assert.deepEqual(lines(walk.output('AUDIT.md', 'actors() {')), [
      '["consent.granted","user","Grace Hopper"]',
      '["signin.succeeded","user","Grace Hopper"]',
      '["invoice.created","client","Books v2"]',
      '["scim.user.created","scim_token","Okta"]',
      '["client.updated","admin","Operator (admin API)"]',
    ]);
    // The SIEM's receiver printed each, verified (it answers 400 to what does not verify and prints
    // nothing), and the one sent again under the same Event-Id.
    const streamed = auditLines(walk).map((l) => l.join(' '));
    for (const type of AUDITED) assert.ok(streamed.includes(`new ${type}`), `${type} in ${streamed.join(', ')}`);
    assert.match(walk.output('AUDIT.md', '/redeliver'), /"object":"redelivery"[^\n]*"requeued":1/);
    assert.ok(streamed.includes('again audit.client.updated'), streamed.join(', '));
    const sent = receiverLines(walk).filter((l) => / audit\.client\.updated /.test(l)).map((l) => l.split(' '));
    assert.equal(sent.length, 2, 'sent once, and once again on request');
    assert.equal(sent[0]![2], sent[1]![2], 'the same event');
    assert.notEqual(sent[0]![4], sent[1]![4], 'a new Delivery-Id');
    // Deactivated: her name stays; deleted: her records keep her id, lose her name, and those about her are detached.
    assert.deepEqual(lines(walk.output('AUDIT.md', '"path":"active"')), [
      '{"active":false}',
      '["Grace Hopper","Grace Hopper"]',
      '204',
      '[null,null]',
      '["scim.user.deleted",false,null]',
      '["scim.user.deactivated",true,null]',
      '["signin.succeeded",true,null]',
      '["scim.user.created",true,null]',
    ]);
    // The command line exports the trail and verifies it; after the edit behind its back, verify exits 4 naming the record.
    const exported = walk.output('AUDIT.md', 'audit export');
    for (const record of ['["client.updated","admin","Operator (admin API)"]', '["consent.granted","user",null]', '["scim.user.deleted","scim_token","Okta"]']) assert.ok(exported.includes(record), `${record} in ${exported}`);
    assert.match(exported, new RegExp(`^ok   ${account}: \\d+ records`, 'm'));
    const [altered, seq] = (await walk.shell(walk.localise(`curl -s -H "Authorization: Bearer $ADMIN" "http://127.0.0.1:8081/admin/v1/audit-events?account=$ACCOUNT&action=client.updated" | jq -r '.data[0] | "\\(.id) \\(.seq)"'`), 'the altered record')).trim().split(' ');
    const tampered = walk.output('AUDIT.md', 'db() {');
    assert.match(tampered, new RegExp(`^FAIL ${account}\\b.*\\n  altered at ${seq} \\(${altered}\\)`, 'm'));
    assert.match(tampered, /^exit status 4$/m);
    // What the runner cannot see: her name, e-mail and externalId are gone from the database, the stored webhook bodies included.
    await assertForgotten(walk, account, grace);

    // No step failed silently: nothing was refused as unauthenticated or malformed.
    for (const run of walk.runs) assert.doesNotMatch(run.output, /"invalid_client"|"unauthorized"|malformed_/, `${run.block.page} block ${run.block.index}`);
  });
}

const [sqlite, postgres] = [databaseTargets().find((t) => t.kind === 'sqlite'), databaseTargets().find((t) => t.kind === 'postgres')];
describeIf(sqlite, 'always present', 'the walk-throughs of docs/, from a fresh start (sqlite)', walkthroughSuite);
describeIf(postgres, NEEDS_POSTGRES, 'the walk-throughs of docs/, from a fresh start (postgres)', walkthroughSuite);
