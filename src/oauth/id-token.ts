/**
 * ID tokens (OpenID Connect Core 1.0 §2, §3.1.3.6, §12.2) and reading them back as
 * `id_token_hint` (§3.1.2.1) or at RP-initiated logout.
 *
 * An ID token carries iss, sub, aud (the client alone, so `azp` is not needed: §2 asks for it
 * only with several audiences), exp, iat, auth_time (the sign-in, never the refresh), nonce
 * (exactly as sent; never on a refresh, §12.2), at_hash (§3.1.3.6: left half of SHA-256 of the
 * access token), sid (the sign-in session, for back-channel logout), amr `pwd` (the one method
 * there is), acr `urn:gatehouse:acr:password` (the one class there is: stated always, so a relying
 * party that sent `acr_values` reads it back, §3.1.2.1), and any claims the `claims` parameter asked for.
 * It is signed with the active key of the client's alg (ES256 unless it asked for RS256), and
 * lives as long as an access token, so rotation keeps its key published while it is valid.
 */
import { createHash } from 'node:crypto';
import { importJWK, jwtVerify, type JWSHeaderParameters } from 'jose';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { SigningKeys } from './keys.ts';
import type { Client } from './clients.ts';
import { profileClaims, selectClaims, subjectFor } from './oidc-claims.ts';

/** The one authentication context Gatehouse offers: a password at its own sign-in page. */
export const ACR_PASSWORD = 'urn:gatehouse:acr:password';

export interface IdTokenInput {
  client: Client;
  accountId: string;
  userId: string;
  /** epoch ms of the sign-in */
  authTime: number;
  nonce?: string | null;
  sessionId?: string | null;
  accessToken?: string;
  /** Claims the `claims` parameter asked for in the ID token. */
  claims?: readonly string[];
  acr?: string | null;
}

/** §3.1.3.6: base64url of the left half of the hash the alg uses (SHA-256 for ES256 and RS256). */
export function atHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}

export function createIdTokens(deps: { db: Db; clock: Clock; keys: SigningKeys; issuer: string; ttlSeconds: number; pairwiseKey: Buffer }) {
  const { db, clock, keys, issuer } = deps;

  return {
    subjectFor: (client: Pick<Client, 'id' | 'subjectType'>, userId: string) => subjectFor(client, userId, deps.pairwiseKey),

    async issue(input: IdTokenInput): Promise<string> {
      const now = Math.floor(clock.now() / 1000);
      let extra: Record<string, unknown> = {};
      if (input.claims && input.claims.length > 0) {
        const row = await db.selectFrom('users').selectAll().where('account_id', '=', input.accountId).where('id', '=', input.userId).executeTakeFirst();
        if (row) extra = selectClaims(profileClaims(row), input.claims);
      }
      const claims: Record<string, unknown> = {
        ...extra,
        iss: issuer,
        sub: subjectFor(input.client, input.userId, deps.pairwiseKey),
        aud: input.client.id,
        exp: now + deps.ttlSeconds,
        iat: now,
        auth_time: Math.floor(input.authTime / 1000),
        amr: ['pwd'],
        ...(input.nonce ? { nonce: input.nonce } : {}),
        ...(input.accessToken ? { at_hash: atHash(input.accessToken) } : {}),
        ...(input.sessionId ? { sid: input.sessionId } : {}),
        ...(input.acr ? { acr: input.acr } : {}),
      };
      return keys.sign(claims, undefined, input.client.idTokenAlg);
    },

    /**
     * An ID token this server issued, as a hint: the signature and issuer must hold, expiry
     * does not matter (§3.1.2.1, RP-Initiated Logout §2). Undefined when it is not ours.
     */
    async readHint(token: string): Promise<{ sub: string; aud: string[]; sid?: string } | undefined> {
      try {
        // Any key this server made, retired ones included: a session outlives a rotation, and
        // the ID token that began it stays a good hint (expired ones too, OIDC Core §3.1.2.1).
        const keyOf = async (header: JWSHeaderParameters) => {
          const jwk = header.kid === undefined ? undefined : await keys.publicKeyOf(header.kid);
          if (!jwk || jwk.alg !== header.alg) throw new Error('not a key of this server');
          return importJWK(jwk, header.alg);
        };
        const { payload, protectedHeader } = await jwtVerify(token, keyOf, { issuer, algorithms: ['ES256', 'RS256'], currentDate: new Date(0) });
        // An ID token carries no typ; the other JWTs these keys sign say what they are (a logout
        // token, logout+jwt; an introspection answer) and are no hint, whatever their claims.
        if (protectedHeader.typ !== undefined) return undefined;
        if (typeof payload.sub !== 'string') return undefined;
        const aud = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
        return { sub: payload.sub, aud, ...(typeof payload.sid === 'string' ? { sid: payload.sid } : {}) };
      } catch {
        return undefined;
      }
    },
  };
}

export type IdTokens = ReturnType<typeof createIdTokens>;
