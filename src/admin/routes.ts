/**
 * The admin API, served only on the admin listener and only to the operator's token.
 *
 * The API is one encapsulated fastify plugin whose `onRequest` hook demands the admin token:
 * every route registered inside it is covered, whatever spelling of the request target the
 * router accepted (percent-encoded letters, absolute form). Access is never decided from URL
 * text. Health, metrics and the API document stay outside the plugin, on purpose: they carry
 * no tenant data and the listener is bound to loopback by default (docs/SECURITY.md).
 * Guessing the token is rate limited per address (`adminAuthenticationLimits`): past
 * GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES refusals an address is answered 429 before its token is
 * compared, until the window ends.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logEvent } from '../platform/log-events.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { bearerToken } from '../platform/auth.ts';
import { documentAnswers } from '../platform/http/openapi-answers.ts';
import { adminAuthenticationLimits, type RateLimits } from '../platform/rate-limit.ts';
import type { AdminTokenCheck } from './admin-token.ts';

/** Name of the admin token's security scheme in the admin API document. */
export const ADMIN_TOKEN_SCHEME = 'adminToken';
const ADMIN_SECURITY = [{ [ADMIN_TOKEN_SCHEME]: [] }];

/** Adds the routes of one capability to the admin API (registered inside the protected plugin). */
export type AdminRoutes = (admin: FastifyInstance) => void | Promise<void>;

/** The hook that refuses every request without the operator's token, before parsing a body. */
export function requireAdminToken(check: AdminTokenCheck) {
  return async function adminTokenRequired(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (token === undefined || !check(token)) {
      // Someone guessing the operator's token is something to alert on: who, and whether a token came at all.
      logEvent(request.log, 'admin.authentication_failed', { ip: request.ip, token_given: token !== undefined }, 'admin API request without a valid admin token');
      // RFC 6750 §3.1: a token that was sent and is wrong is invalid_token; none sent, no error code.
      throw token === undefined
        ? problem('admin_unauthorized', { detail: 'Send Authorization: Bearer <admin token>', headers: { 'www-authenticate': 'Bearer realm="gatehouse-admin"' } })
        : problem('admin_unauthorized', {
            detail: "The bearer token sent is not this installation's admin token: GATEHOUSE_ADMIN_TOKEN, or the token generated at the first start, saved to admin-token in the data directory (GATEHOUSE_DATA_DIR) of the node that made it",
            headers: { 'www-authenticate': 'Bearer realm="gatehouse-admin", error="invalid_token"' },
          });
    }
  };
}

/** Registers the admin API: every route that `routes` adds answers only to the admin token. */
export async function registerAdminApi(app: FastifyInstance, deps: { check: AdminTokenCheck; limits: RateLimits; routes: readonly AdminRoutes[] }): Promise<void> {
  await app.register(async function adminApi(admin) {
    if (deps.limits.enabled) {
      const limits = adminAuthenticationLimits(deps.limits);
      // Before the token check: an address past its refusals has nothing compared.
      admin.addHook('onRequest', limits.onRequest);
      admin.addHook('onSend', limits.onSend);
    }
    admin.addHook('onRequest', requireAdminToken(deps.check));
    documentAnswers(admin, [429]);
    // The hook above covers every route in here, so every one documents the same requirement.
    admin.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, security: ADMIN_SECURITY };
    });
    for (const add of deps.routes) await add(admin);
  });
}
