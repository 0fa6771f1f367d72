/**
 * Which serializer renders an error: each protocol registers one, and a route chooses it by
 * `config.errorFormat`, or, for requests that match no route, by the prefix of the decoded path
 * (so `/%73cim/v2/Nope` answers in SCIM's shape, as `/scim/v2/Nope` does). The registry
 * belongs to one server instance; nothing here is module state.
 */
import type { FastifyRequest } from 'fastify';
import type { HttpError } from './http-error.ts';
import { decodedRequestPath } from '../http/request-path.ts';

export interface SerializedError {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  body: unknown;
}

export type ErrorSerializer = (error: HttpError, request: FastifyRequest) => SerializedError;

export class ErrorFormats {
  readonly #byName = new Map<string, ErrorSerializer>();
  readonly #byPrefix: Array<{ prefix: string; name: string }> = [];
  readonly #answersAs = new Map<string, Record<number, number>>();

  constructor(readonly fallback: string) {}

  /** `answersAs`: statuses the protocol has no answer for and answers as another (RFC 6749: a 415 is a 400). */
  register(name: string, serializer: ErrorSerializer, options: { prefixes?: string[]; answersAs?: Record<number, number> } = {}): void {
    this.#byName.set(name, serializer);
    if (options.answersAs) this.#answersAs.set(name, options.answersAs);
    for (const prefix of options.prefixes ?? []) this.#byPrefix.push({ prefix, name });
    this.#byPrefix.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  #formatByPath(path: string): string {
    return this.#byPrefix.find((p) => path.startsWith(p.prefix))?.name ?? this.fallback;
  }

  /** The status an error of `status` is answered with under `path` (for the API documents). */
  answeredStatus(path: string, status: number): number {
    return this.#answersAs.get(this.#formatByPath(path))?.[status] ?? status;
  }

  serializerFor(request: FastifyRequest): ErrorSerializer {
    const named = request.routeOptions.config?.errorFormat;
    const name = named ?? this.#formatByPath(decodedRequestPath(request));
    const serializer = this.#byName.get(name) ?? this.#byName.get(this.fallback);
    if (!serializer) throw new Error(`no error serializer registered for "${name}"`);
    return serializer;
  }
}
