/**
 * Taking listeners out of service without dropping a request.
 *
 * 1. Draining (the shutdown grace): readiness answers 503 (health.ts) so balancers stop
 *    choosing this node, while every request is still served; each response carries
 *    `Connection: close` (RFC 9112 §9.6), so a keep-alive client opens its next connection
 *    elsewhere instead of sending it on one about to close.
 * 2. The listening socket closes: new connections are refused, which clients and balancers
 *    retry elsewhere (nothing was sent). Connections already open stay open, unlike with
 *    `http.Server#close`, which also destroys every connection between two requests at that
 *    instant, including one whose request is already on its way. After a short settling time
 *    for such requests, connections that carry none are closed.
 * 3. Requests in flight finish (their responses close their connections) until the shutdown
 *    timeout; connections still open then are cut, and counted.
 *
 * Fastify's own close runs last, when no connection is left, so its 503 for requests arriving
 * on a closing listener (return503OnClosing) never answers one.
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { settlesWithin } from '../deadline.ts';

/** Time for requests already sent on open connections to arrive once the listener closes. */
export const SETTLE_MS = 250;

export interface Drain {
  /** True from the moment the process starts stopping. */
  readonly draining: boolean;
  begin(): void;
}

export function createDrain(): Drain {
  let draining = false;
  return {
    get draining() {
      return draining;
    },
    begin() {
      draining = true;
    },
  };
}

/** Registered before any route, so it covers every response of the listener. */
export function closeConnectionsWhileDraining(server: FastifyInstance, drain: Drain): void {
  server.addHook('onSend', (_request, reply, payload, done) => {
    if (drain.draining) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Steps 2 and 3 for one listener (step 1 is the caller's wait). Resolves with the number of
 * connections cut at the timeout, once fastify has closed.
 */
export async function closeListener(server: FastifyInstance, options: { settleMs: number; timeoutMs: number }): Promise<number> {
  const http = server.server;
  let cut = 0;
  if (http.listening) {
    // net.Server's close: stops accepting and calls back once every connection has ended.
    const ended = new Promise<void>((resolve) => net.Server.prototype.close.call(http, () => resolve()));
    const deadline = performance.now() + options.timeoutMs;
    if (!(await settlesWithin(ended, Math.min(options.settleMs, options.timeoutMs)))) {
      http.closeIdleConnections();
      if (!(await settlesWithin(ended, deadline - performance.now()))) {
        cut = await openConnections(http);
        http.closeAllConnections();
        await ended;
      }
    }
  }
  await server.close();
  return cut;
}

function openConnections(server: net.Server): Promise<number> {
  return new Promise((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count)));
}
