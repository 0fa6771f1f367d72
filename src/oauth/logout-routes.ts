/**
 * RP-Initiated Logout 1.0 at the end_session_endpoint, GET or POST /logout.
 *
 * - `post_logout_redirect_uri` is used only when it equals exactly one registered for the client
 *   (§2: named by `client_id` or by the `id_token_hint`'s audience, which must agree); anything
 *   else is an error page, never a redirect (no open redirect). `state` goes back with it.
 * - `id_token_hint` must be an ID token this server issued (expired is fine, §2). When it names
 *   the person signed in (and their session, by `sid`), the sign-out happens at once; otherwise
 *   the person confirms on a page whose form carries a token bound to the session, so a link or
 *   a cross-site form alone never signs anyone out (§6).
 * - Signing out ends the session, forgets its cookie, and queues back-channel logouts to the
 *   clients the session signed in to (backchannel-logout.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeEqual, sha256Base64Url } from '../platform/crypto.ts';
import type { Clients, Client } from './clients.ts';
import type { IdTokens } from './id-token.ts';
import { redirectWith } from './authorize.ts';
import { errorPage, logoutConfirmPage, sendPage, signedOutPage } from './pages.ts';
import { parseCookies, sessionCookies, type Session, type Sessions } from './sessions.ts';
import { auditBy } from '../audit/record.ts';
import { documentedOnly } from '../platform/http/openapi.ts';
import { LOGOUT_DOCS } from './authorize-openapi.ts';
import type { Branding } from '../accounts/branding.ts';

const LOGOUT_PARAMS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state'] as const;
type LogoutParams = Partial<Record<(typeof LOGOUT_PARAMS)[number], string>>;

interface LogoutRequest {
  params: LogoutParams;
  client: Client | undefined;
  hint: { sub: string; aud: string[]; sid?: string } | undefined;
  redirectUri: string | undefined;
}

class LogoutRefused extends Error {}

export function registerLogoutRoutes(app: FastifyInstance, deps: { issuer: string; clients: Clients; sessions: Sessions; idTokens: IdTokens; branding?: (accountId: string) => Promise<Branding | undefined> }): void {
  const { clients, sessions, idTokens } = deps;
  const cookies = sessionCookies(deps.issuer);

  function readParams(source: Record<string, unknown>): LogoutParams {
    const params: LogoutParams = {};
    for (const name of LOGOUT_PARAMS) {
      const value = source[name];
      if (Array.isArray(value)) throw new LogoutRefused(`${name} may appear only once`);
      if (typeof value === 'string' && value !== '') params[name] = value.slice(0, 8192);
    }
    return params;
  }

  async function check(source: Record<string, unknown>): Promise<LogoutRequest> {
    const params = readParams(source);
    const hint = params.id_token_hint === undefined ? undefined : await idTokens.readHint(params.id_token_hint);
    if (params.id_token_hint !== undefined && !hint) throw new LogoutRefused('id_token_hint is not an ID token this server issued');
    if (params.client_id && hint && !hint.aud.includes(params.client_id)) throw new LogoutRefused('client_id is not the audience of id_token_hint');
    const clientId = params.client_id ?? (hint?.aud.length === 1 ? hint.aud[0] : undefined);
    const client = clientId === undefined ? undefined : await clients.find(clientId);
    if (clientId !== undefined && !client) throw new LogoutRefused('The client is not registered');
    const redirectUri = params.post_logout_redirect_uri;
    if (redirectUri !== undefined) {
      if (!client) throw new LogoutRefused('post_logout_redirect_uri needs client_id or id_token_hint');
      if (!client.postLogoutRedirectUris.includes(redirectUri)) throw new LogoutRefused('post_logout_redirect_uri is not registered for this client');
    }
    return { params, client, hint, redirectUri };
  }

  function confirmToken(sessionSecret: string): string {
    return sha256Base64Url(`gatehouse logout form\n${sessionSecret}`);
  }

  /** The hint names this very person (and session, when it carries sid) as this client sees them. */
  function hintMatches(req: LogoutRequest, session: Session): boolean {
    if (!req.hint || !req.client) return false;
    const subjectOfSession = idTokens.subjectFor(req.client, session.userId);
    if (req.hint.sub !== subjectOfSession) return false;
    return req.hint.sid === undefined || req.hint.sid === session.id;
  }

  /**
   * `clearCookie`: only where the request carried the session cookie. A cross-site form carries
   * none (SameSite=Lax), so a deletion sent back to it would sign the person out of this browser
   * on any site's say-so, their session left open on the server.
   */
  function finish(reply: FastifyReply, req: LogoutRequest, signedOut: boolean, clearCookie = signedOut) {
    if (clearCookie) reply.header('set-cookie', cookies.clearSession());
    if (req.redirectUri !== undefined) {
      return reply.code(303).header('location', redirectWith(req.redirectUri, { state: req.params.state })).header('cache-control', 'no-store').send();
    }
    return sendPage(reply, 200, signedOutPage(signedOut));
  }

  async function withRequest(reply: FastifyReply, source: Record<string, unknown>, then: (req: LogoutRequest) => Promise<unknown>) {
    let req: LogoutRequest;
    try {
      req = await check(source);
    } catch (error) {
      if (error instanceof LogoutRefused) return sendPage(reply, 400, errorPage(error.message));
      throw error;
    }
    return then(req);
  }

  async function logout(request: FastifyRequest, reply: FastifyReply, source: Record<string, unknown>) {
    return withRequest(reply, source, async (req) => {
      const secret = parseCookies(request.headers.cookie)[cookies.session];
      const session = await sessions.find(secret);
      if (!session) return finish(reply, req, true, secret !== undefined);
      if (hintMatches(req, session)) {
        await sessions.end(session, auditBy(request, { type: 'user', id: session.userId, clientId: req.client?.id ?? null }));
        return finish(reply, req, true);
      }
      const target = req.redirectUri === undefined ? undefined : new URL(req.redirectUri).origin;
      const brand = await deps.branding?.(session.accountId);
      return sendPage(reply, 200, logoutConfirmPage({ userName: session.userName, clientName: req.client?.name, params: req.params, csrf: confirmToken(secret!), brand }), target);
    });
  }

  const config = { errorFormat: 'oauth-page' };
  const summary = 'End-session endpoint (OpenID Connect RP-Initiated Logout 1.0)';
  app.get('/logout', { config: { ...config, ...documentedOnly(LOGOUT_DOCS.query) }, schema: { tags: ['oauth'], operationId: 'logout', summary } }, (request, reply) =>
    logout(request, reply, request.query as Record<string, unknown>),
  );
  app.post('/logout', { config: { ...config, ...documentedOnly(LOGOUT_DOCS.form) }, schema: { tags: ['oauth'], operationId: 'submitLogout', summary: `${summary}, its parameters as a form` } }, (request, reply) =>
    logout(request, reply, (request.body ?? {}) as Record<string, unknown>),
  );
  app.post('/logout/confirm', { config: { ...config, ...documentedOnly(LOGOUT_DOCS.confirm) }, schema: { tags: ['oauth'], operationId: 'confirmLogout', summary: 'Confirmation form of the end-session endpoint' } }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    return withRequest(reply, body, async (req) => {
      const secret = parseCookies(request.headers.cookie)[cookies.session];
      const session = await sessions.find(secret);
      if (!session) return finish(reply, req, true, secret !== undefined);
      const token = body.csrf_token;
      if (typeof token !== 'string' || !safeEqual(token, confirmToken(secret!))) return sendPage(reply, 403, errorPage('The form expired. Go back to the application and start again.'));
      if (body.decision !== 'sign_out') return finish(reply, req, false);
      await sessions.end(session, auditBy(request, { type: 'user', id: session.userId, clientId: req.client?.id ?? null }));
      return finish(reply, req, true);
    });
  });
}
