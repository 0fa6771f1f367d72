/**
 * The walk-throughs of docs/, run as a newcomer runs them, in the order the pages give, from a
 * fresh start (an empty data directory and database), on each database: every ```sh block of
 * each page in one bash session against a real `gatehouse serve` (test/helpers/walkthrough.ts).
 * The server is started as `npm start` starts it, and again with the settings a page gives; the
 * webhook receiver is the page's own snippet, saved as the page says. The one step a person
 * does in a browser (the OAuth sign-in and consent) is done in Chromium, and its result (the
 * code in the address bar) is given to the shell as the page says.
 *
 * docs/OPERATIONS.md is not among them: its blocks deploy onto other hosts (db, node1…) and
 * are checked by the tests of each command instead.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';
import { describeIf, NEEDS_POSTGRES, type DatabaseTarget, databaseTargets } from '../helpers/databases.ts';
import { until } from '../helpers/until.ts';
import { Walkthrough, type PersonStep } from '../helpers/walkthrough.ts';

const PAGES = ['PAYMENTS.md', 'IDEMPOTENCY.md', 'WEBHOOKS.md', 'SCIM.md', 'OAUTH.md', 'AUDIT.md'];

const chromiumLookup = findChromium();
const skip = skipWithoutChromium(chromiumLookup);

/** Lines the page's webhook receiver printed (it runs in the background of the session). */
const receiverLines = (walk: Walkthrough) => walk.stdout.split('\n').filter((l) => /^(new|again) /.test(l));

/** OAUTH.md §3: open the printed URL, sign in as the page's person, allow, and give the shell the code. */
function signInStep(browser: () => Browser): PersonStep {
  return {
    page: 'OAUTH.md',
    after: /echo "http:\/\/localhost:8080\/authorize\?/,
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
        await page.getByLabel('Username').fill('ada@example.com');
        await page.getByLabel('Password').fill('correct horse battery');
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Allow access?' }).waitFor();
        await page.getByRole('button', { name: 'Allow' }).click();
        await until(() => arrived !== undefined, 30_000, 'the redirect to the callback');
        assert.equal(arrived!.searchParams.get('state'), 'xyz123');
        assert.equal(arrived!.searchParams.get('iss'), walk.gatehouse.url);
        const code = arrived!.searchParams.get('code');
        assert.match(code ?? '', /^gh_ac_/);
        await walk.shell(`CODE=${code}`, 'the code from the address bar');
      } finally {
        await context.close();
      }
    },
  };
}

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
      signInStep(() => browser!),
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
      receiverLines(walk).map((l) => l.split(' ').slice(0, 2).join(' ')),
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

    // No step failed silently: nothing was refused as unauthenticated or malformed.
    for (const run of walk.runs) assert.doesNotMatch(run.output, /"invalid_client"|"unauthorized"|malformed_/, `${run.block.page} block ${run.block.index}`);
  });
}

const [sqlite, postgres] = [databaseTargets().find((t) => t.kind === 'sqlite'), databaseTargets().find((t) => t.kind === 'postgres')];
describeIf(sqlite, 'always present', 'the walk-throughs of docs/, from a fresh start (sqlite)', walkthroughSuite);
describeIf(postgres, NEEDS_POSTGRES, 'the walk-throughs of docs/, from a fresh start (postgres)', walkthroughSuite);
