/** Shared set-up for the OAuth suites: clients and users made through the admin API. */
import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.ts';
import type { Json } from '../helpers/http.ts';
import { createAccount } from '../helpers/fixtures.ts';

export const REDIRECT_URI = 'http://127.0.0.1:9/callback';

export async function registerClient(t: TestApp, accountId: string, metadata: Record<string, unknown>): Promise<Json> {
  const response = await t.admin('POST', `/admin/v1/accounts/${accountId}/clients`, metadata);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

export async function createUser(t: TestApp, accountId: string, userName = 'ada', password = 'correct horse battery'): Promise<Json> {
  const response = await t.admin('POST', `/admin/v1/accounts/${accountId}/users`, { userName, password, name: { givenName: 'Ada', familyName: 'Lovelace' } });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* HTML or empty */
  }
  return { status: response.status, headers: response.headers, body };
}

/** A fresh account's client-credentials token, and the Basic credentials that introspect it. */
export async function clientCredentialsToken(t: TestApp): Promise<{ token: string; auth: Record<string, string> }> {
  const accountId = await createAccount(t);
  const reg = await registerClient(t, accountId, { grant_types: ['client_credentials'], scope: 'invoices:read' });
  const auth = { authorization: basic(reg.client_id, reg.client_secret) };
  const issued = await postForm(`${t.publicUrl}/token`, { grant_type: 'client_credentials' }, auth);
  assert.equal(issued.status, 200);
  return { token: issued.body.access_token, auth };
}

/** Whether `/introspect` reports `token` active, asked with `auth`. */
export async function isActive(t: TestApp, token: string, auth: Record<string, string>): Promise<boolean> {
  const response = await postForm(`${t.publicUrl}/introspect`, { token }, auth);
  assert.equal(response.status, 200);
  return response.body.active;
}

export async function countRows(t: TestApp, table: 'access_tokens' | 'oauth_refresh_tokens' | 'oauth_grants' | 'oauth_codes'): Promise<number> {
  const row = await t.gatehouse.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A tiny cookie jar and form reader, so tests can walk the pages exactly as a browser posts them. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  private store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(pathAndQuery: string) {
    const response = await fetch(this.baseUrl + pathAndQuery, { headers: { cookie: this.cookieHeader() }, redirect: 'manual' });
    this.store(response);
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  async post(path: string, form: Record<string, string>) {
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
    this.store(response);
    return { status: response.status, headers: response.headers, html: await response.text() };
  }
}

const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

/** The hidden fields of the page's `index`th form (its main one by default), as the browser would post them. */
export function hiddenFields(html: string, index = 0): Record<string, string> {
  const out: Record<string, string> = {};
  const form = html.split('<form').slice(1)[index]?.split('</form>')[0] ?? '';
  for (const m of form.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) out[unescapeHtml(m[1]!)] = unescapeHtml(m[2]!);
  return out;
}

export function authorizePath(params: Record<string, string>): string {
  return `/authorize?${new URLSearchParams(params).toString()}`;
}

/** Signs in on the page that `first` shows and returns the next response (consent page or redirect). */
export async function signIn(browser: Browser, page: { html: string }, userName: string, password: string) {
  return browser.post('/authorize/login', { ...hiddenFields(page.html), username: userName, password });
}

export async function consent(browser: Browser, page: { html: string }, decision: 'allow' | 'deny' = 'allow') {
  return browser.post('/authorize/consent', { ...hiddenFields(page.html), decision });
}

export function redirectParams(response: { headers: Headers }): URLSearchParams {
  return new URL(response.headers.get('location')!).searchParams;
}
