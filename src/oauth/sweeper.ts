/**
 * Removes OAuth state that can no longer matter: expired access and refresh tokens, grants,
 * sessions, assertion jtis, revocation-list entries and retired keys past their publication.
 * Consumed codes are kept a day past expiry so that a late replay still revokes what the code
 * issued. Runs with the in-process workers; any node may run it, the deletes are idempotent.
 */
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { runInRounds } from '../platform/rounds.ts';

const DAY_MS = 24 * 3600 * 1000;

export async function sweepExpiredOAuthState(db: Db, now: number): Promise<number> {
  const results = await Promise.all([
    db.deleteFrom('access_tokens').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_refresh_tokens').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_grants').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_codes').where('expires_at', '<', now - DAY_MS).executeTakeFirst(),
    db.deleteFrom('oauth_sessions').where((eb) => eb.or([eb('expires_at', '<', now), eb('ended_at', '<', now - DAY_MS)])).executeTakeFirst(),
    db.deleteFrom('oauth_assertion_jtis').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_revoked_tokens').where('expires_at', '<', now).executeTakeFirst(),
    db.deleteFrom('oauth_signing_keys').where('publish_until', '<=', now).executeTakeFirst(),
  ]);
  return results.reduce((sum, r) => sum + Number(r.numDeletedRows), 0);
}

/** Sweeps every `intervalMs`; returns the function that stops it. */
export function startOAuthSweeper(deps: { db: Db; clock: Clock; log: { warn(obj: object, msg: string): void }; intervalMs?: number }): () => Promise<void> {
  return runInRounds(() => sweepExpiredOAuthState(deps.db, deps.clock.now()), {
    intervalMs: deps.intervalMs ?? 10 * 60 * 1000,
    onError: (error) => deps.log.warn({ err: String(error) }, 'oauth sweep failed'),
  }).stop;
}
