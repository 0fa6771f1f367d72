/**
 * The OpenAPI 3.1 document is generated from the route schemas themselves (so it cannot
 * drift from what is validated), served at /openapi.json, and rendered at /docs as an API
 * reference; /docs/errors lists the error codes, which problem+json `type` members point at.
 */
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { PROBLEMS } from '../errors/catalogue.ts';
import { finishDocument } from './openapi-document.ts';

export interface OpenApiInfo {
  title: string;
  description: string;
  serverUrl: string;
  securitySchemes: Record<string, unknown>;
}

export async function registerOpenApi(app: FastifyInstance, info: OpenApiInfo): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: info.title, description: info.description, version: '1', license: { name: 'Apache-2.0', identifier: 'Apache-2.0' } },
      servers: [{ url: info.serverUrl }],
      components: { securitySchemes: info.securitySchemes as never },
    },
    hideUntagged: true,
    transformObject: (generated) =>
      finishDocument((generated as { openapiObject: Record<string, unknown> }).openapiObject, (path, status) => app.errorFormats.answeredStatus(path, status)) as never,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
  registerReferencePage(app);
  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/html; charset=utf-8').headers(pageHeaders("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"));
    return renderErrorCatalogue(app.swagger() as unknown as OpenApiDocument);
  });
}

/**
 * /docs: the API reference rendered in the browser by Scalar (search, schemas, examples and a
 * request client), from the installed package and this server only: no CDN, works offline, and
 * the page's CSP lets it reach nothing but this origin. The page has no inline script, so the
 * CSP needs no 'unsafe-inline' for scripts.
 */
// The package exports no path to its browser bundle; it sits beside the main entry point.
const scalarBundlePath = () => path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js');

const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function pageHeaders(csp: string): Record<string, string> {
  return { 'content-security-policy': csp, 'x-frame-options': 'DENY', 'cache-control': 'no-cache', 'referrer-policy': 'no-referrer' };
}

function registerReferencePage(app: FastifyInstance): void {
  let bundle: Buffer | undefined;
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    const doc = app.swagger() as unknown as OpenApiDocument;
    reply.type('text/html; charset=utf-8').headers(pageHeaders(REFERENCE_CSP));
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}</title></head>
<body><noscript><p>The API reference needs JavaScript. The document itself is at <a href="/openapi.json">/openapi.json</a>; error codes are listed at <a href="/docs/errors">/docs/errors</a>.</p></noscript>
<div id="reference"></div><script src="/docs/scalar.js"></script><script src="/docs/reference.js"></script></body></html>`;
  });
  app.get('/docs/scalar.js', { schema: { hide: true } }, async (_request, reply) => {
    bundle ??= await readFile(scalarBundlePath());
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return bundle;
  });
  app.get('/docs/reference.js', { schema: { hide: true } }, async (_request, reply) => {
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache');
    return REFERENCE_SCRIPT;
  });
}

// Nothing leaves this origin: no fonts from a CDN, no telemetry, no AI agent, no proxy.
const REFERENCE_SCRIPT = `Scalar.createApiReference('#reference', ${JSON.stringify({
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  hideClientButton: false,
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
})});
`;

interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: { type?: string } }>;
  requestBody?: unknown;
  responses?: Record<string, { description?: string }>;
}
interface OpenApiDocument {
  info: { title: string; description?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The error codes, each at its anchor: problem+json `type` members point here. */
function renderErrorCatalogue(doc: OpenApiDocument): string {
  const errors = Object.entries(PROBLEMS)
    .map(([code, p]) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${p.status}</td><td>${escape(p.title)}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}: error codes</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}code{background:#f3f3f3;padding:0 .2em}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}:target{background:#fff3c4}</style>
</head><body><main><h1>Error codes</h1><p>Errors outside OAuth and SCIM are RFC 9457 <code>application/problem+json</code> bodies whose <code>code</code> is one of these. The API reference is at <a href="/docs">/docs</a>.</p>
<table><thead><tr><th>code</th><th>status</th><th>meaning</th></tr></thead><tbody>${errors}</tbody></table>
</main></body></html>`;
}

/**
 * A route config that adds `extra` to the route's schema in the API document only: for what the
 * route answers or reads outside its validated schema (HTML pages, redirects, form fields that
 * the handler checks itself so that errors keep the protocol's shape).
 */
export function documentedOnly(extra: Record<string, unknown>): { swaggerTransform: (input: { schema?: unknown; url: string }) => { schema: never; url: string } } {
  return {
    swaggerTransform: ({ schema, url }) => ({ schema: { ...(schema as object | undefined), ...extra } as never, url }),
  };
}
