/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers and
 * the process is not stopping; while it drains, 503 `draining` takes it out of balancers).
 */
import type { FastifyInstance } from 'fastify';

export function registerHealthRoutes(app: FastifyInstance, deps: { ready: () => Promise<void>; draining?: () => boolean }): void {
  const status = { type: 'object', properties: { status: { type: 'string' } } } as const;
  app.get('/healthz', { schema: { tags: ['health'], operationId: 'getLiveness', summary: 'Liveness', response: { 200: status } } }, async () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { schema: { tags: ['health'], operationId: 'getReadiness', summary: 'Readiness: the database answers and the node is not stopping', response: { 200: status, 503: status } } },
    async (request, reply) => {
      if (deps.draining?.()) {
        reply.code(503);
        return { status: 'draining' };
      }
      try {
        await deps.ready();
        return { status: 'ready' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        reply.code(503);
        return { status: 'unavailable' };
      }
    },
  );
}
