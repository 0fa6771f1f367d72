/**
 * The whole schema as Kysely sees it: each capability declares its own tables beside its
 * code and they are joined here. Migrations (./migrations) are the source of truth for DDL.
 */
import type { PlatformTables } from './platform-tables.ts';
import type { AccountTables } from '../../accounts/tables.ts';
import type { UserTables } from '../../users/tables.ts';
import type { PaymentTables } from '../../payments/tables.ts';
import type { IdempotencyTables } from '../../idempotency/tables.ts';
import type { ScimTables } from '../../scim/tables.ts';
import type { EventTables } from '../../events/tables.ts';
import type { AccessTokenTables, OAuthTables } from '../../oauth/tables.ts';
import type { WebhookTables } from '../../webhooks/tables.ts';

export interface Tables
  extends PlatformTables,
    AccountTables,
    UserTables,
    AccessTokenTables,
    PaymentTables,
    IdempotencyTables,
    ScimTables,
    EventTables,
    OAuthTables,
    WebhookTables {}
