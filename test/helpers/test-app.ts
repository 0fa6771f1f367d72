/**
 * A real Gatehouse on real listeners (ephemeral ports) and a real database, with an injected
 * clock. Tests talk to it over HTTP with fetch, exactly as clients do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config.ts';
import { createGatehouse, type Gatehouse, type GatehouseDeps } from '../../src/app.ts';
import { createTestClock, type TestClock } from '../../src/platform/clock.ts';
import { secretsKeyEnvFor, type DatabaseTarget } from './databases.ts';
import type { Json } from './http.ts';
import { freePort, retryWhilePortTaken } from './processes.ts';
import { Agent, setGlobalDispatcher } from 'undici';

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

export interface TestApp {
  gatehouse: Gatehouse;
  config: Config;
  clock: TestClock;
  publicUrl: string;
  adminUrl: string;
  /** Every log line written so far (JSON text). */
  logs: string[];
  /** fetch against the admin listener with the admin token. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: Json }>;
  /** Stops this instance and starts a new one on the same database (data survives). */
  restart(): Promise<TestApp>;
  /**
   * A second node on the same database, with its own caches and write lanes, as another machine
   * runs one (the same issuer, clock and secrets key); its close leaves the database.
   */
  anotherNode(): Promise<TestApp>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: TestClock;
  /** Test-only routes and write hooks (see GatehouseDeps). */
  extensions?: Pick<GatehouseDeps, 'extraRoutes' | 'writeHooks'>;
  userScopeBound?: GatehouseDeps['userScopeBound'];
  /** Replacements for what cannot exist here, e.g. a DNS resolver answering private addresses. */
  deps?: Pick<GatehouseDeps, 'webhookResolve'>;
}

export async function startTestApp(target: DatabaseTarget, options: TestAppOptions = {}): Promise<TestApp> {
  // Already migrated where the target can do that faster than the start (the start still runs
  // its migration step, which then finds nothing to do).
  const database = await (target.createMigrated?.() ?? target.create());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-data-'));
  // The issuer must be the URL clients actually reach, so the public port is chosen first. Another
  // process may take that port before the app binds it; then a new one is chosen.
  const portTaken = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE' && !options.env?.GATEHOUSE_PORT;
  return retryWhilePortTaken(async () => {
    const port = await freePort();
    const env = {
      GATEHOUSE_PORT: String(port),
      GATEHOUSE_ISSUER: `http://127.0.0.1:${port}`,
      // Suites that fire hundreds of concurrent requests are about other rules; the limits
      // themselves are tested with their own settings.
      GATEHOUSE_RATE_LIMIT_API: '100000/1',
      GATEHOUSE_RATE_LIMIT_API_FAILURES: '100000/1',
      GATEHOUSE_RATE_LIMIT_ADMIN_FAILURES: '100000/1',
      GATEHOUSE_RATE_LIMIT_TOKEN: '100000/1',
      GATEHOUSE_RATE_LIMIT_TOKEN_FAILURES: '100000/1',
      ...options.env,
    };
    return startOn(database, dataDir, { ...options, env });
  }, portTaken);
}


async function startOn(
  database: { url: string; drop(): Promise<void> },
  dataDir: string,
  options: TestAppOptions,
): Promise<TestApp> {
  const config = loadConfig({
    GATEHOUSE_DATABASE_URL: database.url,
    GATEHOUSE_DATA_DIR: dataDir,
    GATEHOUSE_HOST: '127.0.0.1',
    GATEHOUSE_PORT: '0',
    GATEHOUSE_ADMIN_PORT: '0',
    GATEHOUSE_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    GATEHOUSE_LOG_LEVEL: 'info',
    GATEHOUSE_IN_PROCESS_WORKERS: 'off',
    ...secretsKeyEnvFor(database.url),
    ...options.env,
  });
  const clock = options.clock ?? createTestClock(Date.now());
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const gatehouse = await createGatehouse(config, {
    clock,
    logDestination,
    userScopeBound: options.userScopeBound,
    ...options.extensions,
    ...options.deps,
  });
  const { publicUrl, adminUrl } = await gatehouse.listen().catch(async (error: unknown) => {
    await gatehouse.close();
    throw error;
  });
  return {
    gatehouse,
    config,
    clock,
    publicUrl,
    adminUrl,
    logs,
    async admin(method, p, body) {
      const response = await fetch(adminUrl + p, {
        method,
        headers: {
          authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
    },
    async restart() {
      await gatehouse.close();
      // Pooled keep-alive sockets belong to the stopped server; later requests must open new ones.
      setGlobalDispatcher(new Agent());
      return startOn(database, dataDir, { ...options, clock });
    },
    async anotherNode() {
      const nodeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-data-'));
      const leaveDatabase = { url: database.url, drop: async () => {} };
      const taken = (error: unknown) => (error as { code?: string }).code === 'EADDRINUSE';
      return retryWhilePortTaken(async () => startOn(leaveDatabase, nodeDir, { ...options, clock, env: { ...options.env, GATEHOUSE_PORT: String(await freePort()) } }), taken);
    },
    async close() {
      await gatehouse.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
