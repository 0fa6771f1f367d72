/**
 * Builds the authorization server from its dependencies: clients, client authentication,
 * the token endpoint, revocation and introspection, signing keys, sessions and consent.
 * `userScopeBound` is where roles from group membership bound what a user's token may carry
 * (null: the account maps no roles, and people get every scope but the privileged ones); it is
 * consulted at consent, at code redemption and at every refresh.
 */
import type { FastifyInstance } from 'fastify';
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
import { registerOAuthRoutes } from './routes.ts';

export interface OAuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'issuer' | 'authorizationCodeTtl' | 'accessTokenTtl' | 'refreshTokenTtl'>;
  accessTokens: AccessTokens;
  /** Seals the private signing keys at rest. */
  vault: KeyVault;
  users: Users;
  rateLimits: RateLimits;
  userScopeBound?: UserScopeBound;
  /** Where tokens issued are counted, by grant type. */
  metrics?: MetricsRegistry;
}

export function createOAuth(deps: OAuthDeps) {
  const { db, clock, config } = deps;
  const userScopeBound: UserScopeBound = deps.userScopeBound ?? (async () => null);
  const clients = createClients({ db, clock });
  const clientAuth = createClientAuthenticator({ db, clock, clients, issuer: config.issuer, tokenEndpoint: `${config.issuer}/token` });
  const clientAuthLimits = createClientAuthLimits({ rateLimits: deps.rateLimits, clientAuth });
  const tokens = createTokenEndpoint({
    db,
    clock,
    accessTokens: deps.accessTokens,
    clientAuth,
    userScopeBound,
    accessTokenTtl: config.accessTokenTtl,
    refreshTokenTtl: config.refreshTokenTtl,
    onIssued: deps.metrics && countIssuedTokens(deps.metrics),
  });
  const revocation = createRevocation({ db, clock, issuer: config.issuer, accessTokens: deps.accessTokens });
  const keys = createSigningKeys({ db, clock, vault: deps.vault, retainSeconds: config.accessTokenTtl });
  const sessions = createSessions({ db, clock });

  return {
    clients,
    clientAuth,
    tokens,
    revocation,
    keys,
    sessions,
    async register(app: FastifyInstance): Promise<void> {
      await keys.ensureActive();
      await registerOAuthRoutes(app, {
        db,
        clock,
        clients,
        users: deps.users,
        sessions,
        rateLimits: deps.rateLimits,
        userScopeBound,
        issuer: config.issuer,
        codeTtl: config.authorizationCodeTtl,
        clientAuthLimits,
        tokens,
        revocation,
        keys,
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
