/**
 * Structured JSON logs (pino). Credentials never reach a log line: authorization headers,
 * cookies and any field named like a secret are redacted wherever they appear. Logging never
 * blocks a request: lines go to standard output through an asynchronous buffer, bounded in
 * memory, written in batches and flushed when the process exits. The request line, written
 * for every request, does not go through pino at all: its fields (request id, method, route
 * pattern, status, time) are fixed and hold nothing to redact, so it is one template filled in
 * and handed to the same destination, with the listener's bindings serialised once.
 */
import fs from 'node:fs';
import { pino, destination, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { jsonString } from './text.ts';

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

/** Lines are written once this much is gathered, or at the latest every FLUSH_EVERY_MS. */
const BATCH_CHARS = 4096;
const FLUSH_EVERY_MS = 1000;
/**
 * Past this much unwritten output (a reader of standard output stalled), new lines are dropped
 * rather than held: memory stays bounded and requests never wait for the log.
 */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Where a logger made by createLogger keeps what its request lines need (children inherit it). */
const REQUEST_LINES = Symbol('gatehouse request lines');

interface RequestLineTarget {
  stream: LogDestination;
  /** pino's `,"time":"…"` field, as on every other line. */
  time: () => string;
}

type WithRequestLines = FastifyBaseLogger & { [REQUEST_LINES]?: RequestLineTarget };

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

/** pino's destination; `destroyed` once closed (its types leave it out). */
type SonicBoom = ReturnType<typeof destination> & { destroyed?: boolean };

/**
 * Standard output, written asynchronously in batches. Lines are gathered here and handed to
 * pino's destination (sonic-boom) a batch at a time, not one by one: on every write sonic-boom
 * measures the byte length of all it holds unwritten (up to 16 KiB scanned for a 200-byte line),
 * which cost more than making the line. Whatever is gathered is written out when the process
 * exits, as pino does for the destination itself.
 */
class BatchedOutput {
  readonly #target: SonicBoom;
  readonly #fd: number;
  #pending = '';

  constructor(target: SonicBoom, fd: number) {
    this.#target = target;
    this.#fd = fd;
    setInterval(() => this.#handOver(), FLUSH_EVERY_MS).unref();
    pendingAtExit.add(this);
  }

  write(text: string): boolean {
    this.#pending += text;
    if (this.#pending.length >= BATCH_CHARS) this.#handOver();
    return true;
  }

  /** pino's `logger.flush(cb)`: hands over what is gathered and calls back once it is written. */
  flush(done: (error?: Error) => void): void {
    this.#handOver();
    this.#target.flush(done);
  }

  /**
   * Writes out everything gathered, synchronously (at exit: no event loop to wait on). The
   * gathered batch is written here, not handed over: handed to sonic-boom it would start an
   * asynchronous write that the exiting process does not wait for, and its flushSync leaves a
   * write it has started alone (Node 24 exits before that write lands).
   */
  flushSync(): void {
    if (this.#target.destroyed) return;
    this.#target.flushSync();
    const batch = this.#pending;
    this.#pending = '';
    if (batch !== '') writeAllSync(this.#fd, Buffer.from(batch));
  }

  #handOver(): void {
    if (this.#pending === '' || this.#target.destroyed) return;
    const batch = this.#pending;
    this.#pending = '';
    this.#target.write(batch);
  }
}

/** Writes all of `bytes` to `fd`, waiting out a full non-blocking pipe (EAGAIN) a millisecond at a time. */
function writeAllSync(fd: number, bytes: Buffer): void {
  let offset = 0;
  let waits = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(fd, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || ++waits > 2000) throw error;
      Atomics.wait(EXIT_WAIT, 0, 0, 1);
    }
  }
}
const EXIT_WAIT = new Int32Array(new SharedArrayBuffer(4));

const pendingAtExit = new Set<BatchedOutput>();
process.once('exit', () => {
  for (const output of pendingAtExit) {
    try {
      output.flushSync();
    } catch {
      // Standard output is gone (closed pipe): nothing left to write to.
    }
  }
});

function standardOutput(): LogDestination {
  // pino.destination, not a SonicBoom of our own: pino ends it cleanly (EPIPE, exit) too. No
  // minLength: the batches are made above.
  return new BatchedOutput(destination({ fd: 1, sync: false, maxLength: MAX_BUFFERED_BYTES }), 1);
}

export function createLogger(options: { level: string; destination?: LogDestination | undefined }): FastifyBaseLogger {
  const stream = options.destination ?? standardOutput();
  const timestamp = isoTimeBySecond();
  const logger = pino({ ...baseOptions(options.level, timestamp), redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, stream);
  Object.defineProperty(logger, REQUEST_LINES, { value: { stream, time: timestamp } satisfies RequestLineTarget });
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
  const target = (logger as WithRequestLines)[REQUEST_LINES];
  if (target === undefined) {
    return (request, route, status, elapsedMs) => request.log.info({ method: request.method, route, status, ms: roundMs(elapsedMs) }, 'request');
  }
  // The same line pino would write (same fields, same order), without pino's work per call:
  // the bindings (`service`, the listener) are serialised once, the route is quoted once per
  // route, and the request id and method need no escaping (jsonString quotes them as they are).
  const { stream, time } = target;
  const bound = bindingsText((logger as unknown as Logger).bindings());
  const routes = new Map<string, string>();
  return (request, route, status, elapsedMs) => {
    let quotedRoute = routes.get(route);
    if (quotedRoute === undefined) routes.set(route, (quotedRoute = JSON.stringify(route)));
    stream.write(
      `{"level":"info"${time()}${bound},"reqId":${jsonString(request.id)},"method":${jsonString(request.method)},"route":${quotedRoute},"status":${status},"ms":${roundMs(elapsedMs)},"msg":"request"}\n`,
    );
  };
}

/** A logger's bindings as the JSON fields that follow `time` (each with its leading comma). */
function bindingsText(bindings: Record<string, unknown>): string {
  const text = JSON.stringify(bindings);
  return text === '{}' ? '' : `,${text.slice(1, -1)}`;
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
