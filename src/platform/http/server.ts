/**
 * The HTTP server every listener is built from: request ids, body limits, strict JSON,
 * validation, security headers, and one error path that renders every failure in the
 * protocol of the route that failed. Nothing ever answers with a stack trace.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { isHttpError, type HttpError } from '../errors/http-error.ts';
import { problem } from '../errors/catalogue.ts';
import { ErrorFormats } from '../errors/error-formats.ts';
import { serializeProblem } from '../errors/problem-json.ts';
import { createValidatorCompiler } from './validation.ts';
import { guardInput } from './input-guard.ts';
import { isDatabaseUnavailable, isTransactionConflict } from '../db/database.ts';
import type { MetricsRegistry } from '../metrics.ts';
import { requestLineWriter, requestLoggerFactory } from '../logging.ts';
import { requestPath } from './request-path.ts';

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
  /** Trust X-Forwarded-* from a reverse proxy. */
  trustProxy?: boolean;
  /** Where request counts and latencies are recorded, labelled with this listener's name. */
  metrics?: { registry: MetricsRegistry; listener: string };
}

export interface RegisteredRoute {
  method: string;
  url: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy ?? false,
    // Closing idle keep-alive sockets lets graceful shutdown finish promptly while
    // requests in flight still complete.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    disableRequestLogging: true,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 256 },
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

  // The hooks every request passes are plain callbacks: no promise per hook on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
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

  const recordMetrics = requestMetrics(options.metrics);
  // Decided once: building the log record for every request costs even when it is dropped.
  const logRequest = requestLineWriter(options.logger);
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    recordMetrics?.(request.method, route, reply.statusCode, reply.elapsedTime);
    logRequest?.(request, route, reply.statusCode, reply.elapsedTime);
    done();
  });

  app.setNotFoundHandler((request, reply) => {
    sendError(app, request, reply, problem('not_found', { detail: `No route for ${request.method} ${requestPath(request)}` }));
  });

  app.setErrorHandler((error, request, reply) => {
    sendError(app, request, reply, toHttpError(error, request));
  });

  return app;
}

/**
 * Counts requests by route and status and observes their latency. Label sets are resolved once
 * per (method, route, status) and kept, so a request costs two increments. They are found by the
 * route (the same string on every request of that route) and then a short scan: no key string
 * is built per request.
 */
function requestMetrics(metrics: HttpServerOptions['metrics']) {
  if (!metrics) return undefined;
  const { registry, listener } = metrics;
  const requests = registry.counter('gatehouse_http_requests_total', 'HTTP requests by listener, method, route and status');
  const latency = registry.histogram('gatehouse_http_request_duration_seconds', 'HTTP request latency by listener and route');
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
        count: requests.series({ listener, method, route, status: String(status) }),
        time: latency.series({ listener, route }),
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
  const fe = error as FastifyError & { validation?: Array<{ instancePath?: string; message?: string; params?: Record<string, unknown> }> };
  if (fe.validation) {
    const errors = fe.validation.map((v) => ({
      path: describePath(fe.validationContext, v.instancePath, v.params),
      message: v.message ?? 'is invalid',
    }));
    const first = errors[0];
    return problem('validation_failed', {
      detail: first ? `${first.path} ${first.message}` : 'request is invalid',
      extensions: { errors },
    });
  }
  switch (fe.code) {
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
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return problem('service_unavailable', { detail: 'The database is unavailable; retry shortly.', headers: { 'retry-after': '1' } });
  }
  request.log.error({ err: error }, 'unhandled error');
  return problem('internal_error', { detail: `Request ${request.id} failed; the error was logged.` });
}

function describePath(part: string | undefined, instancePath = '', params: Record<string, unknown> = {}): string {
  const where = part === 'querystring' ? 'query' : (part ?? 'body');
  const pointer = instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = typeof params.missingProperty === 'string' ? params.missingProperty : undefined;
  const extra = typeof params.additionalProperty === 'string' ? params.additionalProperty : undefined;
  const leaf = [pointer, missing ?? extra].filter(Boolean).join('.');
  return leaf ? `${where}.${leaf}` : where;
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
