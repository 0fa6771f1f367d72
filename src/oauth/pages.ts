/**
 * The sign-in, consent and error pages: server-rendered HTML that works without JavaScript,
 * with labelled fields, a language, headings and visible focus. Every value is escaped; every
 * form carries the CSRF token. Headers forbid framing (clickjacking) and caching.
 *
 * Branding (accounts/branding.ts): the account's name heads the page, with its logo when it has
 * one (a data: URI carried by the page, so the CSP allows images from `data:` and nothing else)
 * and its colour on the top bar and the main buttons, their text black or white, whichever
 * contrasts more; other text keeps the default colours. When a session exists, the page says
 * who is signed in and offers "Not you? Sign out": a form (a link alone must not sign anyone
 * out), bound to the session like the consent form, that ends the session and starts the same
 * authorization request again at the sign-in page.
 */
import type { FastifyReply } from 'fastify';
import { SCOPES } from './scopes.ts';
import type { AuthorizeParams } from './authorize.ts';
import { textColorOn, type Branding } from '../accounts/branding.ts';

/** Who is signed in, and the token of the form that signs them out to switch person. */
export interface SignedInAs {
  userName: string;
  switchToken: string;
}

const DEFAULT_COLOR = '#1a4fd6';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
// Most values hold nothing to escape (ids, tokens, a logo's base64): one scan finds that out.
const escape = (s: string) => (/[&<>"']/.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : s);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1b1f24}
main{max-width:26rem;margin:4rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 3px #0002;border-top:6px solid var(--brand)}
header{display:flex;align-items:center;gap:.75rem;margin-bottom:1rem}header img{max-height:48px;max-width:160px}
header p{margin:0;font-weight:600}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin-top:1rem;font-weight:600}
input[type=text],input[type=password]{width:100%;box-sizing:border-box;padding:.6rem;font-size:1rem;margin-top:.25rem;border:1px solid #888;border-radius:4px}
button{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;border:1px solid var(--brand);background:var(--brand);color:var(--on-brand);cursor:pointer}
button.secondary{background:#fff;color:#1b1f24;margin-left:.5rem}
button.link{background:none;border:none;padding:0;margin:0;color:#1b1f24;text-decoration:underline;font:inherit}
.who{margin-top:1.5rem;font-size:.95rem}.who form{display:inline}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.error{background:#fde8e8;border:1px solid #c81e1e;color:#8a1212;padding:.75rem;border-radius:4px}
ul{padding-left:1.2rem}`;

const colorStyle = (color: string) => `:root{--brand:${color};--on-brand:${textColorOn(color)}}`;
const DEFAULT_STYLE = colorStyle(DEFAULT_COLOR) + STYLE;

/** The page's style: the brand colours as CSS variables (the colour was checked as #rrggbb when set). */
function pageStyle(brand: Branding | undefined): string {
  return brand?.color && /^#[0-9a-fA-F]{6}$/.test(brand.color) ? colorStyle(brand.color) + STYLE : DEFAULT_STYLE;
}

function brandHeader(brand: Branding | undefined): string {
  if (!brand) return '';
  const logo = brand.logo ? `<img src="${escape(brand.logo)}" alt="${escape(brand.name)} logo">` : '';
  return `<header>${logo}<p>${escape(brand.name)}</p></header>`;
}

function page(title: string, body: string, brand?: Branding): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Gatehouse</title><style>${pageStyle(brand)}</style></head><body><main>${brandHeader(brand)}${body}</main></body></html>`;
}

/** "Signed in as …. Not you? Sign out", for the pages shown while a session exists. */
function notYou(params: AuthorizeParams, signedIn: SignedInAs | undefined): string {
  if (!signedIn) return '';
  return `<div class="who">Signed in as <strong>${escape(signedIn.userName)}</strong>. Not you?
<form method="post" action="/authorize/switch">${hiddenFields({ ...params, csrf_token: signedIn.switchToken })}<button type="submit" class="link">Sign out</button></form></div>`;
}

function hidden(params: AuthorizeParams, csrf: string): string {
  const fields = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v!)}">`);
  fields.push(`<input type="hidden" name="csrf_token" value="${escape(csrf)}">`);
  return fields.join('');
}

/** The headers of every page, the error pages rendered by the error handler included. */
export function pageHeaders(formTarget?: string): Record<string, string> {
  // After a form post the browser follows a redirect to the client, so form-action names it.
  const formAction = formTarget ? `'self' ${formTarget}` : `'self'`;
  return {
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    // Images only from data: (an account's logo is carried by the page), nothing from any server.
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

export function sendPage(reply: FastifyReply, status: number, html: string, formTarget?: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').headers(pageHeaders(formTarget)).send(html);
}

export function signInPage(input: { clientName: string; params: AuthorizeParams; csrf: string; error?: string; userName?: string; brand?: Branding; signedIn?: SignedInAs }): string {
  const error = input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1><p>to continue to <strong>${escape(input.clientName)}</strong></p>${error}
<form method="post" action="/authorize/login">${hidden(input.params, input.csrf)}
<label for="username">Username</label><input type="text" id="username" name="username" autocomplete="username" required value="${escape(input.userName ?? '')}" autofocus>
<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>${notYou(input.params, input.signedIn)}`,
    input.brand,
  );
}

export function consentPage(input: { clientName: string; userName: string; scopes: string[]; params: AuthorizeParams; csrf: string; signInProof?: string | undefined; brand?: Branding; switchToken?: string }): string {
  const items = input.scopes.map((s) => `<li>${escape(SCOPES[s] ?? s)} <small>(<code>${escape(s)}</code>)</small></li>`).join('');
  const signedIn = input.switchToken === undefined ? undefined : { userName: input.userName, switchToken: input.switchToken };
  return page(
    'Allow access',
    `<h1>Allow access?</h1><p><strong>${escape(input.clientName)}</strong> asks to act for you (${escape(input.userName)}) and will be able to:</p>
<ul>${items}</ul>
<form method="post" action="/authorize/consent">${hidden(input.params, input.csrf)}${hiddenFields({ sign_in_proof: input.signInProof })}
<button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>${notYou(input.params, signedIn)}`,
    input.brand,
  );
}

export function errorPage(description: string): string {
  return page('Request refused', `<h1>This request cannot be completed</h1><p class="error" role="alert">${escape(description)}</p><p>Return to the application and try again.</p>`);
}

function hiddenFields(values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v!)}">`)
    .join('');
}

/** RP-initiated logout without proof of who asks: the person confirms (a link alone must not sign anyone out). */
export function logoutConfirmPage(input: { userName: string; clientName?: string; params: Record<string, string | undefined>; csrf: string; brand?: Branding }): string {
  const from = input.clientName ? ` <strong>${escape(input.clientName)}</strong> asks to sign you out.` : '';
  return page(
    'Sign out',
    `<h1>Sign out?</h1><p>You are signed in as <strong>${escape(input.userName)}</strong>.${from}</p>
<form method="post" action="/logout/confirm">${hiddenFields({ ...input.params, csrf_token: input.csrf })}
<button type="submit" name="decision" value="sign_out">Sign out</button><button type="submit" name="decision" value="stay" class="secondary">Stay signed in</button></form>`,
    input.brand,
  );
}

export function signedOutPage(signedOut: boolean): string {
  return page(signedOut ? 'Signed out' : 'Still signed in', signedOut ? '<h1>You are signed out</h1><p>You may close this window.</p>' : '<h1>You are still signed in</h1><p>You may close this window.</p>');
}
