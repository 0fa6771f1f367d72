/**
 * OpenID Connect Back-Channel Logout 1.0: when a person signs out (RP-initiated logout) or is
 * deactivated or deleted (SCIM, admin API), every client their sessions signed in to that
 * registered a `backchannel_logout_uri` gets a logout token.
 *
 * - The outbox: `queueLogoutTokens` runs in the transaction that ends the sessions, so a logout
 *   is queued exactly when the sign-out commits. A row holds the user and session, not a signed
 *   token: it is signed when sent (§2.4: iss, aud, iat, exp, jti, sub, sid, events; typ
 *   logout+jwt), with the key and the `sub` form of the client at that moment.
 * - Delivery reuses the webhook machinery: the same outbound guard (target-policy.ts, checked
 *   at connect time, so DNS rebinding cannot reach an internal address), the same bounded POST
 *   (attempt.ts: time bounded, redirects never followed, the answer read only as an excerpt) and
 *   the same retry schedule with jitter (schedule.ts, GATEHOUSE_WEBHOOK_RETRY_SCHEDULE); past its
 *   last step a delivery is parked, not dropped. Rows are claimed with a lease, so several
 *   workers may run it and a dead worker's claims come back. Only a 2xx acknowledges (§2.8).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { Agent } from 'undici';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import { newTimeOrderedId } from '../platform/ids.ts';
import type { TargetPolicy } from '../webhooks/target-policy.ts';
import { createTargets, postOnce } from '../webhooks/attempt.ts';
import { nextStep } from '../webhooks/schedule.ts';
import type { Trx } from './grants.ts';
import { dialectOf } from '../platform/db/dialect.ts';
import type { Clients } from './clients.ts';
import type { SigningKeys } from './keys.ts';
import type { IdTokens } from './id-token.ts';
import { logEvent } from '../platform/log-events.ts';
import { runInRounds } from '../platform/rounds.ts';

const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const LOGOUT_TOKEN_TTL_SECONDS = 120;
const BATCH = 50;

/**
 * Queues a logout token for every client the person's live sessions (or just `sessionIds`)
 * signed in to and that takes back-channel logouts. Call before the sessions are ended.
 */
export async function queueLogoutTokens(trx: Trx, input: { accountId: string; userId: string; sessionIds?: readonly string[]; now: number }): Promise<number> {
  // The sessions about to end are locked first: a code issued under one of them (which holds it
  // for share, authorize-routes.ts) commits before the clients it signed in to are read here, so
  // none is missed; and a session another sign-out has just ended is not told of twice.
  let live = trx.selectFrom('oauth_sessions').select('id').where('account_id', '=', input.accountId).where('user_id', '=', input.userId).where('ended_at', 'is', null);
  if (input.sessionIds) {
    if (input.sessionIds.length === 0) return 0;
    live = live.where('id', 'in', [...input.sessionIds]);
  }
  const locked = await dialectOf(trx).lockForWrite(live).execute();
  if (locked.length === 0) return 0;
  // The sessions locked are the live ones in scope: their clients are the ones to tell.
  const rows = await trx
    .selectFrom('oidc_session_clients')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oidc_session_clients.client_id')
    .select(['oidc_session_clients.session_id', 'oidc_session_clients.client_id', 'oauth_clients.backchannel_logout_uri'])
    .where('oidc_session_clients.session_id', 'in', locked.map((s) => s.id))
    .where('oauth_clients.backchannel_logout_uri', 'is not', null)
    .execute();
  for (const row of rows) {
    await trx
      .insertInto('oidc_logout_deliveries')
      .values({
        id: newTimeOrderedId('blo', input.now),
        account_id: input.accountId,
        client_id: row.client_id,
        target_uri: row.backchannel_logout_uri!,
        claims: JSON.stringify({ user_id: input.userId, sid: row.session_id }),
        state: 'pending',
        failures: 0,
        next_attempt_at: input.now,
        lease_until: null,
        last_error: null,
        created_at: input.now,
        delivered_at: null,
      })
      .execute();
  }
  return rows.length;
}

export interface BackchannelLogoutDeps {
  db: Db;
  clock: Clock;
  clients: Clients;
  keys: SigningKeys;
  idTokens: IdTokens;
  policy: TargetPolicy;
  issuer: string;
  scheduleSeconds: readonly number[];
  timeoutMs: number;
  log?: FastifyBaseLogger;
}

export function createBackchannelLogout(deps: BackchannelLogoutDeps) {
  const { db, clock } = deps;
  const agent = new Agent({ connect: { lookup: deps.policy.guardedLookup, timeout: deps.timeoutMs }, connections: 4, keepAliveTimeout: 10_000 });
  const targets = createTargets(deps.policy);
  const leaseMs = deps.timeoutMs * 2 + 5000;

  async function logoutToken(clientId: string, claims: { user_id: string; sid: string }, jti: string): Promise<string | undefined> {
    const client = await deps.clients.find(clientId);
    if (!client) return undefined;
    const now = Math.floor(clock.now() / 1000);
    return deps.keys.sign(
      {
        iss: deps.issuer,
        aud: client.id,
        iat: now,
        exp: now + LOGOUT_TOKEN_TTL_SECONDS,
        jti,
        sub: deps.idTokens.subjectFor(client, claims.user_id),
        sid: claims.sid,
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      },
      'logout+jwt',
      client.idTokenAlg,
    );
  }

  async function record(id: string, failures: number, outcome: { ok: true } | { ok: false; error: string; retryAfterMs?: number }): Promise<void> {
    const now = clock.now();
    if (outcome.ok) {
      await db.updateTable('oidc_logout_deliveries').set({ state: 'delivered', delivered_at: now, lease_until: null, last_error: null }).where('id', '=', id).execute();
      return;
    }
    const step = nextStep({ failures: failures + 1, scheduleSeconds: deps.scheduleSeconds, now, retryAfterMs: outcome.retryAfterMs });
    await db
      .updateTable('oidc_logout_deliveries')
      .set({
        state: step.kind === 'park' ? 'parked' : 'pending',
        failures: failures + 1,
        next_attempt_at: step.kind === 'retry' ? step.at : now,
        lease_until: null,
        last_error: outcome.error.slice(0, 500),
      })
      .where('id', '=', id)
      .execute();
    if (deps.log) {
      logEvent(deps.log, 'oauth.backchannel_logout_failed', { delivery_id: id, failures: failures + 1, parked: step.kind === 'park', error: outcome.error.slice(0, 200) }, 'back-channel logout delivery failed');
    }
  }

  /** Sends what is due; returns how many deliveries were attempted. */
  async function runDue(): Promise<number> {
    const now = clock.now();
    const due = await db
      .selectFrom('oidc_logout_deliveries')
      .select(['id', 'client_id', 'target_uri', 'claims', 'failures'])
      .where('state', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(BATCH)
      .execute();
    let attempted = 0;
    await Promise.all(
      due.map(async (row) => {
        // The lease is taken by whoever updates first; the others leave the row alone.
        const claimed = await db
          .updateTable('oidc_logout_deliveries')
          .set({ lease_until: now + leaseMs })
          .where('id', '=', row.id)
          .where('state', '=', 'pending')
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return;
        attempted++;
        const token = await logoutToken(row.client_id, JSON.parse(row.claims) as { user_id: string; sid: string }, row.id);
        if (token === undefined) {
          await db.updateTable('oidc_logout_deliveries').set({ state: 'parked', lease_until: null, last_error: 'the client was deleted' }).where('id', '=', row.id).execute();
          return;
        }
        const result = await postOnce({
          agent,
          targets,
          url: row.target_uri,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-store' },
          body: Buffer.from(new URLSearchParams({ logout_token: token }).toString()),
          timeoutMs: deps.timeoutMs,
        });
        await record(row.id, row.failures, result.ok ? { ok: true } : { ok: false, error: result.error ?? `status ${result.status}` });
      }),
    );
    return attempted;
  }

  return {
    runDue,
    /** Closes the connections (when `start` was not used). */
    close: () => agent.close(),
    /** Polls every `intervalMs`; returns the function that stops it (and closes the connections). */
    start(intervalMs = 1000): () => Promise<void> {
      const rounds = runInRounds(runDue, {
        intervalMs,
        onError: (error) => deps.log?.warn({ err: String(error) }, 'back-channel logout run failed; retrying on the next tick'),
      });
      return async () => {
        await rounds.stop();
        await agent.close();
      };
    },
  };
}

export type BackchannelLogout = ReturnType<typeof createBackchannelLogout>;

/**
 * Back-channel logout as every process builds it from the configuration: `serve` inside
 * `createOAuth`, `gatehouse worker` through `createLogoutDelivery` (oauth/standalone.ts). The
 * delivery shares the webhooks' retry schedule and attempt timeout.
 */
export function backchannelLogoutOf(deps: Omit<BackchannelLogoutDeps, 'issuer' | 'scheduleSeconds' | 'timeoutMs'> & {
  config: Pick<Config, 'issuer' | 'webhookRetrySchedule' | 'webhookTimeout'>;
}): BackchannelLogout {
  const { config, ...parts } = deps;
  return createBackchannelLogout({ ...parts, issuer: config.issuer, scheduleSeconds: config.webhookRetrySchedule, timeoutMs: config.webhookTimeout * 1000 });
}
