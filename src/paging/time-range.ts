/**
 * The `since` and `until` filters every collection takes: RFC 3339 instants, `since` inclusive,
 * `until` exclusive, read to epoch milliseconds. One check, so that every list refuses a bad
 * instant, and a range that holds no instant, alike.
 */
import { isRfc3339DateTime } from '../platform/clock.ts';
import { problem } from '../platform/errors/catalogue.ts';

/** A query string's instant as epoch milliseconds; `name` is the member, for the refusal (400 `validation_failed`). */
export function queryInstant(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!isRfc3339DateTime(value)) {
    const detail = `${name} must be an RFC 3339 date-time, e.g. 2026-11-01T00:00:00Z`;
    throw problem('validation_failed', { detail, extensions: { errors: [{ pointer: `#/${name}`, in: 'query', detail }] } });
  }
  return Date.parse(value);
}

/**
 * A query's `since` and `until` as epoch milliseconds. A range that ends where it begins or
 * before is a mistake (the two swapped), not a question whose answer is "nothing": it is refused
 * (400 `validation_failed`), by every collection the same way.
 */
export function queryTimeRange(filters: { since?: string | undefined; until?: string | undefined }): { since: number | undefined; until: number | undefined } {
  const since = queryInstant('since', filters.since);
  const until = queryInstant('until', filters.until);
  if (since !== undefined && until !== undefined && since >= until) throw problem('validation_failed', { detail: 'since must be before until' });
  return { since, until };
}
