/**
 * One typed, validated configuration, read from command-line flags and the environment.
 *
 * Every setting is declared once in `SETTINGS`: its environment variable, its flag, a parser
 * and a default. A bad value stops start-up with a `ConfigError` whose one-line message names
 * the setting, what was wrong and what was given. Flags win over the environment.
 */
import path from 'node:path';
import ipaddr from 'ipaddr.js';

import type { DatabaseKind } from './platform/db/dialect.ts';

export type { DatabaseKind };

export interface Config {
  /** `sqlite:<path>` or `postgres://…` */
  databaseUrl: string;
  databaseKind: DatabaseKind;
  dataDir: string;
  host: string;
  port: number;
  adminHost: string;
  adminPort: number;
  /** Operator token for the admin listener; when absent one is generated on first start. */
  adminToken: string | undefined;
  /** Public base URL; the OAuth issuer identifier. No trailing slash. */
  issuer: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** `false` turns rate limiting off (benchmarks). */
  rateLimits: boolean;
  redisUrl: string | undefined;
  /** Authorization code lifetime, seconds (kept under 60 as the interface requires). */
  authorizationCodeTtl: number;
  /** Access token lifetime, seconds. */
  accessTokenTtl: number;
  /** Refresh token lifetime (absolute, per grant), seconds. */
  refreshTokenTtl: number;
  /** How long idempotency records are kept, seconds. */
  idempotencyRetention: number;
  /** How long audit records are kept, in days. */
  auditRetention: number;
  /** Seconds between signed checkpoints of an account's audit chain while it grows. */
  auditCheckpointInterval: number;
  /** Delays in seconds before each webhook retry; after the last one fails the delivery is parked. */
  webhookRetrySchedule: number[];
  /** CIDR blocks (IPv4, IPv6) webhook receivers may resolve to although not globally routable unicast. */
  webhookAllowNetworks: string[];
  /** Run the webhook dispatcher and payout processor inside `serve`. */
  inProcessWorkers: boolean;
  /** PostgreSQL pool size per node. */
  databasePoolSize: number;
  /** PostgreSQL statement timeout, milliseconds. */
  databaseStatementTimeout: number;
  /** How long a request waits for a free pool connection before failing with 503, milliseconds. */
  databaseAcquireTimeout: number;
  /** Prefix of every rate-limit key in Redis (several installations may share one Redis). */
  redisKeyPrefix: string;
  /** How long a Redis command may take before rate limits are counted in-process, milliseconds. */
  redisTimeout: number;
  /** Port on the admin host where `gatehouse worker` serves /metrics and health; unset: none. */
  workerMetricsPort: number | undefined;
  /** How long a request's claim on an Idempotency-Key lasts before a retry may take it over, seconds. */
  idempotencyLease: number;
  /** Keys sealing paging cursors, `kid:base64key`; the first seals, all open. Unset: one generated and shared through the database. */
  cursorKeys: Array<{ id: string; key: Buffer }> | undefined;
  /** How long a paging cursor stays valid, seconds. */
  cursorTtl: number;
  /** Seconds a payout stays pending before the processor pays it out. */
  payoutDelay: number;
  /** API requests per credential (or IP) and window. */
  rateLimitApi: { points: number; seconds: number };
  rateLimitApiFailures: { points: number; seconds: number };
  /** Admin API requests refused for their admin token per source address, and window. */
  rateLimitAdminFailures: { points: number; seconds: number };
  /** Token requests per client (or IP) and window. */
  rateLimitToken: { points: number; seconds: number };
  /** Sign-in attempts per userName and window. */
  rateLimitSignIn: { points: number; seconds: number };
  /** Base64 of 32 bytes sealing stored secrets (webhook secrets); generated and kept in the database when unset. */
  secretsKey: string | undefined;
  /** Per-attempt webhook timeout, seconds. */
  webhookTimeout: number;
  /** Concurrent attempts per endpoint per worker. */
  webhookConcurrency: number;
  /** An endpoint failing without a success for this long is disabled, seconds. */
  webhookDisableAfter: number;
  /** Addresses and CIDR blocks of the proxies whose X-Forwarded-For is believed; empty: none. */
  trustedProxies: string[];
  /** Failed client authentications per source address, and per claimed client, and window. */
  rateLimitTokenFailures: { points: number; seconds: number };
  /** Failed sign-ins per source address and account, and window. */
  rateLimitSignInAddress: { points: number; seconds: number };
  /** A request's line, headers and body must all arrive within this, seconds; else 408. */
  httpRequestTimeout: number;
  /** A request's line and headers must arrive within this, seconds (at most the request timeout); else 408. */
  httpHeadersTimeout: number;
  /** An idle keep-alive connection is closed after this, seconds. */
  httpKeepAliveTimeout: number;
  /** Open connections per listener; further ones are closed as they arrive. */
  httpMaxConnections: number;
  /** Seconds a stopping `serve` keeps serving, unready and closing each connection after its response, before its listeners close. */
  shutdownGrace: number;
  /** Seconds a stopping process waits for requests and background work in flight once its listeners close. */
  shutdownTimeout: number;
}

/** A refused value as an error may show it: a secret's length only, a URL's password masked. */
function shownValue(raw: string, shown: Setting<keyof Config>['shown']): string {
  if (shown === 'secret') return `${raw.length} characters, not shown`;
  return JSON.stringify(shown === 'url' ? raw.replace(/(\/\/[^/@]*?:)[^/@]*@/, '$1…@') : raw);
}

export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    problem: string,
    /** The value as the message may show it (shownValue). */
    given: string,
  ) {
    super(`invalid setting ${setting}: ${problem} (got ${given})`);
    this.name = 'ConfigError';
  }
}

type Parser<T> = (raw: string) => T;
class Invalid extends Error {}

interface Setting<K extends keyof Config> {
  key: K;
  env: string;
  flag: string;
  description: string;
  parse: Parser<Config[K]>;
  /**
   * How a refused value is shown in the error (which goes to standard error and the logs):
   * `secret` not at all (its length only), `url` without the password it may carry.
   */
  shown?: 'secret' | 'url';
  /** Default value, computed from the settings already resolved. */
  fallback: (resolved: Partial<Config>) => Config[K];
}

const integer =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^-?\d+$/.test(raw.trim())) throw new Invalid(`expected a whole number from ${min} to ${max}`);
    const n = Number(raw);
    if (n < min || n > max) throw new Invalid(`expected a whole number from ${min} to ${max}`);
    return n;
  };

const bool: Parser<boolean> = (raw) => {
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  throw new Invalid('expected on or off');
};

const text: Parser<string> = (raw) => {
  if (raw.trim() === '') throw new Invalid('must not be empty');
  return raw.trim();
};

/**
 * What a postgres:// URL may say in its query: Gatehouse's own (`schema`, `prepare`) and what the
 * driver reads. Anything else is refused by name: the driver ignores what it does not know, so a
 * mistyped `?shema=` would have pointed the node at another installation's tables.
 */
const POSTGRES_URL_PARAMETERS = new Set([
  'schema',
  'prepare',
  'host',
  'application_name',
  'fallback_application_name',
  'options',
  'client_encoding',
  'connect_timeout',
  'keepalives',
  'keepalives_idle',
  'ssl',
  'sslmode',
  'sslcert',
  'sslkey',
  'sslrootcert',
  'sslpassword',
]);

const databaseUrl: Parser<string> = (raw) => {
  const v = raw.trim();
  if (v.startsWith('sqlite:')) {
    if (v.length === 'sqlite:'.length) throw new Invalid('sqlite: needs a file path, e.g. sqlite:./data/gatehouse.db');
    return v;
  }
  if (v.startsWith('postgres://') || v.startsWith('postgresql://')) {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw new Invalid('not a valid postgres:// URL');
    }
    for (const name of url.searchParams.keys()) {
      if (!POSTGRES_URL_PARAMETERS.has(name)) throw new Invalid(`unknown parameter ${name} in the URL (it takes ${[...POSTGRES_URL_PARAMETERS].join(', ')})`);
    }
    const prepare = url.searchParams.get('prepare');
    if (prepare !== null && prepare !== 'on' && prepare !== 'off') throw new Invalid(`prepare=${prepare}: expected prepare=on or prepare=off`);
    const schema = url.searchParams.get('schema');
    if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Invalid(`schema=${schema}: expected a lower-case SQL identifier (a-z, 0-9, _)`);
    return v;
  }
  throw new Invalid('expected sqlite:<path> or postgres://…');
};

const httpUrl: Parser<string> = (raw) => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Invalid('expected an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Invalid('expected an http or https URL');
  if (url.search || url.hash) throw new Invalid('must not have a query or fragment');
  return url.href.replace(/\/$/, '');
};

const redisUrl: Parser<string | undefined> = (raw) => {
  const v = raw.trim();
  if (v === '') return undefined;
  if (!/^rediss?:\/\//.test(v)) throw new Invalid('expected redis://… or rediss://…');
  return v;
};

const secondsList: Parser<number[]> = (raw) => {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+$/.test(p))) {
    throw new Invalid('expected comma-separated whole seconds, e.g. 5,300,1800');
  }
  return parts.map(Number);
};

const cidrList: Parser<string[]> = (raw) => {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of parts) {
    if (!isCidr(p)) throw new Invalid(`"${p}" is not a CIDR block such as 127.0.0.0/8`);
  }
  return parts;
};

/** Dotted-quad IPv4 only: "127.1" or "010.0.0.0" would be read differently by different parsers. */
function isCidr(p: string): boolean {
  return /^[0-9a-fA-F:.]+\/\d{1,3}$/.test(p) && (ipaddr.IPv4.isValidCIDRFourPartDecimal(p) || ipaddr.IPv6.isValidCIDR(p));
}

/** One address (`192.0.2.7`, `2001:db8::1`) or CIDR block (`10.0.0.0/8`, `fd00::/8`), written out in full. */
function isAddressOrBlock(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (address === undefined || extra !== undefined) return false;
  const v4 = ipaddr.IPv4.isValidFourPartDecimal(address);
  if (!v4 && !ipaddr.IPv6.isValid(address)) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (v4 ? 32 : 128);
}

const addressList: Parser<string[]> = (raw) => {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of parts) {
    if (!isAddressOrBlock(p)) throw new Invalid(`"${p}" is not an address or CIDR block such as 10.0.0.0/8`);
  }
  return parts;
};

const logLevel: Parser<Config['logLevel']> = (raw) => {
  const v = raw.trim().toLowerCase();
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
  const found = levels.find((l) => l === v);
  if (!found) throw new Invalid(`expected one of ${levels.join(', ')}`);
  return found;
};

const cursorKeys: Parser<Array<{ id: string; key: Buffer }> | undefined> = (raw) => {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return undefined;
  const keys = parts.map((part) => {
    const match = /^([A-Za-z0-9_-]{1,16}):([A-Za-z0-9+/_-]+={0,2})$/.exec(part);
    if (!match) throw new Invalid('expected comma-separated kid:base64key entries, e.g. k1:<44 base64 characters>');
    const key = Buffer.from(match[2]!, 'base64');
    if (key.length !== 32) throw new Invalid(`key ${match[1]} must be 32 bytes (AES-256), base64 encoded`);
    return { id: match[1]!, key };
  });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Invalid('key ids must be unique');
  return keys;
};

const rate: Parser<{ points: number; seconds: number }> = (raw) => {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) throw new Invalid('expected requests/seconds, e.g. 100/1');
  return { points: Number(match[1]), seconds: Number(match[2]) };
};

function setting<K extends keyof Config>(s: Setting<K>): Setting<K> {
  return s;
}

export const SETTINGS = [
  setting({
    key: 'dataDir',
    env: 'GATEHOUSE_DATA_DIR',
    flag: '--data-dir',
    description: 'Directory for the embedded database and generated files',
    parse: (raw) => path.resolve(text(raw)),
    fallback: () => path.resolve('data'),
  }),
  setting({
    key: 'databaseUrl',
    env: 'GATEHOUSE_DATABASE_URL',
    shown: 'url',
    flag: '--database-url',
    description: 'sqlite:<path> (embedded) or postgres://user@host:port/db[?schema=name][&host=/socket/dir][&prepare=off]',
    parse: databaseUrl,
    fallback: (c) => `sqlite:${path.join(c.dataDir!, 'gatehouse.db')}`,
  }),
  setting({
    key: 'host',
    env: 'GATEHOUSE_HOST',
    flag: '--host',
    description: 'Address the public listener binds to',
    parse: text,
    fallback: () => '0.0.0.0',
  }),
  setting({
    key: 'port',
    env: 'GATEHOUSE_PORT',
    flag: '--port',
    description: 'Port of the public listener (0 picks a free one)',
    parse: integer(0, 65535),
    fallback: () => 8080,
  }),
  setting({
    key: 'adminHost',
    env: 'GATEHOUSE_ADMIN_HOST',
    flag: '--admin-host',
    description: 'Address the admin listener binds to',
    parse: text,
    fallback: () => '127.0.0.1',
  }),
  setting({
    key: 'adminPort',
    env: 'GATEHOUSE_ADMIN_PORT',
    flag: '--admin-port',
    description: 'Port of the admin listener (0 picks a free one)',
    parse: integer(0, 65535),
    fallback: () => 8081,
  }),
  setting({
    key: 'adminToken',
    env: 'GATEHOUSE_ADMIN_TOKEN',
    shown: 'secret',
    flag: '--admin-token',
    description: 'Bearer token for the admin API (generated on first start when unset); `new,old` accepts both while nodes are restarted one by one',
    parse: (raw) => {
      const tokens = raw.split(',').map((t) => t.trim());
      for (const v of tokens) {
        if (v.length < 16) throw new Invalid('must be at least 16 characters (each, when several are given comma-separated)');
        // It is sent as a Bearer token, which may hold only these (RFC 6750 §2.1 b64token): any
        // other character would make a token no request can present.
        if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(v)) throw new Invalid('may hold only A-Z a-z 0-9 - . _ ~ + / (and = at the end): it is sent as a Bearer token');
      }
      return tokens.join(',');
    },
    fallback: () => undefined,
  }),
  setting({
    key: 'issuer',
    env: 'GATEHOUSE_ISSUER',
    flag: '--issuer',
    description: 'Public base URL, used as the OAuth issuer',
    parse: httpUrl,
    fallback: (c) => `http://localhost:${c.port}`,
  }),
  setting({
    key: 'logLevel',
    env: 'GATEHOUSE_LOG_LEVEL',
    flag: '--log-level',
    description: 'fatal, error, warn, info, debug, trace or silent',
    parse: logLevel,
    fallback: () => 'info',
  }),
  setting({
    key: 'bodyLimit',
    env: 'GATEHOUSE_BODY_LIMIT',
    flag: '--body-limit',
    description: 'Largest request body accepted, in bytes',
    parse: integer(1024, 64 * 1024 * 1024),
    fallback: () => 1024 * 1024,
  }),
  setting({
    key: 'rateLimits',
    env: 'GATEHOUSE_RATE_LIMITS',
    flag: '--rate-limits',
    description: 'on (default) or off',
    parse: bool,
    fallback: () => true,
  }),
  setting({
    key: 'redisUrl',
    env: 'GATEHOUSE_REDIS_URL',
    shown: 'url',
    flag: '--redis-url',
    description: 'redis://… for rate limits shared across nodes',
    parse: redisUrl,
    fallback: () => undefined,
  }),
  setting({
    key: 'authorizationCodeTtl',
    env: 'GATEHOUSE_AUTHORIZATION_CODE_TTL',
    flag: '--authorization-code-ttl',
    description: 'Authorization code lifetime in seconds (1-59)',
    parse: integer(1, 59),
    fallback: () => 30,
  }),
  setting({
    key: 'accessTokenTtl',
    env: 'GATEHOUSE_ACCESS_TOKEN_TTL',
    flag: '--access-token-ttl',
    description: 'Access token lifetime in seconds',
    parse: integer(60, 24 * 3600),
    fallback: () => 3600,
  }),
  setting({
    key: 'refreshTokenTtl',
    env: 'GATEHOUSE_REFRESH_TOKEN_TTL',
    flag: '--refresh-token-ttl',
    description: 'Refresh token lifetime in seconds',
    parse: integer(300, 365 * 24 * 3600),
    fallback: () => 30 * 24 * 3600,
  }),
  setting({
    key: 'idempotencyRetention',
    env: 'GATEHOUSE_IDEMPOTENCY_RETENTION',
    flag: '--idempotency-retention',
    description: 'How long Idempotency-Key records are kept, in seconds',
    parse: integer(60, 30 * 24 * 3600),
    fallback: () => 24 * 3600,
  }),
  setting({
    key: 'auditRetention',
    env: 'GATEHOUSE_AUDIT_RETENTION',
    flag: '--audit-retention',
    description: 'How long audit records are kept, in days (PCI DSS 10.5.1 asks for a year)',
    parse: integer(1, 100 * 365),
    fallback: () => 400,
  }),
  setting({
    key: 'auditCheckpointInterval',
    env: 'GATEHOUSE_AUDIT_CHECKPOINT_INTERVAL',
    flag: '--audit-checkpoint-interval',
    description: "Seconds between signed checkpoints of an account's audit chain while it grows",
    parse: integer(1, 24 * 3600),
    fallback: () => 300,
  }),
  setting({
    key: 'webhookRetrySchedule',
    env: 'GATEHOUSE_WEBHOOK_RETRY_SCHEDULE',
    flag: '--webhook-retry-schedule',
    description: 'Seconds before each webhook retry, comma-separated; then the delivery is parked',
    parse: secondsList,
    fallback: () => [5, 300, 1800, 7200, 18000, 36000, 36000],
  }),
  setting({
    key: 'webhookAllowNetworks',
    env: 'GATEHOUSE_WEBHOOK_ALLOW_NETWORKS',
    flag: '--webhook-allow-networks',
    description: 'CIDR blocks webhook receivers may use although not globally routable (e.g. 127.0.0.0/8, 64:ff9b::/96)',
    parse: cidrList,
    fallback: () => [],
  }),
  setting({
    key: 'inProcessWorkers',
    env: 'GATEHOUSE_IN_PROCESS_WORKERS',
    flag: '--in-process-workers',
    description: 'Run webhook delivery and payout processing inside serve (on by default)',
    parse: bool,
    fallback: () => true,
  }),
  setting({
    key: 'databasePoolSize',
    env: 'GATEHOUSE_DATABASE_POOL_SIZE',
    flag: '--database-pool-size',
    description: 'PostgreSQL connections per node',
    parse: integer(1, 1000),
    fallback: () => 10,
  }),
  setting({
    key: 'databaseStatementTimeout',
    env: 'GATEHOUSE_DATABASE_STATEMENT_TIMEOUT',
    flag: '--database-statement-timeout',
    description: 'PostgreSQL statement timeout in milliseconds',
    parse: integer(100, 600_000),
    fallback: () => 15_000,
  }),
  setting({
    key: 'databaseAcquireTimeout',
    env: 'GATEHOUSE_DATABASE_ACQUIRE_TIMEOUT',
    flag: '--database-acquire-timeout',
    description: 'Milliseconds a request waits for a free PostgreSQL connection (or a new one) before failing with 503',
    parse: integer(50, 60_000),
    fallback: () => 5_000,
  }),
  setting({
    key: 'redisKeyPrefix',
    env: 'GATEHOUSE_REDIS_KEY_PREFIX',
    flag: '--redis-key-prefix',
    description: 'Prefix of the rate-limit keys kept in Redis',
    parse: (raw) => {
      if (!/^[A-Za-z0-9_:.-]{1,64}$/.test(raw.trim())) throw new Invalid('expected 1-64 letters, digits, _ : . or -');
      return raw.trim();
    },
    fallback: () => 'gh_rl',
  }),
  setting({
    key: 'redisTimeout',
    env: 'GATEHOUSE_REDIS_TIMEOUT',
    flag: '--redis-timeout',
    description: 'Milliseconds a Redis command may take; past it rate limits are counted in-process until Redis answers again',
    parse: integer(10, 5000),
    fallback: () => 250,
  }),
  setting({
    key: 'workerMetricsPort',
    env: 'GATEHOUSE_WORKER_METRICS_PORT',
    flag: '--worker-metrics-port',
    description: 'Port (on the admin host) where gatehouse worker serves /metrics, /healthz and /readyz; unset: none',
    parse: integer(0, 65535),
    fallback: () => undefined,
  }),
  setting({
    key: 'idempotencyLease',
    env: 'GATEHOUSE_IDEMPOTENCY_LEASE',
    flag: '--idempotency-lease',
    description: 'Seconds a request holds its Idempotency-Key; a retry after a node died waits this long at most (keep it above the statement timeout)',
    parse: integer(1, 3600),
    fallback: () => 30,
  }),
  setting({
    key: 'cursorKeys',
    env: 'GATEHOUSE_CURSOR_KEYS',
    shown: 'secret',
    flag: '--cursor-keys',
    description: 'Paging cursor keys, kid:base64key comma-separated; the first seals, all open (generated and shared through the database when unset)',
    parse: cursorKeys,
    fallback: () => undefined,
  }),
  setting({
    key: 'cursorTtl',
    env: 'GATEHOUSE_CURSOR_TTL',
    flag: '--cursor-ttl',
    description: 'How long a paging cursor stays valid, in seconds',
    parse: integer(60, 30 * 24 * 3600),
    fallback: () => 24 * 3600,
  }),
  setting({
    key: 'payoutDelay',
    env: 'GATEHOUSE_PAYOUT_DELAY',
    flag: '--payout-delay',
    description: 'Seconds a payout stays pending before the payout processor settles it',
    parse: integer(0, 7 * 24 * 3600),
    fallback: () => 5,
  }),
  setting({
    key: 'rateLimitApi',
    env: 'GATEHOUSE_RATE_LIMIT_API',
    flag: '--rate-limit-api',
    description: 'API requests allowed per credential, as requests/seconds',
    parse: rate,
    fallback: () => ({ points: 100, seconds: 1 }),
  }),
  setting({
    key: 'rateLimitApiFailures',
    env: 'GATEHOUSE_RATE_LIMIT_API_FAILURES',
    flag: '--rate-limit-api-failures',
    description: 'API requests refused 401 or 403 allowed per address, as failures/seconds; an address past it is refused 429 until the window ends',
    parse: rate,
    fallback: () => ({ points: 100, seconds: 60 }),
  }),
  setting({
    key: 'rateLimitAdminFailures',
    env: 'GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES',
    flag: '--rate-limit-admin-failures',
    description: 'Admin API requests refused for their admin token allowed per address, as failures/seconds; an address past it is refused 429, its token not compared, until the window ends',
    parse: rate,
    fallback: () => ({ points: 20, seconds: 60 }),
  }),
  setting({
    key: 'rateLimitToken',
    env: 'GATEHOUSE_RATE_LIMIT_TOKEN',
    flag: '--rate-limit-token',
    description: 'Token requests allowed per client, as requests/seconds',
    parse: rate,
    fallback: () => ({ points: 100, seconds: 1 }),
  }),
  setting({
    key: 'rateLimitSignIn',
    env: 'GATEHOUSE_RATE_LIMIT_SIGNIN',
    flag: '--rate-limit-signin',
    description: 'Sign-in attempts allowed per userName, as attempts/seconds',
    parse: rate,
    fallback: () => ({ points: 10, seconds: 300 }),
  }),
  setting({
    key: 'secretsKey',
    env: 'GATEHOUSE_SECRETS_KEY',
    shown: 'secret',
    flag: '--secrets-key',
    description: 'Base64 of 32 random bytes sealing what is stored and must be recovered: webhook secrets, signing and token MAC keys, the generated cursor key. Required with PostgreSQL; on SQLite generated into a 0600 file beside the database when unset',
    parse: (raw) => {
      const v = raw.trim();
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(v) || Buffer.from(v, 'base64').length !== 32) throw new Invalid('expected base64 of 32 bytes (openssl rand -base64 32)');
      return v;
    },
    fallback: () => undefined,
  }),
  setting({
    key: 'webhookTimeout',
    env: 'GATEHOUSE_WEBHOOK_TIMEOUT',
    flag: '--webhook-timeout',
    description: 'Seconds a receiver has to answer one webhook attempt',
    parse: integer(1, 300),
    fallback: () => 15,
  }),
  setting({
    key: 'webhookConcurrency',
    env: 'GATEHOUSE_WEBHOOK_CONCURRENCY',
    flag: '--webhook-concurrency',
    description: 'Webhook attempts in flight per endpoint per worker',
    parse: integer(1, 256),
    fallback: () => 16,
  }),
  setting({
    key: 'webhookDisableAfter',
    env: 'GATEHOUSE_WEBHOOK_DISABLE_AFTER',
    flag: '--webhook-disable-after',
    description: 'Seconds of unbroken failures after which an endpoint is disabled (default 5 days)',
    parse: integer(60, 365 * 24 * 3600),
    fallback: () => 5 * 24 * 3600,
  }),
  setting({
    key: 'trustedProxies',
    env: 'GATEHOUSE_TRUSTED_PROXIES',
    flag: '--trusted-proxies',
    description: 'Addresses or CIDR blocks of your load balancers and reverse proxies, comma-separated; only requests from them have X-Forwarded-For believed (unset: none)',
    parse: addressList,
    fallback: () => [],
  }),
  setting({
    key: 'rateLimitTokenFailures',
    env: 'GATEHOUSE_RATE_LIMIT_TOKEN_FAILURES',
    flag: '--rate-limit-token-failures',
    description: 'Failed client authentications allowed per address, and per claimed client, as failures/seconds',
    parse: rate,
    fallback: () => ({ points: 30, seconds: 60 }),
  }),
  setting({
    key: 'rateLimitSignInAddress',
    env: 'GATEHOUSE_RATE_LIMIT_SIGNIN_ADDRESS',
    flag: '--rate-limit-signin-address',
    description: 'Failed sign-ins allowed per address and account, as failures/seconds',
    parse: rate,
    fallback: () => ({ points: 100, seconds: 300 }),
  }),
  setting({
    key: 'httpRequestTimeout',
    env: 'GATEHOUSE_HTTP_REQUEST_TIMEOUT',
    flag: '--http-request-timeout',
    description: 'Seconds a client has to send a whole request (line, headers and body) before it is answered 408 and closed',
    parse: integer(1, 3600),
    fallback: () => 30,
  }),
  setting({
    key: 'httpHeadersTimeout',
    env: 'GATEHOUSE_HTTP_HEADERS_TIMEOUT',
    flag: '--http-headers-timeout',
    description: 'Seconds a client has to send a request line and headers (a new connection included) before it is answered 408 and closed; at most the request timeout',
    parse: integer(1, 3600),
    fallback: (c) => Math.min(10, c.httpRequestTimeout!),
  }),
  setting({
    key: 'httpKeepAliveTimeout',
    env: 'GATEHOUSE_HTTP_KEEP_ALIVE_TIMEOUT',
    flag: '--http-keep-alive-timeout',
    description: 'Seconds an idle keep-alive connection stays open (keep it above a load balancer\'s idle timeout)',
    parse: integer(1, 3600),
    fallback: () => 72,
  }),
  setting({
    key: 'httpMaxConnections',
    env: 'GATEHOUSE_HTTP_MAX_CONNECTIONS',
    flag: '--http-max-connections',
    description: 'Open connections per listener; connections beyond it are closed on arrival (keep it below the open-file limit)',
    parse: integer(1, 1_000_000),
    fallback: () => 4096,
  }),
  setting({
    key: 'shutdownGrace',
    env: 'GATEHOUSE_SHUTDOWN_GRACE',
    flag: '--shutdown-grace',
    description: 'Seconds serve keeps serving after SIGTERM, with /readyz answering 503 and every response closing its connection, before its listeners close (at least the load balancer\'s health-check interval times its failure threshold)',
    parse: integer(0, 300),
    fallback: () => 5,
  }),
  setting({
    key: 'shutdownTimeout',
    env: 'GATEHOUSE_SHUTDOWN_TIMEOUT',
    flag: '--shutdown-timeout',
    description: 'Seconds a stopping serve or worker waits for requests and background work in flight once its listeners close; what is left then is cut off',
    parse: integer(0, 600),
    fallback: () => 20,
  }),
] as const;

export type Flags = Record<string, string>;

/**
 * Resolves every setting from flags (by flag name, without leading dashes or with them)
 * and environment. Throws `ConfigError` on the first bad value.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Flags = {}): Config {
  const resolved: Partial<Config> = {};
  for (const s of SETTINGS as readonly Setting<keyof Config>[]) {
    const fromFlag = flags[s.flag] ?? flags[s.flag.replace(/^--/, '')];
    // An empty environment variable counts as unset, as shells and service managers expect.
    const fromEnv = env[s.env] === '' ? undefined : env[s.env];
    const raw = fromFlag ?? fromEnv;
    const name = fromFlag !== undefined ? s.flag : s.env;
    if (raw === undefined) {
      (resolved as Record<string, unknown>)[s.key] = s.fallback(resolved);
      continue;
    }
    try {
      (resolved as Record<string, unknown>)[s.key] = s.parse(raw);
    } catch (error) {
      if (error instanceof Invalid) throw new ConfigError(name, error.message, shownValue(raw, s.shown));
      throw error;
    }
  }
  resolved.databaseKind = resolved.databaseUrl!.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  // The headers arrive within the request: a longer bound for them would never be reached.
  if (resolved.httpHeadersTimeout! > resolved.httpRequestTimeout!) {
    throw new ConfigError(settingEnv('httpHeadersTimeout'), `must be at most the request timeout, GATEHOUSE_HTTP_REQUEST_TIMEOUT (${resolved.httpRequestTimeout} s)`, JSON.stringify(String(resolved.httpHeadersTimeout)));
  }
  return resolved as Config;
}

/** The environment variable of a setting, for messages that name it. */
export function settingEnv(key: keyof Config): string {
  return (SETTINGS as readonly Setting<keyof Config>[]).find((s) => s.key === key)!.env;
}
