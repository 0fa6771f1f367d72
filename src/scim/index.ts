/**
 * SCIM provisioning and roles, built from their dependencies: the public /scim/v2 endpoint,
 * the admin routes for SCIM tokens and roles, and `userScopeBound` for OAuth.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from '../platform/db/database.ts';
import type { Clock } from '../platform/clock.ts';
import type { SqlDialect } from '../platform/db/dialect.ts';
import type { AccessTokens } from '../oauth/access-tokens.ts';
import type { Paging } from '../paging/page.ts';
import type { RevokeUserAccess } from '../oauth/user-access.ts';
import type { Accounts } from '../accounts/service.ts';
import { createScimUserStore } from './users-store.ts';
import { createScimGroupStore } from './groups-store.ts';
import { createScimUsers } from './users.ts';
import { createScimGroups } from './groups.ts';
import { createScimTokens, requireScimCredential } from './tokens.ts';
import { createRoles, createUserScopeBound } from './roles.ts';
import { registerScimRoutes } from './routes.ts';
import { registerScimAdminRoutes } from './admin-routes.ts';
import type { RecordAudit } from '../audit/record.ts';
import type { GroupCommit } from '../platform/db/group-commit.ts';

export { createUserScopeBound, type UserScopeBound } from './roles.ts';

export interface ScimDeps {
  db: Db;
  dialect: SqlDialect;
  clock: Clock;
  accessTokens: AccessTokens;
  revokeUserAccess: RevokeUserAccess;
  /** Public base URL of the service (the issuer); SCIM lives at `${issuer}/scim/v2`. */
  issuer: string;
  maxPayloadSize: number;
  /** How users' writes are recorded in the audit trail; see ScimUsersDeps. */
  recordAudit?: RecordAudit;
  /** The node's shared commits, which SCIM's writes join on SQLite (`sharedTransactions`). */
  groupCommit?: GroupCommit;
}

export function createScim(deps: ScimDeps) {
  const { db, dialect, clock } = deps;
  const baseUrl = `${deps.issuer}/scim/v2`;
  const { groupCommit } = deps;
  const userStore = createScimUserStore({ db, dialect, groupCommit });
  const groupStore = createScimGroupStore({ db, dialect });
  const users = createScimUsers({ db, store: userStore, groups: groupStore, clock, revokeUserAccess: deps.revokeUserAccess, baseUrl, recordAudit: deps.recordAudit, groupCommit });
  const groups = createScimGroups({ db, store: groupStore, users: userStore, clock, baseUrl, groupCommit });
  const tokens = createScimTokens({ db, clock });
  const roles = createRoles({ db, clock });
  const userScopeBound = createUserScopeBound({ db });
  return {
    users,
    groups,
    tokens,
    roles,
    userScopeBound,
    registerPublic: (app: FastifyInstance) =>
      registerScimRoutes(app, {
        users,
        groups,
        authenticate: requireScimCredential({ tokens, accessTokens: deps.accessTokens }),
        baseUrl,
        maxPayloadSize: deps.maxPayloadSize,
      }),
    registerAdmin: (app: FastifyInstance, adminDeps: { accounts: Accounts; paging: Paging }) => registerScimAdminRoutes(app, { ...adminDeps, tokens, roles }),
  };
}

export type Scim = ReturnType<typeof createScim>;
