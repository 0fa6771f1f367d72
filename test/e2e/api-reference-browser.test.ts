/**
 * /docs in a real browser, on both listeners: the API reference renders from this server alone
 * (every request the page makes stays on the origin, nothing breaks its CSP), lists the
 * operations, finds one by search, shows schemas and examples, and opens the request client.
 * With GATEHOUSE_SCREENSHOTS=1 it writes the screenshots docs/ shows (docs/images/).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumExecutable, findChromium, skipWithoutChromium } from '../helpers/browser.ts';
import { databaseTargets } from '../helpers/databases.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const chromiumLookup = findChromium();
const skip = skipWithoutChromium(chromiumLookup);
const screenshots = process.env.GATEHOUSE_SCREENSHOTS === '1';

/** Opens /docs, recording every request that left the origin and every console error. */
async function openReference(browser: Browser, base: string): Promise<{ page: Page; offOrigin: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const offOrigin: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(base) && !url.startsWith('data:') && !url.startsWith('blob:')) offOrigin.push(url);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${base}/docs`);
  return { page, offOrigin, errors };
}

const target = databaseTargets()[0]!;
describe('the API reference at /docs, in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    if (skip) return; // so are the tests
    const executablePath = chromiumExecutable(chromiumLookup);
    t = await startTestApp(target);
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--headless', '--disable-background-networking'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('public listener: operations, schemas, examples, search and the request client, all from this origin', { skip }, async () => {
    const { page, offOrigin, errors } = await openReference(browser, t.publicUrl);
    await page.getByRole('heading', { name: 'Gatehouse API' }).first().waitFor({ timeout: 30_000 });

    // Search finds an operation by its words.
    await page.getByText('Search').first().click();
    await page.keyboard.type('payout');
    await page.getByText('Create a payout (state pending)').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');

    // An operation shows its parameters, body schema and example.
    await page.getByText('invoices', { exact: true }).first().click();
    await page.getByText('Create an invoice (state open)').first().click();
    await page.getByText('Idempotency-Key').first().waitFor({ timeout: 10_000 });
    await page.getByText('currency').first().waitFor();
    if (screenshots) await page.screenshot({ path: 'docs/images/api-reference.png', animations: 'disabled' });

    // The request client opens (try it).
    const tryIt = page.getByRole('button', { name: /test request/i }).first();
    await tryIt.waitFor({ timeout: 10_000 });
    await tryIt.click();
    await page.getByRole('button', { name: /send/i }).first().waitFor({ timeout: 10_000 });
    if (screenshots) await page.screenshot({ path: 'docs/images/api-reference-try-it.png', animations: 'disabled' });

    assert.deepEqual(offOrigin, []);
    assert.deepEqual(errors.filter((e) => /content security policy|refused to/i.test(e)), []);
    await page.close();
  });

  it('admin listener: the admin document renders the same way', { skip }, async () => {
    const { page, offOrigin, errors } = await openReference(browser, t.adminUrl);
    await page.getByRole('heading', { name: 'Gatehouse admin API' }).first().waitFor({ timeout: 30_000 });
    await page.getByText('accounts', { exact: true }).first().click();
    await page.getByText('Create an account (a tenant)').first().waitFor({ timeout: 10_000 });
    if (screenshots) await page.screenshot({ path: 'docs/images/admin-api-reference.png', animations: 'disabled' });
    assert.deepEqual(offOrigin, []);
    assert.deepEqual(errors.filter((e) => /content security policy|refused to/i.test(e)), []);
    await page.close();
  });

  it('the page and its scripts carry a CSP that allows this origin only, and /docs/errors keeps an anchor per code', { skip }, async () => {
    const page = await fetch(`${t.publicUrl}/docs`);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /connect-src 'self'(;|$)/);
    assert.doesNotMatch(await page.text(), /<script>[^<]/);
    const bundle = await fetch(`${t.publicUrl}/docs/scalar.js`);
    assert.equal(bundle.status, 200);
    assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
    const catalogue = await (await fetch(`${t.publicUrl}/docs/errors`)).text();
    assert.ok(catalogue.includes('id="error-validation_failed"'));
  });
});
