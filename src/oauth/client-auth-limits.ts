/**
 * Rate limits around client authentication at /token, /revoke and /introspect.
 *
 * - Requests of an authenticated client are counted per client (`token`), by the id of the
 *   client found, so no spelling of an id reaches another budget and nobody without the
 *   client's credentials spends it. A public client proves nothing, so its requests are counted
 *   per client and source address: strangers naming it spend only their own address's budget.
 * - Failed authentications are counted per source address (`token_failure_ip`) and per claimed
 *   client (`token_failure_client`, the id as authentication decodes it). An address past its
 *   failures is refused before its credentials are checked, so one source cannot go on
 *   guessing. A claimed client past its failures only turns further *failed* attempts into 429:
 *   a request that authenticates is never refused by it, so strangers who know a client's id
 *   cannot lock the client out.
 */
import type { RateLimits } from '../platform/rate-limit.ts';
import { problem } from '../platform/errors/catalogue.ts';
import { isHttpError, type HttpError } from '../platform/errors/http-error.ts';
import { sha256Hex } from '../platform/crypto.ts';
import type { Client } from './clients.ts';
import { claimedClientId, type ClientAuthenticator, type ClientCredentials } from './client-auth.ts';

export interface LimitedAuthentication {
  client: Client;
  /** RateLimit headers of the client's budget, for the answer. */
  headers: Record<string, string>;
}

function tooManyFailures(headers: Record<string, string>): HttpError {
  return problem('rate_limited', { detail: `Too many failed client authentications; retry after ${headers['retry-after']} s`, headers });
}

/** The budget an authenticated request spends: the client's, or for a public client the client's at this address. */
function budgetKey(client: Client, address: string): string {
  return client.authMethod === 'none' ? `client:${client.id}@${address}` : `client:${client.id}`;
}

/** A claimed id is anything a stranger sends: a fixed-size digest keeps the key small. */
function claimedKey(claimed: string): string {
  return `claimed:${sha256Hex(claimed).slice(0, 32)}`;
}

export function createClientAuthLimits(deps: { rateLimits: RateLimits; clientAuth: ClientAuthenticator }) {
  const { rateLimits, clientAuth } = deps;

  /** Counts a failure against the address and the claimed client; the 429 to answer instead, if either is spent. */
  async function countFailure(credentials: ClientCredentials, address: string): Promise<HttpError | undefined> {
    const byAddress = await rateLimits.consume('token_failure_ip', `ip:${address}`);
    const claimed = claimedClientId(credentials);
    const byClient = claimed === undefined ? undefined : await rateLimits.consume('token_failure_client', claimedKey(claimed));
    if (!byAddress.allowed) return tooManyFailures(byAddress.headers);
    if (byClient && !byClient.allowed) return tooManyFailures(byClient.headers);
    return undefined;
  }

  return {
    /** The authenticated client within its budget, or invalid_client / invalid_request / 429. */
    async authenticate(credentials: ClientCredentials, address: string): Promise<LimitedAuthentication> {
      if (!rateLimits.enabled) return { client: await clientAuth.authenticate(credentials), headers: {} };
      const gate = await rateLimits.check('token_failure_ip', `ip:${address}`);
      if (!gate.allowed) throw tooManyFailures(gate.headers);
      let client: Client;
      try {
        client = await clientAuth.authenticate(credentials);
      } catch (error) {
        // Only the client's own mistakes count; a database outage is nobody's failed attempt.
        if (!isHttpError(error) || error.status >= 500) throw error;
        throw (await countFailure(credentials, address)) ?? error;
      }
      return { client, headers: await rateLimits.enforce('token', budgetKey(client, address)) };
    },
  };
}

export type ClientAuthLimits = ReturnType<typeof createClientAuthLimits>;
