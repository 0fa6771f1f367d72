/**
 * `gatehouse serve`: one node. Start-up binds both listeners before any background work starts
 * (a port in use is exit 1 with one line naming its setting, and nothing has run). A stop
 * signal drains the node for GATEHOUSE_SHUTDOWN_GRACE (readiness 503, every response closing
 * its connection; a second signal cuts it short), then closes the listeners and lets requests
 * in flight finish, stops the background work and closes the database, all within
 * GATEHOUSE_SHUTDOWN_TIMEOUT; then it exits 0.
 */
import { pathToFileURL } from 'node:url';
import { loadConfig, settingEnv } from '../config.ts';
import { createGatehouse, type GatehouseDeps } from '../app.ts';
import { exitAfterStop, stopSignal } from './signals.ts';
import { logEvent } from '../platform/log-events.ts';
import type { CommandContext } from './commands.ts';
import type { FastifyBaseLogger } from 'fastify';

export async function serve({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const gatehouse = await createGatehouse(config, await testExtensions(env));
  const { log } = gatehouse;
  const generated = gatehouse.adminToken.generated;
  if (generated) {
    // Shown once, on the start that created it; only its digest is stored. The log is written
    // in batches: what it holds goes out first, so the notice follows the start-up lines, not
    // the middle of them.
    await new Promise<void>((resolve) => (log as FastifyBaseLogger & { flush(done: () => void): void }).flush(() => resolve()));
    process.stderr.write(
      `\nAdmin token (shown once; also saved to ${generated.file} with mode 0600):\n  ${generated.token}\n\n`,
    );
  }
  if (gatehouse.adminToken.revokedGenerated) {
    logEvent(log, 'admin.generated_token_revoked', {}, 'GATEHOUSE_ADMIN_TOKEN is set: the admin token generated earlier is revoked');
  }
  const signal = stopSignal();
  let urls;
  try {
    urls = await gatehouse.listen();
  } catch (error) {
    signal.dispose();
    await gatehouse.close();
    exitAfterStop(1);
    throw error;
  }
  const { publicUrl, adminUrl } = urls;
  log.info(
    {
      public: publicUrl,
      admin: adminUrl,
      issuer: config.issuer,
      database: gatehouse.database.dialect.name,
      databaseLocation: gatehouse.database.location,
      dataDir: config.dataDir,
      // Where they are counted now: a Redis that is configured but cannot be reached says in-process.
      rateLimits: gatehouse.services.rateLimits.store(),
      workers: config.inProcessWorkers ? 'in process' : 'gatehouse worker',
    },
    `gatehouse listening on ${publicUrl} (admin ${adminUrl}), ${gatehouse.database.dialect.name} at ${gatehouse.database.location}${everyInterface(config)}`,
  );

  if (!config.inProcessWorkers) {
    // Nothing here pays payouts or delivers webhooks: said at start, not found out from a queue.
    log.info(`${settingEnv('inProcessWorkers')}=off: payouts, webhook deliveries and sweeps are left to \`gatehouse worker\` processes`);
  }
  if (!isLoopback(config.adminHost)) {
    logEvent(log, 'admin.listener_exposed', { admin_host: config.adminHost }, `the admin listener is bound to ${config.adminHost}, beyond this machine: keep it off public networks (docs/SECURITY.md)`);
  }

  const received = await signal.first;
  log.info(
    { signal: received, graceSeconds: config.shutdownGrace, timeoutSeconds: config.shutdownTimeout },
    config.shutdownGrace > 0
      ? `shutting down: /readyz answers 503 and responses close their connections for ${config.shutdownGrace} s (a second signal ends this), ` +
          `then listeners close and work in flight finishes (at most ${config.shutdownTimeout} s)`
      : `shutting down: listeners close and work in flight finishes (at most ${config.shutdownTimeout} s)`,
  );
  try {
    await gatehouse.close({ graceMs: config.shutdownGrace * 1000, endGrace: signal.again, timeoutMs: config.shutdownTimeout * 1000 });
  } catch (error) {
    log.error({ err: error }, 'shutdown failed');
    exitAfterStop(1);
    return 1;
  } finally {
    signal.dispose();
  }
  log.info('stopped');
  exitAfterStop(0);
  return 0;
}

/**
 * Test-only: with NODE_ENV=test, GATEHOUSE_TEST_EXTENSIONS names a module whose
 * `testExtensions` export adds routes and write hooks to a spawned server (tests that need
 * several real processes or a real kill -9). Ignored, and never read, in any other mode.
 */
async function testExtensions(env: NodeJS.ProcessEnv): Promise<GatehouseDeps> {
  if (env.NODE_ENV !== 'test' || !env.GATEHOUSE_TEST_EXTENSIONS) return {};
  const module = (await import(pathToFileURL(env.GATEHOUSE_TEST_EXTENSIONS).href)) as { testExtensions: GatehouseDeps };
  return module.testExtensions;
}

/**
 * The URLs above are where this machine reaches the listeners; a listener bound to every interface
 * (0.0.0.0, ::) is reachable from elsewhere too, which the operator should read in the same line.
 */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

function everyInterface(config: { host: string; adminHost: string }): string {
  const wildcard = (host: string) => host === '0.0.0.0' || host === '::' || host === '[::]';
  const bound = [wildcard(config.host) && `public on ${config.host}`, wildcard(config.adminHost) && `admin on ${config.adminHost}`].filter(Boolean);
  return bound.length > 0 ? `; bound to every interface: ${bound.join(', ')}` : '';
}
