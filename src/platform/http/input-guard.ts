/**
 * Limits every request's parsed input must meet before validation, on every route and with
 * whatever parser produced it (JSON, SCIM JSON, forms, query strings, path parameters):
 *
 * - nesting at most MAX_JSON_DEPTH levels, so that recursive code after the parser
 *   (validation, request fingerprints, SCIM coercion) stays bounded;
 * - no U+0000 in any string or member name: PostgreSQL text cannot hold it, so refusing it
 *   here makes both databases answer the same 400 instead of one of them failing.
 *
 * The walk is iterative and stops at the first finding.
 */
import type { FastifyRequest } from 'fastify';
import { problem } from '../errors/catalogue.ts';

export const MAX_JSON_DEPTH = 32;

export type InputFinding = 'too_deep' | 'nul';

/** The first limit `value` breaks, or undefined. */
export function inspectInput(value: unknown, maxDepth = MAX_JSON_DEPTH): InputFinding | undefined {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      if (node.includes('\u0000')) return 'nul';
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) return 'too_deep';
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth + 1]);
    } else {
      for (const [name, child] of Object.entries(node)) {
        if (name.includes('\u0000')) return 'nul';
        stack.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

export function guardInput(request: FastifyRequest): void {
  for (const [part, value] of [['body', request.body], ['query', request.query], ['path', request.params]] as const) {
    const finding = inspectInput(value);
    if (finding === 'too_deep') throw problem('malformed_json', { detail: `The ${part} nests deeper than ${MAX_JSON_DEPTH} levels` });
    if (finding === 'nul') throw problem('malformed_request', { detail: `The ${part} contains a NUL character (U+0000), which no field accepts` });
  }
}
