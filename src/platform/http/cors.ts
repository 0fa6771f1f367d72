/**
 * CORS for the OAuth endpoints a browser app calls itself (a public client: an SPA with PKCE):
 * the metadata documents and the JWKS (read first by every browser client library), `/token`,
 * `/revoke` and `/userinfo`. Any origin, never with credentials: no cookie is read on these
 * routes, each request carries its own credential (a code and verifier, a refresh token, a
 * bearer token) and its answer is bound to it, so an origin learns nothing it did not send.
 * The sign-in and consent pages are not among them (they rely on cookies, and refuse framing),
 * nor is introspection (resource servers call it from their backends).
 */
import type { FastifyInstance, onSendHookHandler } from 'fastify';

/** What a browser app may read of an answer besides the CORS-safelisted headers. */
const EXPOSED = ['www-authenticate', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'x-request-id'].join(', ');

const corsHeaders: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', EXPOSED);
  done(null, payload);
};

/** A route's options with its answers (errors included) readable from any origin. */
export function browserCallable<T extends object>(options: T): T & { onSend: onSendHookHandler } {
  return { ...options, onSend: corsHeaders };
}

/** The CORS preflight (`OPTIONS`) of `path`, for `methods`: 204, cached by the browser for 10 minutes. */
export function registerPreflight(app: FastifyInstance, path: string, methods: readonly string[]): void {
  app.options(path, { schema: { hide: true } }, (_request, reply) => {
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', methods.join(', '))
      .header('access-control-allow-headers', 'authorization, content-type')
      .header('access-control-max-age', '600')
      .send();
  });
}
