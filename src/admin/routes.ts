/**
 * The admin API, served only on the admin listener and only to the operator's token.
 * Capabilities add their admin routes (clients, users, SCIM tokens, role mappings) through
 * the `registerAdminRoutes` list in app.ts.
 */
import type { FastifyInstance } from 'fastify';
import { problem } from '../platform/errors/catalogue.ts';
import { bearerToken } from '../platform/auth.ts';
import type { AdminTokenCheck } from './admin-token.ts';
import type { Accounts } from '../accounts/service.ts';
import { registerAccountRoutes } from '../accounts/routes.ts';

export function requireAdmin(app: FastifyInstance, check: AdminTokenCheck): void {
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0];
    if (!path?.startsWith('/admin/')) return;
    const token = bearerToken(request);
    if (token === undefined || !check(token)) {
      throw problem('admin_unauthorized', {
        detail: 'Send Authorization: Bearer <admin token>',
        headers: { 'www-authenticate': 'Bearer realm="gatehouse-admin"' },
      });
    }
  });
}

export function registerAdminRoutes(app: FastifyInstance, deps: { accounts: Accounts }): void {
  registerAccountRoutes(app, deps);
}
