/**
 * The one error type every capability throws. A `code` is stable and machine-readable
 * (clients may branch on it); `detail` is for people and may change.
 *
 * How the error is written on the wire depends on the protocol of the route that failed:
 * RFC 9457 problem+json for /v1 and the admin API, RFC 6749 §5.2 for OAuth endpoints,
 * RFC 7644 §3.12 for SCIM. Each protocol has one serializer (see `error-formats.ts`).
 */
export interface HttpErrorOptions {
  detail?: string;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Retry-After`. */
  headers?: Record<string, string>;
  /** Protocol-specific members, e.g. `scimType`, or problem extension members. */
  extensions?: Record<string, unknown>;
  cause?: unknown;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown>;

  constructor(status: number, code: string, title: string, options: HttpErrorOptions = {}) {
    super(options.detail ?? title, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = options.detail;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }
}

export function isHttpError(error: unknown): error is HttpError {
  return error instanceof HttpError;
}
