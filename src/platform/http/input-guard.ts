/**
 * Limits every request's parsed input must meet before validation, on every route and with
 * whatever parser produced it (JSON, SCIM JSON, forms, query strings, path parameters):
 *
 * - nesting at most MAX_JSON_DEPTH levels, so that recursive code after the parser
 *   (validation, request fingerprints, SCIM coercion) stays bounded;
 * - no U+0000 in any string or member name: PostgreSQL text cannot hold it, so refusing it
 *   here makes both databases answer the same 400 instead of one of them failing;
 * - every string and member name well-formed UTF-16: a JSON escape can spell a lone surrogate
 *   (`"\ud800"`), which no UTF-8 store can hold, so it would be stored as U+FFFD while the
 *   answer to the write echoed the original (RFC 8259 §8.2 leaves such strings' handling
 *   unpredictable). Percent-encoded forms, queries and paths cannot carry one: their parsers
 *   decode UTF-8 only.
 *
 * The walk is iterative and stops at the first finding. Both string checks are single native
 * scans; `isWellFormed` returns at once for strings V8 holds as one-byte (most input).
 */
import type { FastifyRequest } from 'fastify';
import { problem } from '../errors/catalogue.ts';

export const MAX_JSON_DEPTH = 32;

export type InputFinding = 'too_deep' | 'nul' | 'lone_surrogate';

/** What a string breaks, if anything. */
function inspectString(text: string): InputFinding | undefined {
  if (text.includes('\u0000')) return 'nul';
  return isWellFormed(text) ? undefined : 'lone_surrogate';
}

// ES2024, in Node since 20; the compiler's library stops at ES2023.
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** The first limit `value` breaks, or undefined. */
export function inspectInput(value: unknown, maxDepth = MAX_JSON_DEPTH): InputFinding | undefined {
  const flat = maxDepth > 0 ? inspectFlat(value) : 'nested';
  if (flat !== 'nested') return flat;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') {
      const finding = inspectString(node);
      if (finding) return finding;
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    if (depth >= maxDepth) return 'too_deep';
    if (Array.isArray(node)) {
      for (const child of node) stack.push([child, depth + 1]);
    } else {
      for (const [name, child] of Object.entries(node)) {
        const finding = inspectString(name);
        if (finding) return finding;
        stack.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * Most inputs are a scalar or one object of scalars (query strings, path parameters, small
 * forms): those are checked here without building the walk's stack; 'nested' sends the rest
 * to the full walk.
 */
function inspectFlat(value: unknown): InputFinding | undefined | 'nested' {
  if (typeof value === 'string') return inspectString(value);
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) return 'nested';
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const child: unknown = (value as Record<string, unknown>)[name];
    if (child !== null && typeof child === 'object') return 'nested';
    const finding = inspectString(name) ?? (typeof child === 'string' ? inspectString(child) : undefined);
    if (finding) return finding;
  }
  return undefined;
}

const PARTS = ['body', 'query', 'path'] as const;

export function guardInput(request: FastifyRequest): void {
  const values = [request.body, request.query, request.params];
  for (let i = 0; i < PARTS.length; i++) {
    const finding = inspectInput(values[i]);
    if (finding === undefined) continue;
    const part = PARTS[i]!;
    if (finding === 'too_deep') throw problem('malformed_json', { detail: `The ${part} nests deeper than ${MAX_JSON_DEPTH} levels` });
    if (finding === 'lone_surrogate') throw problem('malformed_request', { detail: `The ${part} contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape), which is not text` });
    throw problem('malformed_request', { detail: `The ${part} contains a NUL character (U+0000), which no field accepts` });
  }
}
