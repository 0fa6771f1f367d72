import { pathToFileURL } from 'node:url';
import { loadConfig } from '../config.ts';
import { createGatehouse, type GatehouseDeps } from '../app.ts';
import type { CommandContext } from './commands.ts';

export async function serve({ flags, env }: CommandContext): Promise<number> {
  const config = loadConfig(env, flags);
  const gatehouse = await createGatehouse(config, await testExtensions(env));
  const { log } = gatehouse;
  const generated = gatehouse.adminToken.generated;
  if (generated) {
    // Shown once, on the start that created it; only its digest is stored.
    process.stderr.write(
      `\nAdmin token (shown once; also saved to ${generated.file} with mode 0600):\n  ${generated.token}\n\n`,
    );
  }
  const { publicUrl, adminUrl } = await gatehouse.listen();
  log.info(
    {
      public: publicUrl,
      admin: adminUrl,
      issuer: config.issuer,
      database: gatehouse.database.kind,
      databaseLocation: gatehouse.database.location,
      dataDir: config.dataDir,
      rateLimits: config.rateLimits ? (config.redisUrl ? 'redis' : 'in-process') : 'off',
    },
    `gatehouse listening on ${publicUrl} (admin ${adminUrl}), ${gatehouse.database.kind} at ${gatehouse.database.location}`,
  );

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'shutting down: finishing requests in flight');
      gatehouse
        .close()
        .then(() => {
          log.info('stopped');
          resolve(0);
        })
        .catch((error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          resolve(1);
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
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
