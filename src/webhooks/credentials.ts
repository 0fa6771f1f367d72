/**
 * What an attempt needs of its endpoint that is sealed at rest: its signing secrets and its own
 * headers, opened with the secrets key once and kept for the next attempts. Each is kept beside
 * the sealed form it came from, and a claim brings the endpoint's current sealed forms: a
 * rotation or an update changes them, so a replaced secret or header set is never used again.
 * At most CACHED_ENDPOINTS endpoints are kept; past that the cache starts over.
 */
import type { Sealer } from './secrets.ts';
import { signingKey, type SigningKey } from './signer.ts';
import { openHeaders, type EndpointHeaders } from './endpoint-headers.ts';

const CACHED_ENDPOINTS = 1000;

/** What a claim brings of an endpoint's sealed credentials. */
export interface SealedCredentials {
  endpointId: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: number | null;
  /** The endpoint's own headers, sealed; null when it has none. */
  headersSealed: string | null;
}

export interface Credentials {
  /** The keys to sign with at `now`: the current secret's and, during a rotation's overlap, the previous one's. */
  keysOf(endpoint: SealedCredentials, now: number): SigningKey[];
  /** The endpoint's own headers, or undefined when it has none. */
  headersOf(endpoint: SealedCredentials): EndpointHeaders | undefined;
}

export function createCredentials(sealer: Sealer): Credentials {
  // Per endpoint, the current secret's key first and, during an overlap, the previous one's.
  const keys = new Map<string, Array<{ sealed: string; key: SigningKey | undefined }>>();
  const headers = new Map<string, { sealed: string; headers: EndpointHeaders | undefined }>();

  function keyOf(sealed: string, endpointId: string): SigningKey | undefined {
    let known = keys.get(endpointId);
    const hit = known?.find((k) => k.sealed === sealed);
    if (hit) return hit.key;
    if (known === undefined) {
      if (keys.size >= CACHED_ENDPOINTS) keys.clear();
      known = [];
      keys.set(endpointId, known);
    }
    const secret = sealer.open(sealed, endpointId);
    const entry = { sealed, key: secret === undefined ? undefined : signingKey(secret) };
    known.unshift(entry);
    known.length = Math.min(known.length, 2);
    return entry.key;
  }

  return {
    keysOf(endpoint, now) {
      const current = keyOf(endpoint.secretSealed, endpoint.endpointId);
      if (current === undefined) throw new Error(`secret of ${endpoint.endpointId} cannot be opened with the secrets key`);
      const previous =
        endpoint.previousSecretSealed && (endpoint.previousSecretExpiresAt ?? 0) > now ? keyOf(endpoint.previousSecretSealed, endpoint.endpointId) : undefined;
      return previous ? [current, previous] : [current];
    },

    headersOf(endpoint) {
      if (endpoint.headersSealed === null) return undefined;
      let known = headers.get(endpoint.endpointId);
      if (known?.sealed !== endpoint.headersSealed) {
        if (headers.size >= CACHED_ENDPOINTS) headers.clear();
        known = { sealed: endpoint.headersSealed, headers: openHeaders(sealer, endpoint.endpointId, endpoint.headersSealed) };
        headers.set(endpoint.endpointId, known);
      }
      if (known.headers === undefined) throw new Error(`headers of ${endpoint.endpointId} cannot be opened with the secrets key`);
      return known.headers;
    },
  };
}
