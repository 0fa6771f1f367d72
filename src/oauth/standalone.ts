/**
 * What of the authorization server a process without the HTTP app runs (`gatehouse worker`):
 * the signing keys (logout tokens, audit checkpoints) and back-channel logout delivery, built
 * from the same configuration and secrets key as `serve` builds them in `createOAuth`.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import { createKeyVault } from '../platform/secrets-key.ts';
import type { TargetPolicy } from '../webhooks/target-policy.ts';
import { createClients } from './clients.ts';
import { createSigningKeys, type SigningKeys } from './keys.ts';
import { createIdTokens } from './id-token.ts';
import { pairwiseKeyOf } from './oidc-claims.ts';
import { backchannelLogoutOf, type BackchannelLogout } from './backchannel-logout.ts';

export async function createLogoutDelivery(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'issuer' | 'accessTokenTtl' | 'webhookRetrySchedule' | 'webhookTimeout'>;
  secretsKey: Buffer;
  /** Where logout tokens may be sent: the webhooks' outbound guard. */
  policy: TargetPolicy;
  log: FastifyBaseLogger;
}): Promise<{ keys: SigningKeys; backchannelLogout: BackchannelLogout }> {
  const { db, clock, config, policy } = deps;
  const keys = createSigningKeys({ db, clock, vault: createKeyVault(deps.secretsKey), retainSeconds: config.accessTokenTtl });
  await keys.ensureActive();
  const clients = createClients({ db, clock, outboundPolicy: policy });
  const idTokens = createIdTokens({ db, clock, keys, issuer: config.issuer, ttlSeconds: config.accessTokenTtl, pairwiseKey: pairwiseKeyOf(deps.secretsKey) });
  return { keys, backchannelLogout: backchannelLogoutOf({ db, clock, config, clients, keys, idTokens, policy, log: deps.log.child({ component: 'oidc' }) }) };
}
