/**
 * GET /authorize and its pages: POST /authorize/login and POST /authorize/consent.
 *
 * Each step re-runs every check of the authorization request on the parameters the form
 * carries, so nothing a browser posts can widen what was checked. Every form carries a CSRF
 * token. The sign-in form's matches the CSRF cookie (double submit, SameSite=Lax,
 * HttpOnly; `__Host-` named behind https, see sessionCookies): before sign-in there is no
 * session to bind it to. The consent form's is derived
 * from the session secret, so a cookie planted from a sibling origin cannot pair with a token
 * the attacker holds, and a token leaks nothing about the session it belongs to. `prompt=none`
 * never shows a page (login_required / consent_required), `prompt=login` asks for the password
 * even with a session, `prompt=consent` asks again even when consent is remembered.
 * Sign-in attempts are limited per userName (every attempt) and per source address within the
 * account (failed attempts only), so a crowd behind one address can sign in and one account's
 * failures never hold sign-in on another back.
 *
 * OpenID Connect (OIDC Core §3.1.2): a session older than `max_age` counts as none, and so does
 * one of another person than `id_token_hint` names; `login_hint` fills in the userName; the
 * code remembers the nonce, the sign-in time, the session and the `claims` request for the ID
 * token, and the session remembers the client (back-channel logout goes to those).
 *
 * The pages carry the account's branding (pages.ts), read only when a page is shown and kept
 * for a few seconds (accounts/service.ts `branding`): a redirect reads nothing more. While a
 * session exists the pages offer "Not you? Sign out" (POST /authorize/switch): its form token is
 * bound to the session as the consent form's is; it ends the session (back-channel logouts
 * queued) and sends the browser back to /authorize with the same request, to sign in afresh.
 */
import { auditBy, recordAudit, type AuditBy } from '../audit/record.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { randomSecret, safeEqual, sha256Base64Url, sha256Hex } from '../platform/crypto.ts';
import { errorDescription } from './errors.ts';
import type { RateLimits } from '../platform/rate-limit.ts';
import type { Users } from '../users/service.ts';
import type { Clients } from './clients.ts';
import { checkAuthorizationRequest, redirectWith, RedirectError, UnsafeRedirect, type AuthorizationRequest } from './authorize.ts';
import { consentPage, errorPage, sendPage, signInPage, type SignedInAs } from './pages.ts';
import type { Branding } from '../accounts/branding.ts';
import { parseCookies, sessionCookies, type Session, type Sessions } from './sessions.ts';
import { countedUserName, type SignInDevices } from './sign-in-devices.ts';
import { issueCode } from './grants.ts';
import { grantableToPerson, isSubset } from './scopes.ts';
import type { UserScopeBound } from './token.ts';
import type { IdTokens } from './id-token.ts';
import { logEvent } from '../platform/log-events.ts';
import { documentedOnly } from '../platform/http/openapi.ts';
import { AUTHORIZE_DOCS, AUTHORIZE_POST_DOCS, CONSENT_DOCS, SIGN_IN_DOCS, SWITCH_DOCS } from './authorize-openapi.ts';

const NOTHING_GRANTABLE = "None of the requested scopes may be granted to this person: none of their roles names them (once an account maps roles, a person's API scopes come from their roles; without roles, the privileged scopes are given to nobody)";

export interface AuthorizeDeps {
  db: Db;
  clock: Clock;
  clients: Clients;
  users: Users;
  sessions: Sessions;
  rateLimits: RateLimits;
  userScopeBound: UserScopeBound;
  issuer: string;
  codeTtl: number;
  idTokens: IdTokens;
  /** Browsers the person signed in from before, counted apart at sign-in. */
  devices: SignInDevices;
  /** What the pages show of an account (cached; undefined shows the default look). */
  branding?: (accountId: string) => Promise<Branding | undefined>;
}

function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}

export function registerAuthorizeRoutes(app: FastifyInstance, deps: AuthorizeDeps): void {
  const { clients, users, sessions, rateLimits, userScopeBound, issuer } = deps;
  const cookies = sessionCookies(issuer);

  /** The sign-in form's CSRF token: the CSRF cookie's value, set when missing. */
  function signInToken(request: FastifyRequest, reply: FastifyReply): string {
    const existing = parseCookies(request.headers.cookie)[cookies.csrf];
    if (existing && /^[A-Za-z0-9_-]{20,}$/.test(existing)) return existing;
    const fresh = randomSecret(24);
    reply.header('set-cookie', cookies.setCsrf(fresh));
    return fresh;
  }

  function signInTokenValid(request: FastifyRequest, body: Record<string, unknown>): boolean {
    const fromCookie = parseCookies(request.headers.cookie)[cookies.csrf];
    const fromForm = body.csrf_token;
    return typeof fromCookie === 'string' && typeof fromForm === 'string' && fromCookie.length > 0 && safeEqual(fromForm, fromCookie);
  }

  /** The consent form's CSRF token: bound to the session whose secret the cookie carries. */
  function consentToken(sessionSecret: string): string {
    return sha256Base64Url(`gatehouse consent form\n${sessionSecret}`);
  }

  /**
   * What a consent page shown right after a sign-in carries to say so: bound to the session, to
   * that sign-in's time (it holds only while the session's last sign-in is that one) and to the
   * request it was made for (its client, redirect, state, nonce and challenge), so no other
   * request's consent can present it.
   */
  function signInProof(sessionSecret: string, authenticatedAt: number, req: AuthorizationRequest): string {
    const request = JSON.stringify([req.client.id, req.redirectUri, req.state ?? null, req.oidc?.nonce ?? null, req.codeChallenge]);
    return sha256Base64Url(`gatehouse signed in for this request\n${sessionSecret}\n${authenticatedAt}\n${request}`);
  }

  /** Whether the consent form follows a sign-in made for this very request (see `signInProof`). */
  function signedInForThisRequest(request: FastifyRequest, body: Record<string, unknown>, req: AuthorizationRequest, session: Session): boolean {
    const sessionSecret = parseCookies(request.headers.cookie)[cookies.session];
    const fromForm = body.sign_in_proof;
    return typeof sessionSecret === 'string' && sessionSecret.length > 0 && typeof fromForm === 'string' && safeEqual(fromForm, signInProof(sessionSecret, session.authenticatedAt, req));
  }

  function consentTokenValid(request: FastifyRequest, body: Record<string, unknown>): boolean {
    const sessionSecret = parseCookies(request.headers.cookie)[cookies.session];
    const fromForm = body.csrf_token;
    return typeof sessionSecret === 'string' && sessionSecret.length > 0 && typeof fromForm === 'string' && safeEqual(fromForm, consentToken(sessionSecret));
  }

  /** The "Not you? Sign out" form's token: bound to the session, as the consent form's. */
  function switchToken(sessionSecret: string): string {
    return sha256Base64Url(`gatehouse switch form\n${sessionSecret}`);
  }

  function signedInAs(session: Session | undefined, sessionSecret: string | undefined): SignedInAs | undefined {
    return session && sessionSecret ? { userName: session.userName, switchToken: switchToken(sessionSecret) } : undefined;
  }

  const brandingOf = (accountId: string) => deps.branding?.(accountId) ?? Promise.resolve(undefined);

  function redirect(reply: FastifyReply, status: 302 | 303, location: string) {
    return reply.code(status).header('location', location).header('cache-control', 'no-store').send();
  }

  function redirectError(reply: FastifyReply, status: 302 | 303, error: RedirectError) {
    return redirect(reply, status, redirectWith(error.redirectUri, { error: error.code, error_description: errorDescription(error.description), state: error.state, iss: issuer }));
  }

  async function check(request: FastifyRequest, reply: FastifyReply, source: Record<string, unknown>, status: 302 | 303): Promise<AuthorizationRequest | undefined> {
    try {
      return await checkAuthorizationRequest(clients, source);
    } catch (error) {
      if (error instanceof UnsafeRedirect) {
        sendPage(reply, 400, errorPage(error.message));
        return undefined;
      }
      if (error instanceof RedirectError) {
        redirectError(reply, status, error);
        return undefined;
      }
      throw error;
    }
  }

  async function currentSession(request: FastifyRequest, req: AuthorizationRequest): Promise<Session | undefined> {
    const session = await sessions.find(parseCookies(request.headers.cookie)[cookies.session]);
    return session && session.accountId === req.client.accountId ? session : undefined;
  }

  /** OIDC Core §5.5.1: a request naming a `sub` is answered for that person only. */
  const isNamedPerson = (req: AuthorizationRequest, session: Session) => !req.oidc?.subject || safeEqual(deps.idTokens.subjectFor(req.client, session.userId), req.oidc.subject);
  const NOT_THE_NAMED_PERSON = 'The person signed in is not the one the claims parameter names (sub)';
  /** Whether the id_token_hint names the person of `session`; undefined without a hint this server can read. */
  const hintNames = async (req: AuthorizationRequest, session: Session): Promise<boolean | undefined> => {
    const hint = req.oidc?.idTokenHint ? await deps.idTokens.readHint(req.oidc.idTokenHint) : undefined;
    return hint && safeEqual(hint.sub, deps.idTokens.subjectFor(req.client, session.userId));
  };
  const NOT_THE_HINTED_PERSON = 'The person signed in is not the one the id_token_hint names';

  /** OIDC Core §3.1.2.1: a sign-in older than the request's max_age is asked for again. */
  const signedInWithinMaxAge = (req: AuthorizationRequest, session: Session) => {
    const maxAge = req.oidc?.maxAge ?? null;
    return maxAge === null || deps.clock.now() - session.authenticatedAt <= maxAge * 1000;
  };

  /**
   * The session an OpenID Connect request may use: not older than max_age, of the person the
   * id_token_hint names (OIDC Core §3.1.2.1) and the one a `sub` claim names (§5.5.1); otherwise
   * the person signs in again.
   */
  async function usableSession(req: AuthorizationRequest, session: Session | undefined): Promise<Session | undefined> {
    if (!session || !req.oidc) return session;
    const { idTokenHint } = req.oidc;
    if (!signedInWithinMaxAge(req, session)) return undefined;
    if (!isNamedPerson(req, session)) return undefined;
    // An unreadable hint counts as naming someone else here: the person signs in again.
    if (idTokenHint !== null && (await hintNames(req, session)) !== true) return undefined;
    return session;
  }

  /** After sign-in (`signedInNow`) or with a session: consent if needed, otherwise a code. */
  async function proceed(reply: FastifyReply, req: AuthorizationRequest, session: Session, sessionSecret: string, status: 302 | 303, signedInNow = false) {
    const fail = (code: RedirectError['code'], description: string) => redirectError(reply, status, new RedirectError(code, description, req.redirectUri, req.state));
    // Signed in just now as someone else than the claims parameter names.
    if (!isNamedPerson(req, session)) return fail('access_denied', NOT_THE_NAMED_PERSON);
    const offered = grantableToPerson(req.scopes, await userScopeBound(req.client.accountId, session.userId));
    if (offered.length === 0) return fail('access_denied', NOTHING_GRANTABLE);
    const remembered = await sessions.consented(req.client.accountId, session.userId, req.client.id);
    const needsConsent = req.prompt.has('consent') || req.prompt.has('select_account') || !isSubset(offered, remembered);
    if (needsConsent) {
      if (req.prompt.has('none')) return fail('consent_required', 'The user has not consented to these scopes');
      const csrf = consentToken(sessionSecret);
      const brand = await brandingOf(req.client.accountId);
      const signedIn = signedInNow ? signInProof(sessionSecret, session.authenticatedAt, req) : undefined;
      const page = consentPage({ clientName: req.client.name, userName: session.userName, scopes: offered, params: withoutPrompt(req, 'login'), csrf, signInProof: signedIn, brand, switchToken: switchToken(sessionSecret) });
      return sendPage(reply, 200, page, redirectTarget(req.redirectUri));
    }
    return issue(reply, req, session, offered, status);
  }

  /** Issues the code; `consentBy`: the person has just consented to `scopes`, remembered with the code. */
  async function issue(reply: FastifyReply, req: AuthorizationRequest, session: Session, scopes: string[], status: 302 | 303, consentBy?: AuditBy) {
    // Under the session held live: a sign-out or the end of the person's access either waits for
    // the consent and the code (and then forgets the one and ends the other, and tells the
    // client it signed in to) or is seen here.
    const code = await deps.db.transaction().execute(async (trx) => {
      if (!(await sessions.hold(trx, session))) return undefined;
      if (consentBy) await sessions.rememberConsent(trx, { accountId: req.client.accountId, userId: session.userId, clientId: req.client.id, scopes, by: consentBy });
      const code = await issueCode(trx, {
        accountId: req.client.accountId,
        clientId: req.client.id,
        userId: session.userId,
        redirectUri: req.redirectUri,
        scope: scopes.join(' '),
        codeChallenge: req.codeChallenge,
        now: deps.clock.now(),
        ttlSeconds: deps.codeTtl,
        ...(req.oidc ? { oidc: { nonce: req.oidc.nonce, authTime: session.authenticatedAt, sessionId: session.id, claims: req.oidc.claims } } : {}),
      });
      if (req.oidc) await sessions.rememberClient(session, req.client.id, trx);
      return code;
    });
    if (code === undefined) {
      return redirectError(reply, status, new RedirectError('access_denied', 'The sign-in ended before a code was issued; sign in again', req.redirectUri, req.state));
    }
    return redirect(reply, status, redirectWith(req.redirectUri, { code, state: req.state, iss: issuer }));
  }

  async function showSignIn(request: FastifyRequest, reply: FastifyReply, req: AuthorizationRequest, status: number, error?: string, userName?: string, signedIn?: SignedInAs) {
    const csrf = signInToken(request, reply);
    const brand = await brandingOf(req.client.accountId);
    const page = signInPage({ clientName: req.client.name, params: req.params, csrf, error, userName: userName ?? req.oidc?.loginHint ?? undefined, brand, signedIn });
    return sendPage(reply, status, page, redirectTarget(req.redirectUri));
  }

  const pageConfig = { errorFormat: 'oauth-page' };

  /** The authorization request, from a query (GET) or a form (POST; answered with 303, RFC 9110 §15.4.4). */
  async function authorization(request: FastifyRequest, reply: FastifyReply, source: Record<string, unknown>, status: 302 | 303) {
    const req = await check(request, reply, source, status);
    if (!req) return reply;
    const existing = await currentSession(request, req);
    const session = await usableSession(req, existing);
    if (req.prompt.has('none') && !session) return redirectError(reply, status, new RedirectError('login_required', 'The user is not signed in', req.redirectUri, req.state));
    const sessionSecret = parseCookies(request.headers.cookie)[cookies.session];
    if (!session || req.prompt.has('login')) return showSignIn(request, reply, req, 200, undefined, undefined, signedInAs(existing, sessionSecret));
    return proceed(reply, req, session, sessionSecret!, status);
  }

  app.get('/authorize', { config: { ...pageConfig, ...documentedOnly(AUTHORIZE_DOCS) }, schema: { tags: ['oauth'], operationId: 'authorize', summary: 'Authorization endpoint (RFC 6749 §4.1.1): sign-in and consent pages, then a redirect with code, state and iss' } }, async (request, reply) =>
    authorization(request, reply, request.query as Record<string, unknown>, 302),
  );

  // OpenID Connect Core §3.1.2.1: the authorization endpoint takes POST too, its parameters as a form.
  app.post('/authorize', { config: { ...pageConfig, ...documentedOnly(AUTHORIZE_POST_DOCS) }, schema: { tags: ['oauth'], operationId: 'authorizeByPost', summary: 'Authorization endpoint by form POST (OpenID Connect Core §3.1.2.1): as GET /authorize' } }, async (request, reply) =>
    authorization(request, reply, (request.body ?? {}) as Record<string, unknown>, 303),
  );

  app.post('/authorize/switch', { config: { ...pageConfig, ...documentedOnly(SWITCH_DOCS) }, schema: { tags: ['oauth'], operationId: 'switchPerson', summary: '"Not you? Sign out" on the sign-in and consent pages: ends the session, then the same authorization request again' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const req = await check(request, reply, body, 303);
    if (!req) return reply;
    const sessionSecret = parseCookies(request.headers.cookie)[cookies.session];
    const session = await currentSession(request, req);
    if (session) {
      const token = body.csrf_token;
      if (typeof token !== 'string' || !safeEqual(token, switchToken(sessionSecret!))) return sendPage(reply, 403, errorPage('The form expired. Go back to the application and start again.'));
      await sessions.end(session, auditBy(request, { type: 'user', id: session.userId, clientId: req.client.id }));
      reply.header('set-cookie', cookies.clearSession());
    }
    const again = new URLSearchParams(Object.entries(req.params).filter((e): e is [string, string] => e[1] !== undefined));
    return redirect(reply, 303, `/authorize?${again}`);
  });

  app.post('/authorize/login', { config: { ...pageConfig, ...documentedOnly(SIGN_IN_DOCS) }, schema: { tags: ['oauth'], operationId: 'submitSignIn', summary: 'Sign-in form of the authorization endpoint' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const req = await check(request, reply, body, 303);
    if (!req) return reply;
    if (!signInTokenValid(request, body)) return sendPage(reply, 403, errorPage('The form expired. Go back to the application and start again.'));
    const userName = typeof body.username === 'string' ? body.username.slice(0, 256) : '';
    const password = typeof body.password === 'string' ? body.password.slice(0, 1024) : '';
    // A browser the person signed in from before has a count of its own (sign-in-devices.ts):
    // strangers spending the userName's attempts do not lock the person out of it.
    const device = deps.devices.knownFor(parseCookies(request.headers.cookie)[cookies.device], req.client.accountId, userName);
    // Counted by digest: the key sits in Redis, and what was typed as a userName is sometimes a password.
    const counted = sha256Hex(countedUserName(userName));
    const byName = device ? await rateLimits.consume('signin_device', `${req.client.accountId}:${counted}:${device}`) : await rateLimits.consume('signin', `${req.client.accountId}:${counted}`);
    // Per account: failures from one address on one account never hold sign-in on another back.
    const addressKey = `${req.client.accountId}:${request.ip}`;
    const byAddress = await rateLimits.consume('signin_ip', addressKey);
    if (!byName.allowed || !byAddress.allowed) {
      const headers = byName.allowed ? byAddress.headers : byName.headers;
      reply.headers(headers);
      logEvent(request.log, 'oauth.sign_in_rate_limited', { ...signInContext(request, req), limit: byName.allowed ? 'address' : 'user_name' }, 'sign-in refused: too many attempts');
      return showSignIn(request, reply, req, 429, `Too many sign-in attempts. Try again in ${headers['retry-after']} seconds.`, userName);
    }
    const signIn = userName && password ? await users.verifySignIn(req.client.accountId, userName, password) : undefined;
    const failed = async (why: { reason: string; user_id: string | null }) => {
      logEvent(request.log, 'oauth.sign_in_failed', { ...signInContext(request, req), ...why }, 'sign-in failed');
      const person = why.user_id;
      await recordAudit(deps.db, auditBy(request, person ? { type: 'user', id: person, clientId: req.client.id } : { type: 'client', id: req.client.id }), {
        accountId: req.client.accountId,
        action: 'signin.failed',
        target: person ? { type: 'user', id: person } : { type: 'client', id: req.client.id },
        changes: { reason: { after: why.reason } },
        at: deps.clock.now(),
      });
      return showSignIn(request, reply, req, 401, 'Wrong username or password.', userName);
    };
    const user = signIn?.user;
    if (!user) return failed(signIn === undefined ? { reason: 'missing_credentials', user_id: null } : { reason: signIn.reason, user_id: signIn.userId });
    // Counted when it began (so concurrent guesses cannot all slip in), given back as it succeeded.
    await rateLimits.reward('signin_ip', addressKey);
    const previous = parseCookies(request.headers.cookie)[cookies.session];
    const started = await sessions.start(req.client.accountId, { id: user.id, passwordHash: user.password_hash! }, previous, auditBy(request, { type: 'user', id: user.id, clientId: req.client.id }));
    // Deactivated, deleted or given a new password while the password was being checked.
    if (!started) return failed({ reason: 'user_changed', user_id: user.id });
    const { secret, id: sessionId, authenticatedAt } = started;
    reply.header('set-cookie', cookies.setSession(secret));
    reply.header('set-cookie', cookies.setDevice(deps.devices.issue(req.client.accountId, userName)));
    const session: Session = { id: sessionId, accountId: user.account_id, userId: user.id, userName: user.user_name, authenticatedAt };
    // OIDC Core §3.1.2.1: no answer for another person than the id_token_hint names (a session
    // in use was checked against it already, in usableSession). A hint that cannot be read names nobody.
    if ((await hintNames(req, session)) === false) return redirectError(reply, 303, new RedirectError('login_required', NOT_THE_HINTED_PERSON, req.redirectUri, req.state));
    // The person has just signed in: that was their choice of account too.
    return proceed(reply, { ...req, prompt: without(without(req.prompt, 'login'), 'select_account') }, session, secret, 303, true);
  });

  app.post('/authorize/consent', { config: { ...pageConfig, ...documentedOnly(CONSENT_DOCS) }, schema: { tags: ['oauth'], operationId: 'submitConsent', summary: 'Consent form of the authorization endpoint (Allow or Deny)' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const req = await check(request, reply, body, 303);
    if (!req) return reply;
    const session = await currentSession(request, req);
    // OIDC Core §3.1.2.1: max_age asks for a sign-in at the request, and one made for this request
    // answers it however long the consent took (max_age=0 would otherwise never end). A consent page
    // shown on an older session and left open past max_age asks for the password.
    if (!session || !(signedInForThisRequest(request, body, req, session) || signedInWithinMaxAge(req, session))) return showSignIn(request, reply, req, 200);
    if (!consentTokenValid(request, body)) return sendPage(reply, 403, errorPage('The form expired. Go back to the application and start again.'));
    if (!isNamedPerson(req, session)) return redirectError(reply, 303, new RedirectError('access_denied', NOT_THE_NAMED_PERSON, req.redirectUri, req.state));
    const person = auditBy(request, { type: 'user', id: session.userId, clientId: req.client.id });
    if (body.decision !== 'allow') {
      const changes = { scope: { after: [...req.scopes].join(' ') } };
      await recordAudit(deps.db, person, { accountId: req.client.accountId, action: 'consent.denied', target: { type: 'client', id: req.client.id }, changes, at: deps.clock.now() });
      return redirectError(reply, 303, new RedirectError('access_denied', 'The user denied the request', req.redirectUri, req.state));
    }
    const offered = grantableToPerson(req.scopes, await userScopeBound(req.client.accountId, session.userId));
    if (offered.length === 0) return redirectError(reply, 303, new RedirectError('access_denied', NOTHING_GRANTABLE, req.redirectUri, req.state));
    return issue(reply, req, session, offered, 303, person);
  });
}

/**
 * Where a sign-in came from, for the log. Never the userName as typed: people type their
 * password into it by mistake, and an unknown name tells an operator nothing a user id would not.
 */
function signInContext(request: FastifyRequest, req: AuthorizationRequest) {
  return { account_id: req.client.accountId, client_id: req.client.id, ip: request.ip };
}

function without<T>(set: Set<T>, value: T): Set<T> {
  const copy = new Set(set);
  copy.delete(value);
  return copy;
}

function withoutPrompt(req: AuthorizationRequest, value: 'login') {
  const prompt = [...without(req.prompt, value)].join(' ');
  const { prompt: _dropped, ...rest } = req.params;
  return prompt ? { ...rest, prompt } : rest;
}
