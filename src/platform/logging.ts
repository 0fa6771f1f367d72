/**
 * Structured JSON logs (pino). Credentials never reach a log line: authorization headers,
 * cookies and any field named like a secret are redacted wherever they appear. Logging never
 * blocks a request: lines go to standard output through an asynchronous buffer, bounded in
 * memory, written in batches and flushed when the process exits. The request line, written
 * for every request, is built by a logger of its own without redaction, since its fields (request
 * id, method, route pattern, status, time) are fixed and hold nothing to redact.
 */
import { pino, destination, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';

export type LogDestination = DestinationStream;

const SECRET_NAMES = ['password', 'client_secret', 'secret', 'token', 'access_token', 'refresh_token', 'code', 'code_verifier', 'client_assertion'];

/** A secret-named field at the top of a line and one level down (`*.x` does not match a top-level `x`). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_NAMES,
  ...SECRET_NAMES.map((name) => `*.${name}`),
];

/** Lines are written once this much is buffered, or at the latest every FLUSH_EVERY_MS. */
const BATCH_BYTES = 4096;
const FLUSH_EVERY_MS = 1000;
/**
 * Past this much unwritten output (a reader of standard output stalled), new lines are dropped
 * rather than held: memory stays bounded and requests never wait for the log.
 */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Where a logger made by createLogger keeps its request-line logger (children inherit it). */
const REQUEST_LINES = Symbol('gatehouse request lines');

type WithRequestLines = FastifyBaseLogger & { [REQUEST_LINES]?: Logger };

function baseOptions(level: string, timestamp: () => string): LoggerOptions {
  return {
    level,
    base: { service: 'gatehouse' },
    timestamp,
    formatters: { level: (label) => ({ level: label }) },
  };
}

/**
 * pino's ISO time field, with the text up to the second made once a second: formatting a Date
 * was a quarter of what a request line cost.
 */
function isoTimeBySecond(): () => string {
  let second = Number.NaN;
  let upToSecond = '';
  return () => {
    const now = Date.now();
    const ms = now % 1000;
    if (now - ms !== second) {
      second = now - ms;
      upToSecond = new Date(second).toISOString().slice(0, 19);
    }
    return `,"time":"${upToSecond}.${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  };
}

export function createLogger(options: { level: string; destination?: LogDestination | undefined }): FastifyBaseLogger {
  // pino.destination, not a SonicBoom of our own: pino writes out its buffer when the process exits.
  const stream =
    options.destination ??
    destination({ fd: 1, sync: false, minLength: BATCH_BYTES, periodicFlush: FLUSH_EVERY_MS, maxLength: MAX_BUFFERED_BYTES });
  const timestamp = isoTimeBySecond();
  const logger = pino({ ...baseOptions(options.level, timestamp), redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  // No base of its own: a listener's logger passes on all its bindings, `service` included.
  Object.defineProperty(logger, REQUEST_LINES, { value: pino({ ...baseOptions(options.level, timestamp), base: null }, stream) });
  return logger as unknown as FastifyBaseLogger;
}

/** Writes the one line a request leaves at `info`. */
export type RequestLine = (request: FastifyRequest, route: string, status: number, elapsedMs: number) => void;

/**
 * The request-line writer of a listener's logger (with that logger's bindings, e.g. the
 * listener), or undefined when its level leaves request lines out. A logger not made by
 * createLogger writes through the request's own logger.
 */
export function requestLineWriter(logger: FastifyBaseLogger): RequestLine | undefined {
  if (!['info', 'debug', 'trace'].includes(logger.level)) return undefined;
  const plain = (logger as WithRequestLines)[REQUEST_LINES];
  if (plain === undefined) {
    return (request, route, status, elapsedMs) => request.log.info({ method: request.method, route, status, ms: roundMs(elapsedMs) }, 'request');
  }
  const lines = plain.child((logger as unknown as Logger).bindings());
  return (request, route, status, elapsedMs) => lines.info({ reqId: request.id, method: request.method, route, status, ms: roundMs(elapsedMs) }, 'request');
}

function roundMs(ms: number): number {
  return Math.round(ms * 10) / 10;
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
