/**
 * The `since` and `until` filters every collection takes: RFC 3339 instants, `since` inclusive,
 * `until` exclusive, read to epoch milliseconds. One check, so that every list refuses a bad
 * instant alike.
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
