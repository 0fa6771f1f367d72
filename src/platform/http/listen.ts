/**
 * Binding a listener, or stopping start-up with one line that names the setting to change.
 * A process that cannot bind one of its listeners must not run at all: half a node (a public
 * listener without its admin API, or background work with no listener) passes health checks
 * and does work while nobody can operate it. So callers bind every listener before they start
 * any background work, and a failure here ends the start.
 */
import type { FastifyInstance } from 'fastify';

export class ListenError extends Error {
  override name = 'ListenError';
  /** The system's code (EADDRINUSE, EACCES...), so a caller may still tell the causes apart. */
  readonly code: string | undefined;

  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.code = (options.cause as { code?: string } | undefined)?.code;
  }
}

export interface ListenTarget {
  host: string;
  port: number;
  /** The settings that chose the address and the port (environment variable names). */
  hostSetting: string;
  portSetting: string;
}

/** Resolves with the address listened on, as fastify gives it. */
export async function listenOrExplain(server: FastifyInstance, target: ListenTarget): Promise<string> {
  try {
    return await server.listen({ host: target.host, port: target.port });
  } catch (error) {
    throw new ListenError(explain(error, target), { cause: error });
  }
}

/** What went wrong, said against the setting that decides it. */
function explain(error: unknown, target: ListenTarget): string {
  const { code, message } = error as { code?: string; message?: string };
  const where = `${target.host}:${target.port}`;
  switch (code) {
    case 'EADDRINUSE':
      return `${target.portSetting}: ${where} is already in use`;
    case 'EACCES':
      return `${target.portSetting}: not permitted to listen on ${where} (ports below 1024 need privileges)`;
    case 'EADDRNOTAVAIL':
      return `${target.hostSetting}: ${target.host} is not an address of this machine`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return `${target.hostSetting}: ${target.host} does not resolve to an address`;
    default:
      return `${target.portSetting}: cannot listen on ${where}: ${message ?? String(error)}`;
  }
}
