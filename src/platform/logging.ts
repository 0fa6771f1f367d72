/**
 * Structured JSON logs (pino). Credentials never reach a log line: authorization headers,
 * cookies and any field named like a secret are redacted wherever they appear.
 */
import { pino, destination, stdTimeFunctions, type DestinationStream } from 'pino';
import type { FastifyBaseLogger } from 'fastify';

export type LogDestination = DestinationStream;

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.password',
  '*.client_secret',
  '*.secret',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.code',
  '*.code_verifier',
  '*.client_assertion',
];

export function createLogger(options: { level: string; destination?: LogDestination | undefined }): FastifyBaseLogger {
  return pino(
    {
      level: options.level,
      base: { service: 'gatehouse' },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? destination({ fd: 1, sync: false }),
  ) as unknown as FastifyBaseLogger;
}

type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
/** Whatever pino's log methods accept; passed through unchanged. */
type LogArgs = [unknown, ...unknown[]];
type Delegate = (...args: LogArgs) => void;

/**
 * The logger of one request, made from its parent only when the request first logs. A pino
 * child serialises (and redacts) its bindings when it is made, which costs more than serving
 * a small request, and most requests never log; the lines that are written carry the same
 * bindings (the request id) as an eager child's. Methods live on the prototype, so a request
 * allocates one small object.
 */
class RequestLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Record<string, unknown>;
  readonly #options: ChildOptions;
  #made: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get #logger(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return this.#made?.level ?? (this.#options?.level || this.#parent.level);
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  #log(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: LogArgs): void {
    const logger = this.#logger;
    (logger[method] as Delegate).apply(logger, args);
  }

  fatal(...args: LogArgs): void {
    this.#log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.#log('error', args);
  }
  warn(...args: LogArgs): void {
    this.#log('warn', args);
  }
  info(...args: LogArgs): void {
    this.#log('info', args);
  }
  debug(...args: LogArgs): void {
    this.#log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.#log('trace', args);
  }
  silent(): void {}

  child(bindings: Record<string, unknown>, options?: ChildOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** fastify's `childLoggerFactory`: each request's logger, made on first use (see RequestLogger). */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Record<string, unknown>, options: ChildOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
