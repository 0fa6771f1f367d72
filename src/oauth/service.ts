/**
 * Builds the authorization server from its dependencies: clients, client authentication,
 * the token endpoint, revocation and introspection, signing keys, sessions and consent.
 * `userScopeBound` is where roles from group membership bound what a user's token may carry
 * (null: the account maps no roles, and people get every scope but the privileged ones); it is
 * consulted at consent, at code redemption and at every refresh.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { TargetPolicy } from '../webhooks/target-policy.ts';
import { backchannelLogoutOf } from './backchannel-logout.ts';
import { createRemoteJwks } from './jwks-fetch.ts';
import type { Config } from '../config.ts';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { RateLimits } from '../platform/rate-limit.ts';
import type { MetricsRegistry } from '../platform/metrics.ts';
import type { Users } from '../users/service.ts';
import type { AccessTokens } from './access-tokens.ts';
import { createClients } from './clients.ts';
import { createClientAuthenticator } from './client-auth.ts';
import { createClientAuthLimits } from './client-auth-limits.ts';
import { createTokenEndpoint, type UserScopeBound } from './token.ts';
import { createRevocation } from './revocation.ts';
import { createSigningKeys } from './keys.ts';
import type { KeyVault } from '../platform/secrets-key.ts';
import { createSessions } from './sessions.ts';
import { createSignInDevices } from './sign-in-devices.ts';
import { registerOAuthRoutes } from './routes.ts';
import { createIdTokens } from './id-token.ts';
import type { Branding } from '../accounts/branding.ts';

export interface OAuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'issuer' | 'authorizationCodeTtl' | 'accessTokenTtl' | 'refreshTokenTtl' | 'webhookRetrySchedule' | 'webhookTimeout'>;
  accessTokens: AccessTokens;
  /** Seals the private signing keys at rest. */
  vault: KeyVault;
  users: Users;
  rateLimits: RateLimits;
  userScopeBound?: UserScopeBound;
  /** Where tokens issued are counted, by grant type. */
  metrics?: MetricsRegistry;
  /** Keys pairwise `sub` values (OIDC Core §8.1); derived from the secrets key. */
  pairwiseKey: Buffer;
  /** What known sign-in devices' cookies are made with (sign-in-devices.ts). */
  signInDeviceKey: Buffer;
  /** Where Gatehouse may call out to (back-channel logout, jwks_uri): the webhooks' guard. */
  outboundPolicy: TargetPolicy;
  log?: FastifyBaseLogger;
  /** What the sign-in pages show of an account (accounts/service.ts `branding`). */
  branding?: (accountId: string) => Promise<Branding | undefined>;
}

export function createOAuth(deps: OAuthDeps) {
  const { db, clock, config } = deps;
  const userScopeBound: UserScopeBound = deps.userScopeBound ?? (async () => null);
  const clients = createClients({ db, clock, outboundPolicy: deps.outboundPolicy });
  const remoteJwks = createRemoteJwks({ policy: deps.outboundPolicy, clock, timeoutMs: config.webhookTimeout * 1000 });
  const clientAuth = createClientAuthenticator({ db, clock, clients, issuer: config.issuer, tokenEndpoint: `${config.issuer}/token`, remoteJwks });
  const clientAuthLimits = createClientAuthLimits({ rateLimits: deps.rateLimits, clientAuth });
  const keys = createSigningKeys({ db, clock, vault: deps.vault, retainSeconds: config.accessTokenTtl });
  const idTokens = createIdTokens({ db, clock, keys, issuer: config.issuer, ttlSeconds: config.accessTokenTtl, pairwiseKey: deps.pairwiseKey });
  const tokens = createTokenEndpoint({
    db,
    clock,
    accessTokens: deps.accessTokens,
    clientAuth,
    userScopeBound,
    accessTokenTtl: config.accessTokenTtl,
    refreshTokenTtl: config.refreshTokenTtl,
    idTokens,
    onIssued: deps.metrics && countIssuedTokens(deps.metrics),
  });
  const revocation = createRevocation({
    db,
    clock,
    issuer: config.issuer,
    accessTokens: deps.accessTokens,
    subjectFor: async (clientId, userId) => {
      const client = await clients.find(clientId);
      return client && idTokens.subjectFor(client, userId);
    },
  });
  const sessions = createSessions({ db, clock });
  const backchannelLogout = backchannelLogoutOf({ db, clock, config, clients, keys, idTokens, policy: deps.outboundPolicy, log: deps.log });

  return {
    clients,
    clientAuth,
    tokens,
    revocation,
    keys,
    idTokens,
    sessions,
    backchannelLogout,
    remoteJwks,
    async register(app: FastifyInstance): Promise<void> {
      await keys.ensureActive();
      await registerOAuthRoutes(app, {
        db,
        clock,
        clients,
        users: deps.users,
        sessions,
        devices: createSignInDevices(deps.signInDeviceKey),
        rateLimits: deps.rateLimits,
        userScopeBound,
        issuer: config.issuer,
        codeTtl: config.authorizationCodeTtl,
        clientAuthLimits,
        tokens,
        revocation,
        keys,
        idTokens,
        accessTokens: deps.accessTokens,
        branding: deps.branding,
      });
    },
  };
}

export type OAuth = ReturnType<typeof createOAuth>;

/** Counts the tokens the token endpoint issues, by grant type. */
function countIssuedTokens(metrics: MetricsRegistry): (grantType: string) => void {
  const issued = metrics.counter('gatehouse_oauth_tokens_issued_total', 'Access tokens issued by the token endpoint, by grant type', ['grant_type']);
  // One series per grant type, resolved once: only a supported grant type issues a token.
  const byGrantType = new Map<string, { inc(): void }>();
  return (grantType) => {
    let series = byGrantType.get(grantType);
    if (!series) byGrantType.set(grantType, (series = issued.labels({ grant_type: grantType })));
    series.inc();
  };
}
