/**
 * Pagination parameters (RFC 7644 §3.4.2.4), read the same from a GET query string and from a
 * POST /.search body:
 * - startIndex is 1-based; a value below 1 is 1. A start past every result is an empty page whose
 *   totalResults is still the number of matches, however large the start: it is bounded by
 *   MAX_START_INDEX, which no total reaches, and the page then says startIndex MAX_START_INDEX.
 * - count is the most resources a page holds; a negative count is 0, and a count above
 *   filter.maxResults of ServiceProviderConfig is maxResults. Without one a page holds
 *   DEFAULT_COUNT.
 * - Either is an integer: a number, or its decimal text (as a query string carries it; an exponent
 *   is allowed, as in 1e3). Anything else is a 400 invalidValue; null is no value (RFC 7643 §2.5).
 */
import { invalidValue } from './errors.ts';
import { MAX_RESULTS } from './discovery.ts';

export const DEFAULT_COUNT = 100;
/** Exact as a JSON number and as an SQL bigint on both databases. */
export const MAX_START_INDEX = Number.MAX_SAFE_INTEGER;

const DECIMAL = /^[+-]?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/**
 * The integer `value` stands for, or undefined when absent. A decimal text too large for a double
 * reads as ±Infinity and is kept: it is a (very large) integer, and bounded below.
 */
function integerOf(name: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'number' ? value : typeof value === 'string' && DECIMAL.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) && Math.abs(number) !== Infinity) throw invalidValue(`${name} must be an integer`);
  return number;
}

export function startIndexOf(value: unknown): number {
  return Math.min(MAX_START_INDEX, Math.max(1, integerOf('startIndex', value) ?? 1));
}

export function countOf(value: unknown): number {
  return Math.min(MAX_RESULTS, Math.max(0, integerOf('count', value) ?? DEFAULT_COUNT));
}
