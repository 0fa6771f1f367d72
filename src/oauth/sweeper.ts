/**
 * Removes OAuth state that can no longer matter: expired access and refresh tokens, grants,
 * sessions, assertion jtis and revocation-list entries; and what retired keys past their publication
 * still hold secret (oauth/keys.ts `expireRetired`: a signing key's public part stays, for the
 * audit checkpoints it signed).
 * Consumed codes are kept a day past expiry so that a late replay still revokes what the code
 * issued. Runs with the in-process workers; any node may run it, the deletes are idempotent.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { runInRounds } from '../platform/rounds.ts';
import type { SigningKeys } from './keys.ts';

const DAY_MS = 24 * 3600 * 1000;

export async function sweepExpiredOAuthState(deps: { db: Db; keys: Pick<SigningKeys, 'expireRetired'> }, now: number): Promise<number> {
  const { db } = deps;
  const results = await Promise.all([
    db.deleteFrom('access_tokens').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_refresh_tokens').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_grants').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_codes').where('expires_at', '<', now - DAY_MS).executeTakeFirst(),
    db.deleteFrom('oauth_sessions').where((eb) => eb.or([eb('expires_at', '<', now), eb('ended_at', '<', now - DAY_MS)])).executeTakeFirst(),
    db.deleteFrom('oauth_assertion_jtis').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_revoked_tokens').where('expires_at', '<', now).executeTakeFirst(),
  ]);
  return results.reduce((sum, r) => sum + Number(r.numDeletedRows), await deps.keys.expireRetired());
}

/** Sweeps every `intervalMs`; returns the function that stops it. */
export function startOAuthSweeper(deps: { db: Db; keys: Pick<SigningKeys, 'expireRetired'>; clock: Clock; log: { warn(obj: object, msg: string): void }; intervalMs?: number }): () => Promise<void> {
  return runInRounds(() => sweepExpiredOAuthState(deps, deps.clock.now()), {
    intervalMs: deps.intervalMs ?? 10 * 60 * 1000,
    onError: (error) => deps.log.warn({ err: String(error) }, 'oauth sweep failed'),
  }).stop;
}
