/**
 * The OpenAPI 3.1 document is generated from the route schemas themselves (so it cannot
 * drift from what is validated), served at /openapi.json, and rendered as a plain, readable
 * HTML page at /docs that needs no JavaScript.
 */
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
    transformObject: (generated) => finishDocument((generated as { openapiObject: Record<string, unknown> }).openapiObject) as never,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) => {
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .header('x-frame-options', 'DENY');
    return renderDocs(app.swagger() as unknown as OpenApiDocument);
  });
}

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

function renderDocs(doc: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags?.[0] ?? 'other';
      const params = (op.parameters ?? [])
        .map((p) => `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ', required' : ''})${p.description ? ` — ${escape(p.description)}` : ''}</li>`)
        .join('');
      const responses = Object.entries(op.responses ?? {})
        .map(([status, r]) => `<li><code>${escape(status)}</code> ${escape(r.description ?? '')}</li>`)
        .join('');
      const html = `<section><h3><span class="m">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
<p>${escape(op.summary ?? '')}</p>${op.description ? `<p>${escape(op.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}${responses ? `<h4>Responses</h4><ul>${responses}</ul>` : ''}</section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const sections = [...byTag.entries()].map(([tag, ops]) => `<h2 id="tag-${escape(tag)}">${escape(tag)}</h2>${ops.join('\n')}`).join('\n');
  const errors = Object.entries(PROBLEMS)
    .map(([code, p]) => `<tr id="error-${code}"><td><code>${code}</code></td><td>${p.status}</td><td>${escape(p.title)}</td></tr>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(doc.info.title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}code{background:#f3f3f3;padding:0 .2em}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{font-weight:700;color:#0b5394}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}</style>
</head><body><main><h1>${escape(doc.info.title)}</h1><p>${escape(doc.info.description ?? '')}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
${sections}
<h2 id="errors">Error codes</h2><p>Errors outside OAuth and SCIM are RFC 9457 <code>application/problem+json</code> bodies whose <code>code</code> is one of:</p>
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
