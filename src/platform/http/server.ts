/**
 * The HTTP server every listener is built from: request ids, body limits, strict JSON,
 * validation, security headers, and one error path that renders every failure in the
 * protocol of the route that failed. Nothing ever answers with a stack trace.
 *
 * It also bounds what a client may hold (see HttpLimits): a request must arrive whole within
 * the request timeout and its headers within the headers timeout (else 408), an idle keep-alive
 * connection closes after the keep-alive timeout, and a listener keeps at most `maxConnections`
 * open. Failures the framework or Node would answer in their own shape (a bad percent-escape,
 * unparsable HTTP, a timeout, a request during shutdown) are answered as problem+json with a
 * request id too.
 */
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../../config.ts';
import { isHttpError, type HttpError } from '../errors/http-error.ts';
import { problem } from '../errors/catalogue.ts';
import { ErrorFormats, type SerializedError } from '../errors/error-formats.ts';
import { serializeProblem } from '../errors/problem-json.ts';
import { createValidatorCompiler } from './validation.ts';
import { guardInput } from './input-guard.ts';
import { jsonBody } from './json-body.ts';
import { isClosedAccountWrite, isDatabaseUnavailable, isTransactionConflict } from '../db/database.ts';
import { bindCounter, bindHistogram, type MetricsRegistry } from '../metrics.ts';
import { requestLineWriter, requestLoggerFactory } from '../logging.ts';
import { requestPath } from './request-path.ts';
import { allowedMethods, ROUTER_OPTIONS } from './allowed-methods.ts';
import { invalidMembers, summary, type SchemaError } from './validation-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Name of the error serializer for this route (see ErrorFormats). */
    errorFormat?: string;
  }
  interface FastifyInstance {
    errorFormats: ErrorFormats;
    /** Every route registered on this listener, as the router holds it (security tests enumerate them). */
    registeredRoutes: RegisteredRoute[];
  }
}

export interface HttpServerOptions {
  logger: FastifyBaseLogger;
  bodyLimit: number;
  /** Base URL used in problem `type` links. */
  issuer: string;
  /**
   * Addresses and CIDR blocks of the reverse proxies in front: a request from one of them has its
   * client address taken from X-Forwarded-For (skipping trusted hops); from anyone else the header
   * is ignored. Empty or absent: no proxy is trusted.
   */
  trustProxy?: readonly string[];
  /** Where request counts and latencies are recorded, labelled with this listener's name. */
  metrics?: { registry: MetricsRegistry; listener: string };
  /** How long a client may take and how many connections it may hold. */
  limits: HttpLimits;
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

export interface HttpLimits {
  /** The request line, headers and body must all arrive within this, milliseconds. */
  requestTimeoutMs: number;
  /** The request line and headers must arrive within this, milliseconds; at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this, milliseconds. */
  keepAliveTimeoutMs: number;
  /** Open connections on the listener; further ones are closed as they arrive. */
  maxConnections: number;
}

/** The limits the settings give, in the units the server takes. */
export function httpLimitsOf(config: Pick<Config, 'httpRequestTimeout' | 'httpHeadersTimeout' | 'httpKeepAliveTimeout' | 'httpMaxConnections'>): HttpLimits {
  return {
    requestTimeoutMs: config.httpRequestTimeout * 1000,
    headersTimeoutMs: config.httpHeadersTimeout * 1000,
    keepAliveTimeoutMs: config.httpKeepAliveTimeout * 1000,
    maxConnections: config.httpMaxConnections,
  };
}

/**
 * How often Node looks for requests past their timeouts. Its default (30 s) would let a
 * request outlive its timeout by that much; a check a second costs a walk of the connections
 * still receiving a request.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const { limits } = options;
  // The headers are part of the request: a longer headers timeout could never apply.
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  const completed = requestCompleted(options);
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    // Only with a list: fastify's proxy-aware request also reads X-Forwarded-Host and -Proto.
    trustProxy: options.trustProxy && options.trustProxy.length > 0 ? [...options.trustProxy] : false,
    // Closing idle keep-alive sockets lets graceful shutdown finish promptly while
    // requests in flight still complete. A request arriving meanwhile is answered 503 by
    // the onRequest hook below, in the route's error shape.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { requestTimeout: limits.requestTimeoutMs, headersTimeout, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    clientErrorHandler: answerClientError(options),
    frameworkErrors: (error, request, reply) => {
      // Raised before routing: no hook runs for this request, so it is counted and logged here.
      reply.header('x-request-id', request.id);
      reply.header('x-content-type-options', 'nosniff');
      sendError(app, request, reply, toHttpError(error, request));
      completed(request, reply);
    },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Requests are logged once, on completion, by this module's own hook.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: ROUTER_OPTIONS,
  });
  app.server.maxConnections = limits.maxConnections;
  countRefusedConnections(app, options.metrics);
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.setChildLoggerFactory(requestLoggerFactory);
  app.decorate('registeredRoutes', [] as RegisteredRoute[]);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) app.registeredRoutes.push({ method, url: route.url });
  });
  app.decorate('errorFormats', new ErrorFormats('problem'));
  app.errorFormats.register('problem', (error, request) =>
    serializeProblem(error, { issuer: options.issuer, instance: requestPath(request) }),
  );

  app.setValidatorCompiler(createValidatorCompiler());
  // Only JSON is accepted unless a capability registers another media type (forms, SCIM).
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, jsonBody(app.getDefaultJsonParser('error', 'error')));

  // The hooks every request passes are plain callbacks: no promise per hook on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (closing) {
      reply.header('connection', 'close');
      done(problem('service_unavailable', { detail: 'The server is shutting down; retry the request.', headers: { 'retry-after': '1' } }));
      return;
    }
    const coding = request.headers['content-encoding'];
    if (coding !== undefined && !isIdentity(coding) && carriesBody(request)) {
      done(refusedCoding(coding));
      return;
    }
    done();
  });

  // Before validation and every handler, whatever parser produced the input.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      guardInput(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });

  app.addHook('onResponse', (request, reply, done) => {
    completed(request, reply);
    done();
  });

  const methodsOf = allowedMethods(app.registeredRoutes);
  app.setNotFoundHandler((request, reply) => {
    const path = requestPath(request);
    const allowed = methodsOf(path);
    if (allowed.length > 0) {
      sendError(app, request, reply, problem('method_not_allowed', { detail: `${path} does not accept ${request.method}; it accepts ${allowed.join(', ')}`, headers: { allow: allowed.join(', ') } }));
      return;
    }
    sendError(app, request, reply, problem('not_found', { detail: `No route for ${request.method} ${path}` }));
  });

  app.setErrorHandler((error, request, reply) => {
    sendError(app, request, reply, toHttpError(error, request));
  });

  return app;
}

/** Counts and logs (one line, at info) a request that was answered. */
function requestCompleted(options: HttpServerOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const recordMetrics = requestMetrics(options.metrics);
  // Decided once: building the log record for every request costs even when it is dropped.
  const logRequest = requestLineWriter(options.logger);
  return (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    recordMetrics?.(request.method, route, reply.statusCode, reply.elapsedTime);
    logRequest?.(request, route, reply.statusCode, reply.elapsedTime);
  };
}

/**
 * Counts requests by route and status and observes their latency. Label sets are bound once
 * per (method, route, status) and kept, so a request costs two additions. They are found by the
 * route (the same string on every request of that route) and then a short scan: no key string
 * is built per request.
 */
function requestMetrics(metrics: HttpServerOptions['metrics']) {
  if (!metrics) return undefined;
  const { registry, listener } = metrics;
  const requests = registry.counter('gatehouse_http_requests_total', 'HTTP requests by listener, method, route and status', ['listener', 'method', 'route', 'status']);
  const latency = registry.histogram('gatehouse_http_request_duration_seconds', 'HTTP request latency by listener and route', ['listener', 'route']);
  interface Series {
    method: string;
    status: number;
    count: { inc(): void };
    time: { observe(seconds: number): void };
  }
  const byRoute = new Map<string, Series[]>();
  return (method: string, route: string, status: number, elapsedMs: number) => {
    let known = byRoute.get(route);
    if (!known) byRoute.set(route, (known = []));
    let series = known.find((s) => s.status === status && s.method === method);
    if (!series) {
      series = {
        method,
        status,
        count: bindCounter(requests, { listener, method, route, status: String(status) }),
        time: bindHistogram(latency, { listener, route }),
      };
      known.push(series);
    }
    series.count.inc();
    series.time.observe(elapsedMs / 1000);
  };
}

/** Maps framework and unknown errors to catalogued ones; logs what was unexpected. */
export function toHttpError(error: unknown, request: FastifyRequest): HttpError {
  if (isHttpError(error)) return error;
  const fe = error as FastifyError & { validation?: SchemaError[] };
  if (fe.validation) {
    const errors = invalidMembers(fe.validationContext, fe.validation);
    // A limit that is not a number is out of range, as the paging documentation promises.
    if (errors.length > 0 && errors.every((e) => e.in === 'query' && e.pointer === '#/limit')) {
      return problem('limit_out_of_range', { detail: summary(errors), extensions: { errors } });
    }
    return problem('validation_failed', { detail: summary(errors), extensions: { errors } });
  }
  switch (fe.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // No id is that long, so nothing is there: answered as an unmatched route always was.
      return problem('not_found', { detail: 'A path segment is longer than any identifier: no such resource' });
    case 'FST_ERR_BAD_URL':
      return problem('malformed_request', { detail: 'The path has an invalid percent-escape or is not UTF-8' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem('unsupported_media_type', { detail: `Content-Type ${request.headers['content-type'] ?? '(none)'} is not accepted here` });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem('payload_too_large');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return problem('malformed_json', { detail: 'Body is not valid JSON' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem('malformed_json', { detail: 'Body is empty but Content-Type is application/json' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return problem('malformed_request');
  }
  if (fe instanceof SyntaxError || fe.statusCode === 400) {
    return problem(fe instanceof SyntaxError ? 'malformed_json' : 'malformed_request', { detail: safeMessage(fe) });
  }
  if (fe.statusCode === 413) return problem('payload_too_large');
  if (fe.statusCode === 415) return problem('unsupported_media_type');
  if (fe.statusCode === 503) return problem('service_unavailable');
  if (isTransactionConflict(error)) {
    // Rolled back whole, so a retry is safe; writes prone to it retry on their own first.
    request.log.warn({ err: error }, 'transaction conflict');
    return problem('service_unavailable', { detail: 'A concurrent change conflicted with this one; nothing was changed. Retry shortly.', headers: { 'retry-after': '1' } });
  }
  if (isClosedAccountWrite(error)) {
    // Each write that can meet it answers in its own terms; this is what any other says.
    return problem('account_not_found', { detail: 'The account was closed; nothing was written' });
  }
  if (isDatabaseUnavailable(error)) {
    // One line, no stack: in an outage every request lands here, and the cause is the same.
    const { code, message } = error as { code?: string; message?: string };
    request.log.warn({ cause: { code, message } }, 'database unavailable');
    return problem('service_unavailable', { detail: 'The database is unavailable; retry shortly.', headers: { 'retry-after': '1' } });
  }
  request.log.error({ err: error }, 'unhandled error');
  return problem('internal_error', { detail: `Request ${request.id} failed; the error was logged.` });
}

/**
 * Answers what Node refuses before a request exists (RFC 9110 §15.5.9 for a request that did
 * not arrive in time, RFC 6585 §5 for oversized headers, 400 for anything that is not HTTP/1.1)
 * in problem+json with a request id, then closes the connection. As Node itself does, nothing is
 * written once a response has begun on the connection: that would corrupt it.
 */
function answerClientError(options: HttpServerOptions) {
  return function onClientError(error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } | null })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const id = randomUUID();
      const refusal = clientErrorProblem(error.code);
      options.logger.info({ reqId: id, code: error.code, status: refusal.status }, 'client error answered before routing');
      socket.write(rawProblemResponse(serializeProblem(refusal, { issuer: options.issuer }), id));
    }
    socket.destroy();
  };
}

function clientErrorProblem(code: string | undefined): HttpError {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return problem('request_timeout', { detail: 'The request line, headers and body did not all arrive in time' });
  if (code === 'HPE_HEADER_OVERFLOW') return problem('headers_too_large');
  return problem('malformed_request', { detail: 'The request is not valid HTTP/1.1' });
}

function rawProblemResponse(out: SerializedError, requestId: string): string {
  const body = JSON.stringify(out.body);
  const head = [
    `HTTP/1.1 ${out.status} ${STATUS_CODES[out.status] ?? ''}`,
    `content-type: ${out.contentType}`,
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'x-content-type-options: nosniff',
    'connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** Node closes connections past the cap as they arrive; the count tells operators the cap was reached. */
function countRefusedConnections(app: FastifyInstance, metrics: HttpServerOptions['metrics']): void {
  if (!metrics) return;
  const refused = metrics.registry.counter('gatehouse_http_connections_refused_total', 'Connections closed on arrival because the listener held its maximum', ['listener']);
  const listener = metrics.listener;
  app.server.on('drop', () => refused.inc({ listener }));
}

function safeMessage(error: Error): string {
  // JSON parser messages name a position, never data worth hiding; keep them short.
  return error.message.slice(0, 200);
}

export function sendError(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, error: HttpError): void {
  const out = app.errorFormats.serializerFor(request)(error, request);
  reply.code(out.status).headers(out.headers).type(out.contentType);
  reply.send(out.body);
}

function carriesBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isIdentity(coding: string): boolean {
  return coding.trim().toLowerCase() === 'identity';
}

/**
 * A body in a content coding (gzip, br, …) is refused before it is read (RFC 9110 §15.5.16, with
 * `Accept-Encoding` saying what is accepted, §12.5.3): the parsers read bodies as they are sent,
 * so a compressed body would otherwise be parsed as its compressed bytes and refused as malformed.
 */
function refusedCoding(coding: string) {
  return problem('unsupported_content_encoding', {
    detail: `Content-Encoding ${coding.slice(0, 40)} is not accepted: send the body without a content coding`,
    headers: { 'accept-encoding': 'identity' },
  });
}
